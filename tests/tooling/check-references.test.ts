/// <reference types="node" />
/**
 * `npm run check:references` as the checks stage meets it: on a small tree of its own, it passes
 * when everything cited exists, names each missing file, decision record and npm script with the
 * file and line that cite it, and takes globs, placeholders, URLs, generated folders and code
 * outside comments for what they are. On this repository itself it passes.
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it, onTestFinished } from 'vitest'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')

/** A tree whose every citation exists; `extra` adds or replaces files. */
function fixtureTree(extra: Record<string, string> = {}) {
  const root = mkdtempSync(path.join(tmpdir(), 'check-references-'))
  onTestFinished(() => rmSync(root, { recursive: true, force: true }))
  const files: Record<string, string> = {
    'package.json': JSON.stringify({
      scripts: { build: 'node scripts/build.mjs', check: 'npm run build' },
    }),
    'scripts/build.mjs': '// Writes src/generated/manifest.ts, which docs/guide.md describes.\n',
    'docs/decisions/0001-one-build.md': '# 0001: One build\n\nStatus: accepted\n',
    'docs/guide.md': [
      '# Guide',
      '',
      'Build with `npm run build` (`scripts/build.mjs`, [decision 0001](decisions/0001-one-build.md)).',
      'Tests live in `tests/*.test.ts`, each `tests/<name>.test.ts`; see https://example.com/src/x.ts.',
      'What the build writes, `src/generated/manifest.ts` and `public/assets/`, a fresh clone lacks.',
      'Decisions 0001 and 0001 again; `npm run bench:<step>` is a placeholder.',
      '',
    ].join('\n'),
    'src/app.ts': [
      '/** The app (docs/guide.md, decision 0001). */',
      "export const guide = 'docs/not-a-comment.md' // a string is code, not a citation",
      'export const pattern = /src\\/missing\\//',
      '',
    ].join('\n'),
    'wrangler.toml': '# Built by scripts/build.mjs (docs/decisions/0001)\nmain = "src/app.ts"\n',
    'tests/app.test.ts': '// Tests src/app.ts.\n',
    'public/favicon.ico': '',
    ...extra,
  }
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true })
    writeFileSync(path.join(root, file), text)
  }
  return root
}

function checkReferences(root?: string) {
  const result = spawnSync(
    process.execPath,
    ['scripts/ops/check-references.mjs', ...(root ? [root] : [])],
    { cwd: ROOT, encoding: 'utf8' }
  )
  return { status: result.status, output: `${result.stdout}${result.stderr}` }
}

describe('npm run check:references', () => {
  it('passes a tree where every cited path, record and script exists', () => {
    const { status, output } = checkReferences(fixtureTree())
    expect(output).toMatch(/^check:references: \d+ citations in \d+ files, all exist$/m)
    expect(status).toBe(0)
  })

  it('names a missing file cited in a comment, in backticks and in a link', () => {
    const { status, output } = checkReferences(
      fixtureTree({
        'src/app.ts': '// Reads src/missing.ts.\nexport {}\n',
        'docs/more.md': 'See `scripts/gone.mjs` and [the guide](guide.md), [old](old-guide.md).\n',
        // A link is read from its file's folder, as a Markdown viewer reads it.
        'docs/links.md': '[The build](scripts/build.mjs), [the build](../scripts/build.mjs).\n',
      })
    )
    expect(output).toContain('src/app.ts:1: cites src/missing.ts, which does not exist')
    expect(output).toContain('docs/more.md:1: cites scripts/gone.mjs, which does not exist')
    expect(output).toContain('docs/more.md:1: cites old-guide.md, which does not exist')
    expect(output).toContain('docs/links.md:1: cites scripts/build.mjs, which does not exist')
    expect(output).not.toContain('cites ../scripts/build.mjs')
    expect(output).not.toContain('cites guide.md')
    expect(status).toBe(1)
  })

  it('names a missing decision record, by number or by file', () => {
    const { status, output } = checkReferences(
      fixtureTree({
        'docs/decisions/0002-two.md': '# 0002\n\nStatus: accepted\nSupersedes: 0007\n',
        'docs/guide.md': 'As decisions 0001 and 0003 say.\n',
        'wrangler.toml': '# docs/decisions/0001-one-build-renamed.md\n',
      })
    )
    expect(output).toContain(
      'docs/decisions/0002-two.md:4: cites decision 0007, which does not exist'
    )
    expect(output).toContain('docs/guide.md:1: cites decision 0003, which does not exist')
    expect(output).toContain(
      'wrangler.toml:1: cites docs/decisions/0001-one-build-renamed.md, which does not exist'
    )
    expect(output).not.toContain('cites decision 0001')
    expect(status).toBe(1)
  })

  it('names an npm script that package.json does not have', () => {
    const { status, output } = checkReferences(
      fixtureTree({
        'docs/guide.md': 'Run `npm run build`, then `npm run deploy -- --env staging`.\n',
      })
    )
    expect(output).toContain('docs/guide.md:1: cites npm run deploy, which does not exist')
    expect(output).not.toContain('npm run build,')
    expect(status).toBe(1)
  })

  it('passes on this repository', () => {
    const { status, output } = checkReferences()
    expect(output, output).toMatch(/all exist$/m)
    expect(status).toBe(0)
  })
})
