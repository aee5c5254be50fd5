/**
 * Where every driver puts its screenshots: tests/e2e/screenshots/<name>.png (git-ignored), when a
 * run asks for them (E2E_SCREENSHOTS=1: `npm run test:screenshots`, `npm run test:engines`).
 * They are for people to look at, not checks, and each costs Chromium about a CPU-second to paint
 * and encode, so `npm test` takes none (docs/decisions/0052-screenshots-when-asked.md).
 */
import { mkdirSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const SCREENSHOTS = fileURLToPath(new URL('../../../e2e/screenshots/', import.meta.url))

/** The file for the screenshot `name`, or null when this run takes no screenshots. */
export function screenshotFile(name: string): string | null {
  if (process.env.E2E_SCREENSHOTS !== '1') return null
  mkdirSync(SCREENSHOTS, { recursive: true })
  return path.join(SCREENSHOTS, `${name.replace(/[^\w.-]+/g, '-')}.png`)
}
