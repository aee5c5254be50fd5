#!/usr/bin/env node
// @ts-check
/**
 * `npm run check:references` (part of `npm run check`, a stage of `npm test`): every path, decision
 * record and npm script that the code, the configuration and the docs cite exists. A tree other
 * than this repository's may be named on the command line (tests/tooling/check-references.test.ts).
 *
 * What counts as a citation:
 * - a path from the repository's root (its first folder is one at the root: `src/…`, `docs/…`)
 *   anywhere in a Markdown file, in a comment of a source or config file (*.ts, *.tsx, *.mjs,
 *   *.css, *.toml, *.yml, *.sh and the like), or in package.json's scripts;
 * - in Markdown, the target of a link, and a path in backticks with a file extension or a trailing
 *   slash, both read from the Markdown file's own folder (`../docs/testing.md`, `bench/cold/`);
 * - a decision record: "decision 0033" (or "decisions 0002, 0004 and 0012") anywhere those paths
 *   are read, and any four-digit record number in docs/decisions/;
 * - `npm run <name>` in Markdown, comments, workflows and package.json's scripts.
 *
 * Not citations: URLs, globs and placeholders (`tests/e2e/*.spec.ts`, `<id>`, `${name}`), and what
 * tools write (node_modules, .wrangler, public/assets, src/generated, test results), which a fresh
 * clone does not have until it runs them.
 *
 * Each dangling citation is printed as `file:line: cites X, which does not exist`; it exits 1 if
 * there is any.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')

/** Folders no one writes by hand: never read, and never required to exist. */
const GENERATED = ['public/assets', 'src/generated', 'tests/e2e/screenshots']
/** Folders tools write wherever they run (wrangler in content-service/ too): skipped at any depth. */
const GENERATED_ANYWHERE = new Set(['node_modules', '.git', '.wrangler', 'dist', 'test-results'])

/** Files whose comments are read, by how a comment starts. */
const SLASH_COMMENTS = /\.(?:[cm]?[jt]sx?|mts|cts|css)$/
const HASH_COMMENTS = /\.(?:toml|ya?ml|sh|conf)$|(?:^|\/)\.[\w-]+ignore$/
const FILE_EXTENSION =
  /\.(?:[cm]?[jt]sx?|mts|cts|md|json|toml|ya?ml|css|sql|sh|conf|html|txt|png|jpe?g|svg|woff2|ico)$/

const PATH_CHAR = String.raw`[A-Za-z0-9_.@+\-]`
const DECISION_LIST =
  /\b[Dd]ecisions?\s+\[?(\d{4})\b((?:\]\([^)]*\))?(?:(?:,\s*|\s+and\s+|\s+or\s+|\s*[–-]\s*)\[?\d{4}\b(?:\]\([^)]*\))?)*)/g
const NPM_RUN = /\bnpm run (?:--?[\w-]+ )*([\w:.-]+)(?=[^\w:<*$.-]|\.(?!\w)|$)/g

/**
 * @typedef {{ file: string, line: number, target: string }} Dangling
 */

/** Every file of the tree worth reading, as paths relative to its root, with forward slashes. */
function filesOf(root) {
  /** @type {string[]} */
  const found = []
  const walk = (relative) => {
    for (const entry of readdirSync(path.join(root, relative), { withFileTypes: true })) {
      const child = relative ? `${relative}/${entry.name}` : entry.name
      if (entry.isDirectory()) {
        if (!isGenerated(child)) walk(child)
      } else if (entry.isFile()) {
        found.push(child)
      }
    }
  }
  walk('')
  return found
}

function isGenerated(relative) {
  if (relative.split('/').some((segment) => GENERATED_ANYWHERE.has(segment))) return true
  return GENERATED.some((folder) => relative === folder || relative.startsWith(`${folder}/`))
}

/** The root's folders: a path whose first segment is one of them is read from the root. */
function rootFolders(root) {
  return readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !isGenerated(entry.name))
    .map((entry) => entry.name)
}

/** `src/…`-style paths in a piece of text, globs and placeholders left out. */
function rootPathsIn(text, folders) {
  if (folders.length === 0) return []
  const names = folders.map((name) => name.replace(/[.+-]/g, '\\$&')).join('|')
  const pattern = new RegExp(String.raw`(?<![\w./@:~$\\-])(?:${names})/(?:${PATH_CHAR}+/?)*`, 'g')
  const paths = []
  for (const match of text.matchAll(pattern)) {
    // A path followed by a glob or placeholder names many files, not one.
    const next = text[match.index + match[0].length] ?? ''
    if (next && '*{<$['.includes(next)) continue
    paths.push(match[0].replace(/[.,:;]+$/, ''))
  }
  return paths
}

/** Decision numbers cited as "decision NNNN", with lists and ranges. */
function decisionsIn(text) {
  const numbers = []
  for (const match of text.matchAll(DECISION_LIST)) {
    numbers.push(match[1], ...(match[2].match(/\b\d{4}\b/g) ?? []))
  }
  return numbers
}

