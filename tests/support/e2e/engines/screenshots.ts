/** Where every driver puts its full-page screenshots: tests/e2e/screenshots/<name>.png (git-ignored). */
import { mkdirSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const SCREENSHOTS = fileURLToPath(new URL('../../../e2e/screenshots/', import.meta.url))

export function screenshotFile(name: string): string {
  mkdirSync(SCREENSHOTS, { recursive: true })
  return path.join(SCREENSHOTS, `${name.replace(/[^\w.-]+/g, '-')}.png`)
}
