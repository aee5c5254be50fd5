/**
 * Forgets the site's own modules, so that their next import evaluates them afresh, as a new
 * isolate would: every module of src/, scripts/ and tests/support/, and nothing under
 * node_modules/. The libraries (React's server renderer, Hono, zod, i18next, ...) keep no memory
 * of the site's requests, so evaluating them again proves nothing and costs most of the time:
 * `vi.resetModules()` re-evaluates them too, about three times the work
 * (docs/decisions/0049-a-new-isolate-re-evaluates-the-sites-own-modules.md).
 *
 * Vitest offers no filter for `vi.resetModules()`, so this does what it does (vitest
 * dist/chunks/utils: each forgotten module's promise, exports, evaluated flag and importers
 * cleared) on the modules the runner has evaluated, from the worker state it keeps on globalThis,
 * and fails loudly if a new Vitest keeps them elsewhere.
 */

type EvaluatedModule = {
  promise?: unknown
  exports?: unknown
  evaluated: boolean
  importers: Set<string>
}
type WorkerState = { evaluatedModules?: { idToModuleMap?: Map<string, EvaluatedModule> } }

/** Kept as they are: the libraries, and the runner's own modules (as `vi.resetModules()` keeps them). */
const KEPT = [/\/node_modules\//, /\/vitest\/dist\//, /vitest-virtual-\w+\/dist/, /^mock:/]

export function forgetSiteModules(): void {
  const state = (globalThis as { __vitest_worker__?: WorkerState }).__vitest_worker__
  const modules = state?.evaluatedModules?.idToModuleMap
  if (!(modules instanceof Map))
    throw new Error(
      "forgetSiteModules: Vitest's worker state has no evaluatedModules.idToModuleMap; use vi.resetModules() with this Vitest"
    )
  for (const [id, module] of modules) {
    if (KEPT.some((kept) => kept.test(id))) continue
    module.promise = undefined
    module.exports = undefined
    module.evaluated = false
    module.importers.clear()
  }
}
