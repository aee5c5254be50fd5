/**
 * The content service's bindings, mirroring content-service/wrangler.toml.
 */
export type Bindings = {
  /** Page payloads, page meta data and received messages (migrations/). */
  CONTENT_DB: D1Database
}

export type AppEnv = { Bindings: Bindings }
