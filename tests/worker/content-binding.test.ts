/// <reference path="../support/setup/env.d.ts" />
/**
 * Proves the test wiring of vitest.config.ts: the site worker's CONTENT binding reaches the
 * bundled content service, whose database was migrated and seeded by tests/support/setup/site.ts.
 */
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'

describe('CONTENT service binding', () => {
  it('answers navbar-data with the seeded trilingual labels', async () => {
    const response = await env.CONTENT.fetch('https://content/api/erebuni/navbar-data')
    expect(response.status).toBe(200)
    expect(response.headers.get('Content-Type')).toMatch(/^application\/json/)
    const { payload } = (await response.json()) as { payload: Record<string, string> }
    expect(payload).toMatchObject({
      home: 'Home',
      ru_home: 'Главная',
      arm_home: 'Գլխավոր',
      contactUs: 'Contact us',
    })
  })
})
