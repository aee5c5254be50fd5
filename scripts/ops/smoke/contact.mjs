// @ts-check
/**
 * The contact routes refuse a cross-site post (src/middleware/same-origin/). The smoke's posts carry
 * empty fields, so even a site that wrongly let them through would refuse them as invalid and send
 * no message.
 */
import { CONTACT_API_PATH, CONTACT_PAGE_PATH } from '../../../src/shared/site-paths.ts'

const CROSS_SITE = { Origin: 'https://smoke-check.invalid', 'Sec-Fetch-Site': 'cross-site' }

/**
 * @param {import('./http.mjs').Client} client
 * @param {import('./report.mjs').Report} report
 */
export async function checkContactRefusesCrossSite(client, report) {
  const posts = [
    {
      path: CONTACT_API_PATH,
      type: 'application/json',
      body: JSON.stringify({ name: '', email: '', message: '' }),
    },
    {
      path: `/en${CONTACT_PAGE_PATH}`,
      type: 'application/x-www-form-urlencoded',
      body: 'name=&email=&message=',
    },
  ]
  for (const post of posts) {
    const name = `contact refuses a cross-site post, POST ${post.path}`
    await report.guard(name, async () => {
      const answer = await client.request(post.path, {
        method: 'POST',
        headers: { ...CROSS_SITE, 'Content-Type': post.type },
        body: post.body,
      })
      report.expect(
        answer.status === 403,
        name,
        `${answer.status}${answer.status === 403 ? '' : ': the origin check let it through (its empty fields kept it from being sent)'}`
      )
    })
  }
}
