/// <reference types="node" />
/**
 * scripts/lib/camera-uploads/server.mjs, the camera-uploads CMS the browser tests and the bench run
 * the site on: with `uploadsIn`, only the payloads of the calls named carry camera uploads, and the
 * rest of the content keeps the bundled images (tests/e2e/images-after-publish.spec.ts). Without it,
 * every payload carries uploads: tests/e2e/images.spec.ts and the bench run on that, and it is not
 * repeated here, since a fresh clone would draw every kind's photos for it.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { startCameraBackend } from '../../scripts/lib/camera-uploads/server.mjs'

type Backend = Awaited<ReturnType<typeof startCameraBackend>>
let backend: Backend | undefined

afterEach(async () => {
  await backend?.close()
  backend = undefined
})

async function payload(origin: string, call: string): Promise<string> {
  const response = await fetch(`${origin}/api/erebuni/${call}`)
  expect(response.status).toBe(200)
  return JSON.stringify(((await response.json()) as { payload: unknown }).payload)
}

describe('the camera-uploads CMS', () => {
  it('with uploadsIn, answers camera uploads in the calls named and the bundled images elsewhere', async () => {
    backend = await startCameraBackend({ port: 0, uploadsIn: ['contact-us'] })
    const contact = await payload(backend.origin, 'contact-us')
    expect(contact).toContain(`"firstBanner":"${backend.origin}/uploads/banners-contact-hero.jpg"`)
    expect(contact).toContain(`"secondBanner":"${backend.origin}/uploads/contact-office.jpg"`)
    expect([...backend.photos.keys()].sort()).toEqual([
      '/uploads/banners-contact-hero.jpg',
      '/uploads/contact-office.jpg',
    ])
    for (const call of ['get-home-page', 'get-about-page', 'get-enterprises-page']) {
      const other = await payload(backend.origin, call)
      expect(other, call).not.toContain(backend.origin)
      expect(other, call).toMatch(/"\/images\/[^"]+\.(jpe?g|png)"/)
    }
    const photo = await fetch(`${backend.origin}/uploads/contact-office.jpg`)
    expect(photo.headers.get('Content-Type')).toBe('image/jpeg')
    expect((await photo.arrayBuffer()).byteLength).toBeGreaterThan(1_000_000)
  })

  it('refuses a call it does not answer, naming the ones it does', async () => {
    await expect(
      startCameraBackend({ port: 0, uploadsIn: ['get-home' as 'get-home-page'] })
    ).rejects.toThrow(/no call get-home; calls: get-home-page, .*page-meta-data/)
  })
})
