/// <reference types="node" />
/**
 * `npm run bench -- --write docs/performance.md` (scripts/bench/figures-file.mjs): the run's figures
 * replace the file's figures section, so the file holds the latest run's figures and never a
 * history; a file it cannot write is refused before the bench starts.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { replaceFigures, writeFigures, type Run } from '../../scripts/bench/figures-file.mjs'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')

const PAGE = `# Performance

What the figures are.

<!-- bench:figures -->
Measured on 2026-11-01 with \`npm run bench\`, on an old machine.

<!-- bench:serving -->

### Serving

| target | req/s |
|---|---|
| cached page | 500 |

<!-- /bench:serving -->

<!-- bench:freshness -->

### Freshness

worst staleness 354 s

<!-- /bench:freshness -->
<!-- /bench:figures -->

## How to measure

Run the bench.
`

function run(overrides: Partial<Run>): Run {
  return {
    sections: [
      {
        name: 'serving',
        title: 'Serving',
        blocks: ['| target | req/s |\n|---|---|\n| cached page | 610 |'],
      },
      { name: 'freshness', title: 'Freshness', blocks: ['worst staleness 350 s'] },
    ],
    complete: true,
    date: '2026-11-26',
    machine: 'a 2-core test machine',
    command: 'npm run bench',
    ...overrides,
  }
}

function bench(args: string[]) {
  return spawnSync(process.execPath, ['scripts/bench/index.mjs', ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 30_000,
  })
}

describe('the bench writing its figures into a page (--write)', () => {
  it('a run of every step replaces the whole figures section, names its date and machine once, and keeps the rest of the page', () => {
    const next = replaceFigures(PAGE, run({}))
    expect(next).toContain('Measured on 2026-11-26 with `npm run bench`, on a 2-core test machine.')
    expect(next).toContain('| cached page | 610 |')
    expect(next).not.toContain('| cached page | 500 |')
    expect(next).not.toContain('2026-11-01')
    expect(next.match(/Measured on/g)).toHaveLength(1)
    expect(
      next.startsWith('# Performance\n\nWhat the figures are.\n\n<!-- bench:figures -->')
    ).toBe(true)
    expect(next.endsWith('<!-- /bench:figures -->\n\n## How to measure\n\nRun the bench.\n')).toBe(
      true
    )
  })

  it('running it again replaces the figures instead of adding to them', () => {
    const once = replaceFigures(PAGE, run({}))
    expect(replaceFigures(once, run({}))).toBe(once)
    const partial = run({
      complete: false,
      command: 'npm run bench:serving',
      sections: [run({}).sections[0]!],
    })
    const twice = replaceFigures(replaceFigures(once, partial), partial)
    expect(twice).toBe(replaceFigures(once, partial))
    expect(twice.match(/<!-- bench:serving -->/g)).toHaveLength(1)
  })

  it("a run of one step replaces only that step's section, which then names its own date and machine", () => {
    const serving = run({
      complete: false,
      command: 'npm run bench:serving',
      sections: [run({}).sections[0]!],
    })
    const next = replaceFigures(PAGE, serving)
    expect(next).toContain('| cached page | 610 |')
    expect(next).toContain(
      'Measured on 2026-11-26 with `npm run bench:serving`, on a 2-core test machine.'
    )
    // The other step and the whole run's line are as they were.
    expect(next).toContain('worst staleness 354 s')
    expect(next).toContain('Measured on 2026-11-01 with `npm run bench`, on an old machine.')
  })

  it('a step the page has no section for yet gets one at the end of the figures', () => {
    const abuse = {
      name: 'image-abuse',
      title: "The image route's fences",
      blocks: ['workerd +99 MB'],
    }
    const next = replaceFigures(
      PAGE,
      run({ complete: false, command: 'npm run bench:image-abuse', sections: [abuse] })
    )
    expect(next).toMatch(
      /<!-- \/bench:freshness -->\n\n<!-- bench:image-abuse -->[\s\S]*workerd \+99 MB\n\n<!-- \/bench:image-abuse -->\n<!-- \/bench:figures -->/
    )
  })

  it('a computed section says it is computed, not measured, in a run of every step and in a run of its own', () => {
    const model = { name: 'visit-model', title: 'A visit', blocks: ['p50 11 ms'], computed: true }
    const whole = replaceFigures(PAGE, run({ sections: [model] }))
    expect(whole).toContain(
      '### A visit\n\nComputed from the figures measured above and the assumptions named below; not a measurement.'
    )
    const alone = replaceFigures(
      PAGE,
      run({ complete: false, command: 'npm run bench:cold', sections: [model] })
    )
    expect(alone).toContain('### A visit\n\nComputed on 2026-11-26 with `npm run bench:cold`')
    expect(alone).not.toMatch(/### A visit\n\nMeasured/)
  })

  it('a page with two figures sections is refused and left as it was', () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'bench-figures-')), 'performance.md')
    writeFileSync(file, PAGE + PAGE)
    expect(() => writeFigures(file, run({}))).toThrow(/more than one figures section/)
    expect(readFileSync(file, 'utf8')).toBe(PAGE + PAGE)
  })

  it('a page without a figures section is refused before the bench starts, naming the fix, and left as it was', () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'bench-figures-')), 'performance.md')
    writeFileSync(file, '# Performance\n\nNo markers here.\n')
    const result = bench(['freshness', '--write', file])
    expect(result.status).toBe(2)
    expect(result.stderr).toContain(
      `${file} has no figures section to replace: put a line <!-- bench:figures --> and a line <!-- /bench:figures -->`
    )
    expect(result.stdout).not.toContain('Machine:')
    expect(readFileSync(file, 'utf8')).toBe('# Performance\n\nNo markers here.\n')
  })

  it('an unknown step is refused with the list of steps, and nothing runs', () => {
    const result = bench(['servng'])
    expect(result.status).toBe(2)
    expect(result.stderr).toContain('no bench step "servng"')
    expect(result.stderr).toContain(
      'steps: lighthouse, first-load, serving, page-weights, images, camera-images, navigations, image-abuse, freshness, cold, startup'
    )
    expect(result.stdout).not.toContain('Machine:')
  })
})
