// @ts-check
/**
 * The operator scripts' command line, parsed one way (scripts/ops/vitals.mjs,
 * scripts/ops/content-check.mjs, scripts/ops/preview-link.mjs): node's parseArgs, strict, arguments only
 * where a command takes them, `--help` printing the
 * usage, and a wrong option a UsageError whose message the script prints before exiting 2.
 */
import { parseArgs } from 'node:util'

/** The deployed environments of wrangler.toml a script may read (`--env`). */
export const ENVIRONMENTS = ['production', 'staging']

/** A command line the script cannot act on: its message says why. */
export class UsageError extends Error {}

/**
 * The options' values; prints `usage` and exits 0 on `--help`. An `env` option, when given, must
 * name one of ENVIRONMENTS.
 * @template {import('node:util').ParseArgsOptionsConfig} T
 * @param {T} options
 * @param {string} usage
 * @param {string[]} [args]
 */
export function parseOperatorOptions(options, usage, args = process.argv.slice(2)) {
  return parse(options, usage, args, false).values
}

/**
 * parseOperatorOptions for a command that also takes arguments (`npm run preview:link -- /en/about`):
 * the options' values and the other arguments, in order.
 * @template {import('node:util').ParseArgsOptionsConfig} T
 * @param {T} options
 * @param {string} usage
 * @param {string[]} [args]
 */
export function parseOperatorCommand(options, usage, args = process.argv.slice(2)) {
  return parse(options, usage, args, true)
}

/**
 * @template {import('node:util').ParseArgsOptionsConfig} T
 * @param {T} options
 * @param {string} usage
 * @param {string[]} args
 * @param {boolean} allowPositionals
 */
function parse(options, usage, args, allowPositionals) {
  let parsed
  try {
    parsed = parseArgs({
      args,
      options: { ...options, help: { type: 'boolean', default: false } },
      strict: true,
      allowPositionals,
    })
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error))
  }
  const { values, positionals } = parsed
  if (values.help) {
    console.log(usage)
    process.exit(0)
  }
  const env = /** @type {Record<string, unknown>} */ (values).env
  if (env !== undefined && !ENVIRONMENTS.includes(String(env)))
    throw new UsageError(`--env must be ${ENVIRONMENTS.join(' or ')}, not ${JSON.stringify(env)}`)
  return { values, positionals }
}