/** In a decision record, any four-digit number from 0001 to 0999 names a record. */
function recordNumbersIn(text) {
  return [...text.matchAll(/(?<![\w./:#-])0\d{3}(?![\w.]|,\d)/g)].map((match) => match[0])
}

function npmScriptsIn(text) {
  return [...text.matchAll(NPM_RUN)].map((match) => match[1].replace(/\.$/, ''))
}

/** The comments of a source file, line by line (the rest of each line blanked). */
function commentsOf(text, style) {
  let inBlock = false
  return text.split('\n').map((line) => {
    if (style === 'hash') {
      const at = line.search(/(?:^|\s)#/)
      return at === -1 ? '' : line.slice(at)
    }
    let comment = ''
    let quote = ''
    for (let i = 0; i < line.length; i++) {
      const pair = line.slice(i, i + 2)
      if (inBlock) {
        if (pair === '*/') {
          inBlock = false
          i++
        } else comment += line[i]
      } else if (quote) {
        if (line[i] === '\\') i++
        else if (line[i] === quote) quote = ''
      } else if (pair === '//') {
        comment += ` ${line.slice(i + 2)}`
        break
      } else if (pair === '/*') {
        inBlock = true
        comment += ' '
        i++
      } else if (`'"\``.includes(line[i])) {
        quote = line[i]
      }
    }
    return comment
  })
}

/**
 * Paths a Markdown line cites from its own folder: every link target (as a Markdown viewer reads
 * it), and backticked file paths that do not start at the root.
 */
function relativePathsIn(line, folders) {
  const paths = []
  for (const match of line.matchAll(/\]\(([^)\s]+)\)/g)) {
    const target = match[1].replace(/^<|>$/g, '')
    if (/^(?:[a-z][\w+.-]*:|#|\/)/i.test(target)) continue
    paths.push(decodeURI(target.replace(/[#?].*$/, '')))
  }
  const backticked = new RegExp(String.raw`^(?:\.{1,2}/)*(?:${PATH_CHAR}+/)+${PATH_CHAR}*$`)
  for (const match of line.matchAll(/`([^`]+)`/g)) {
    const span = match[1]
    const fromRoot = rootPathsIn(span, folders).length > 0 && !/^\.{1,2}\//.test(span)
    if (backticked.test(span) && !fromRoot && (FILE_EXTENSION.test(span) || span.endsWith('/'))) {
      paths.push(span)
    }
  }
  return paths.filter(Boolean)
}

/**
 * @param {string} root the tree to check
 * @returns {{ dangling: Dangling[], files: number, citations: number }}
 */
export function checkReferences(root) {
  const folders = rootFolders(root)
  const files = filesOf(root)
  const records = new Set(
    existsSync(path.join(root, 'docs/decisions'))
      ? readdirSync(path.join(root, 'docs/decisions'))
          .map((name) => /^(\d{4})-.*\.md$/.exec(name)?.[1])
          .filter(Boolean)
      : []
  )
  const packageJson = path.join(root, 'package.json')
  const scripts = existsSync(packageJson)
    ? (JSON.parse(readFileSync(packageJson, 'utf8')).scripts ?? {})
    : {}

  /** @type {Dangling[]} */
  const dangling = []
  let citations = 0
  const existsFromRoot = (target) => {
    // `docs/decisions/0033` cites a record by its number.
    const record = /^docs\/decisions\/(\d{4})$/.exec(target)
    if (record) return records.has(record[1])
    return isGenerated(target.replace(/\/$/, '')) || existsSync(path.join(root, target))
  }

  for (const file of files) {
    const markdown = file.endsWith('.md')
    const inRecords = markdown && file.startsWith('docs/decisions/')
    const isPackageJson = file === 'package.json'
    const style = SLASH_COMMENTS.test(file) ? 'slash' : HASH_COMMENTS.test(file) ? 'hash' : null
    if (!markdown && !style && !isPackageJson) continue
    const text = readFileSync(path.join(root, file), 'utf8')
    const lines = text.split('\n')
    const cited = markdown || isPackageJson ? lines : commentsOf(text, style)
    const workflow = /^\.github\/workflows\/.*\.ya?ml$/.test(file)

    cited.forEach((line, index) => {
      /** @type {Set<string>} */
      const missing = new Set()
      const cite = (target, exists) => {
        citations++
        if (!exists) missing.add(target)
      }
      for (const target of rootPathsIn(line, folders)) cite(target, existsFromRoot(target))
      if (markdown) {
        for (const target of relativePathsIn(line, folders)) {
          const fromFile = path.posix.normalize(path.posix.join(path.posix.dirname(file), target))
          // What tools write, and a path that leaves the tree, are not this check's.
          const generated = [target, fromFile].some((at) => isGenerated(at.replace(/\/$/, '')))
          if (generated || fromFile.startsWith('..')) continue
          cite(target, existsFromRoot(fromFile))
        }
      }
      const numbers = inRecords ? recordNumbersIn(line) : decisionsIn(line)
      for (const number of new Set(numbers)) {
        cite(`decision ${number}`, records.has(number))
      }
      const npmText = workflow ? lines[index] : line
      for (const name of npmScriptsIn(npmText)) cite(`npm run ${name}`, name in scripts)
      for (const target of missing) dangling.push({ file, line: index + 1, target })
    })
  }
  return { dangling, files: files.length, citations }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = path.resolve(process.argv[2] ?? REPO_ROOT)
  if (!existsSync(root) || !statSync(root).isDirectory()) {
    console.error(`check:references: ${root} is not a folder`)
    process.exit(2)
  }
  const { dangling, files, citations } = checkReferences(root)
  for (const { file, line, target } of dangling) {
    console.error(`${file}:${line}: cites ${target}, which does not exist`)
  }
  if (dangling.length > 0) {
    console.error(`check:references: ${dangling.length} dangling of ${citations} citations`)
    process.exit(1)
  }
  console.log(`check:references: ${citations} citations in ${files} files, all exist`)
}
