// @ts-check
/**
 * A TypeScript entry of the site's own sources, bundled for Node with esbuild and imported: how an
 * operator script runs the worker's code (the content report, the preview link's signing) without
 * a copy of it. Each run bundles to a file of its own under .wrangler/, removed once imported, since
 * runs may overlap.
 */
import { rmSync } from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { build } from 'esbuild'

/**
 * The module `entry` (a path from `root`) exports, bundled under `.wrangler/<name>/`.
 * @param {{ root: string, entry: string, name: string }} options
 * @returns {Promise<any>}
 */
export async function loadSiteModule({ root, entry, name }) {
  const outfile = path.join(root, `.wrangler/${name}/${name}-${process.pid}.mjs`)
  await build({
    entryPoints: [path.join(root, entry)],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    outfile,
    logLevel: 'error',
  })
  try {
    return await import(pathToFileURL(outfile).href)
  } finally {
    rmSync(outfile, { force: true })
  }
}
