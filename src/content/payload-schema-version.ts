/**
 * The version of what the payload schemas (schemas.ts, with addresses.ts and sanitize-html.ts) make of a payload,
 * stored in every payload cache entry (src/freshness/payload-cache.ts). Bump it with any change to their
 * output: entries stored by another version are validated again on their first read, so a deploy
 * never renders a payload its own schemas have not checked; entries of this version are trusted.
 * tests/worker/payload-schema-version.test.ts fails when the output changes and this does not.
 * Kept apart from schemas.ts, which the content client loads only when it first validates
 * (decision 0033).
 */
export const PAYLOAD_SCHEMA_VERSION = 'payload-schema-1'
