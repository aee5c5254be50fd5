/**
 * The content service's environment: `Env` is generated from content-service/wrangler.toml by
 * `wrangler types` (content-service/worker-configuration.d.ts; `npm run cf-typegen`), plus the
 * secrets it may run without.
 */
/** Secrets the service also runs without (content-service/README.md, "Drafts"). */
type OptionalSecrets = {
  /** The editors' token: writes drafts, and reads them in place of the published payloads. Unset: no drafts. */
  EDITOR_TOKEN?: string
  /** The site's PUBLISH_SECRET: signs the publish hook call a published draft makes. Unset: no call. */
  PUBLISH_SECRET?: string
}

export type AppEnv = { Bindings: Env & OptionalSecrets }
