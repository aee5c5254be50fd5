#!/usr/bin/env node
// @ts-check
/**
 * `npm run check:faces` (part of `npm run check`, a stage of `npm test`): a folder of src/ that has
 * an index.ts is entered only through it. The index is the folder's public face (src/freshness/,
 * src/images/, src/contact/, each middleware ...); a file outside the folder imports the folder,
 * never a file inside it. A folder without an index.ts (src/content/, src/views/, src/shared/) is a
 * set of modules, each imported by its own name. src/index.ts is the worker's entry, not a face.
 * Read: the worker's and the browser bundle's code (src/, client/), every static, dynamic and
 * type import, and `export … from`. A tree other than this repository's may be named on the command
 * line (tests/tooling/check-faces.test.ts).
 *
 * Each import past a face is printed as `file:line: imports X past its face Y: import Y`; it exits 1
 * if there is any. Why: docs/decisions/0047-freshness-in-one-folder-paths-in-one-module.md.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(
  process.argv[2] ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '../..')
)
/** The code whose imports are read. */
const READ = ['src', 'client']
const SOURCE = /\.(?:tsx?|mts)$/
/** `from '…'` of an import or export, and `import('…')`. */
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*)['"](\.{1,2}\/[^'"]*)['"]/g

/** Every source file under `dir`, as paths from the root. */
function sourcesUnder(dir) {
  const full = path.join(root, dir)
  if (!existsSync(full)) return []
  return readdirSync(full, { withFileTypes: true }).flatMap((entry) => {
    const relative = path.join(dir, entry.name)
    if (entry.isDirectory()) return entry.name === 'generated' ? [] : sourcesUnder(relative)
    return SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts') ? [relative] : []
  })
}

const files = READ.flatMap(sourcesUnder)
/** Folders of src/ with a public face, deepest first, so a face inside a face is found first. */
const faces = files
  .filter((file) => /(^|\/)index\.tsx?$/.test(file) && path.dirname(file) !== 'src')
  .map((file) => path.dirname(file))
  .filter((folder) => folder.startsWith('src/'))
  .sort((a, b) => b.length - a.length)

const problems = []
for (const file of files) {
  const lines = readFileSync(path.join(root, file), 'utf8').split('\n')
  lines.forEach((line, index) => {
    for (const [, specifier] of line.matchAll(SPECIFIER)) {
      const target = path.normalize(path.join(path.dirname(file), specifier))
      const face = faces.find((folder) => target.startsWith(`${folder}/`))
      if (!face || file.startsWith(`${face}/`) || target === `${face}/index`) continue
      problems.push(`${file}:${index + 1}: imports ${target} past its face ${face}: import ${face}`)
    }
  })
}

for (const problem of problems) console.error(problem)
if (problems.length) process.exit(1)
console.log(
  `check:faces: ${faces.length} folders with a face, every import of ${files.length} files goes through it`
)
