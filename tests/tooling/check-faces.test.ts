/// <reference types="node" />
/**
 * `npm run check:faces` as the checks stage meets it: on a small tree of its own, it passes while
 * every import of a folder with an index.ts goes through that index, and names each import that
 * reaches past it with the file and line. On this repository itself it passes.
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it, onTestFinished } from 'vitest'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const SCRIPT = path.join(ROOT, 'scripts/ops/check-faces.mjs')

/** A tree whose imports all go through the faces; `extra` adds or replaces files. */
function fixtureTree(extra: Record<string, string> = {}) {
  const root = mkdtempSync(path.join(tmpdir(), 'check-faces-'))
  onTestFinished(() => rmSync(root, { recursive: true, force: true }))
  const files: Record<string, string> = {
    'src/index.ts': "import { pageCache } from './freshness'\nexport default pageCache\n",
    'src/freshness/index.ts': "export { pageCache } from './page-cache'\n",
    'src/freshness/page-cache.ts':
      "import { schema } from '../content/schemas'\nexport const pageCache = schema\n",
    'src/content/schemas.ts': "export const schema = 'a module of a folder without a face'\n",
    'client/main.ts':
      "import type { pageCache } from '../src/freshness'\nexport type P = typeof pageCache\n",
    ...extra,
  }
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true })
    writeFileSync(path.join(root, file), text)
  }
  return root
}

const check = (root?: string) =>
  spawnSync(process.execPath, [SCRIPT, ...(root ? [root] : [])], { encoding: 'utf8' })

describe('npm run check:faces', () => {
  it('passes while every import of a folder with an index.ts goes through it', () => {
    const result = check(fixtureTree())
    expect(result.stderr).toBe('')
    expect(result.status).toBe(0)
  })

  it('names each import past a face, static, dynamic or of a type, with its file and line', () => {
    const result = check(
      fixtureTree({
        'src/routes/pages.ts': [
          "import { pageCache } from '../freshness/page-cache'",
          "export const later = () => import('../freshness/page-cache')",
          '',
        ].join('\n'),
        'client/main.ts':
          "import type { pageCache } from '../src/freshness/page-cache'\nexport type P = typeof pageCache\n",
      })
    )
    expect(result.status).toBe(1)
    expect(result.stderr.trim().split('\n')).toEqual([
      'src/routes/pages.ts:1: imports src/freshness/page-cache past its face src/freshness: import src/freshness',
      'src/routes/pages.ts:2: imports src/freshness/page-cache past its face src/freshness: import src/freshness',
      'client/main.ts:1: imports src/freshness/page-cache past its face src/freshness: import src/freshness',
    ])
  })

  it('passes on this repository', () => {
    const result = check()
    expect(result.stderr).toBe('')
    expect(result.status).toBe(0)
  })
})
