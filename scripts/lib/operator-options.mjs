// @ts-check
/**
 * The operator scripts' command line, parsed one way (scripts/ops/vitals.mjs,
 * scripts/ops/content-check.mjs): node's parseArgs, strict, no positionals, `--help` printing the
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
  let values
  try {
    values = parseArgs({
      args,
      options: { ...options, help: { type: 'boolean', default: false } },
      strict: true,
      allowPositionals: false,
    }).values
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error))
  }
  if (values.help) {
    console.log(usage)
    process.exit(0)
  }
  const env = /** @type {Record<string, unknown>} */ (values).env
  if (env !== undefined && !ENVIRONMENTS.includes(String(env)))
    throw new UsageError(`--env must be ${ENVIRONMENTS.join(' or ')}, not ${JSON.stringify(env)}`)
  return values
}
