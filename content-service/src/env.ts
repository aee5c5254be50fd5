/**
 * The content service's environment: `Env` is generated from content-service/wrangler.toml by
 * `wrangler types` (content-service/worker-configuration.d.ts; `npm run cf-typegen`).
 */
export type AppEnv = { Bindings: Env }
