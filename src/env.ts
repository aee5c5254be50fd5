/**
 * The site worker's environment, in one place. Bindings and vars are generated from wrangler.toml
 * by `wrangler types` into worker-configuration.d.ts (`npm run cf-typegen`; `npm test` fails when
 * it is out of date), where each binding's purpose is the comment above it in wrangler.toml.
 * Typed here is only what that file cannot know: secrets the site also runs without, and the
 * per-request variables.
 */
import type { Lng } from './shared/languages'

/** A payload a page was rendered from: its KV key and the hash of its content (src/freshness/content-for-request.ts). */
export type PayloadRead = { key: string; hash: string; storedAt: number }

/** Each payload entry's KV key and the hash of the payload it holds (src/freshness/payload-hashes.ts). */
export type PayloadHashes = ReadonlyMap<string, string>
/**
 * A payload as loaded from the backend, as sent and as parsed, or why it could not be (one line):
 * what a preview records for the content report (src/report/payload-loads.ts).
 */
export type PayloadLoad = { raw: Record<string, unknown>; payload: unknown } | { error: string }

/**
 * Secrets that may be unset (.dev.vars.example says what each does). `wrangler types` types only
 * the secrets an environment declares as required (PUBLISH_SECRET), so these are listed by hand.
 */
type OptionalSecrets = {
  /** Sent as the Authorization header of backend calls; unset: no header. */
  API_TOKEN?: string
  /** Sentry DSN for server errors and failed backend calls; unset turns reporting off. */
  SENTRY_DSN?: string
  /**
   * The key that signed image addresses before the last rotation of IMAGE_URL_SECRET: still
   * accepted by /_image, so pages cached before the change keep their images (src/images/image-signature.ts).
   */
  IMAGE_URL_SECRET_PREVIOUS?: string
  /** Signs preview links and sessions (src/preview/signing.ts); unset: every /_preview address answers 503. */
  PREVIEW_SECRET?: string
  /** The secret PREVIEW_SECRET replaced: its links and sessions stay valid until they expire. */
  PREVIEW_SECRET_PREVIOUS?: string
  /**
   * Sent as the Authorization header of preview's backend calls, in API_TOKEN's place: the editor's
   * token, with which a CMS answers drafts. Never sent on visitors' requests.
   */
  PREVIEW_API_TOKEN?: string
}

/** An open preview session (src/preview/gate.ts): set on every /_preview page request it allows. */
export type PreviewSession = {
  /** The link's nonce: exit revokes it. */
  nonce: string
  /** When the session ends, in epoch seconds (the link's expiry, at most an hour after entry). */
  expiresAt: number
  /** When the link that opened it expires, in epoch seconds. */
  linkExpiresAt: number
}

/** Every binding, var and secret of the site worker. */
export type Bindings = Env & OptionalSecrets

export type AppEnv = {
  Bindings: Bindings
  Variables: {
    /** The page language, from the path prefix only. */
    lng: Lng
    /** The request path without its language prefix: the page key for meta data. */
    pageKey: string
    /** The payloads the page was rendered from, by Cache-Tag (src/freshness/content-for-request.ts). */
    payloads?: Map<string, PayloadRead>
    /**
     * The payload hashes, read by the page cache beside the Cache API (src/freshness/payload-hashes.ts);
     * resolves to undefined when they could not be read.
     */
    payloadHashes?: Promise<PayloadHashes | null | undefined>
    /**
     * Set when the page was rendered while some of its image placeholders were still being computed
     * (src/images/page-placeholders.ts): caches keep it only briefly (src/freshness/).
     */
    provisional?: boolean
    /**
     * The read of the placeholder index, started as the page's render starts, beside its payloads
     * (src/images/page-placeholders.ts).
     */
    placeholderIndex?: Promise<void>
    /** Set on preview requests only: the session that lets this request through (src/preview/). */
    preview?: PreviewSession
    /**
     * Every payload a preview request loaded from the backend, as sent and as parsed, or why it
     * could not be, by tag (src/preview/preview-content.ts): the content report reads the page's
     * gaps from the same reading. Set on preview requests only.
     */
    previewLoads?: Map<string, PayloadLoad>
  }
}

// `env` from 'cloudflare:workers' (and the test pool) carries the same secrets.
declare global {
  namespace Cloudflare {
    // eslint-disable-next-line @typescript-eslint/no-empty-object-type
    interface Env extends OptionalSecrets {}
  }
}
