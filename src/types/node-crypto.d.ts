/**
 * The one piece of `node:crypto` the worker uses (nodejs_compat, wrangler.toml): a synchronous
 * HMAC, so a view can sign an image address while React renders (src/images/image-signature.ts).
 * Declared here rather than through @types/node, whose globals (Buffer, the rest of process) the
 * worker does not have.
 *
 * The worker loads it with `process.getBuiltinModule` on the first signature, not with an import:
 * evaluating node:crypto (and the streams and buffers it brings) is most of a new isolate's startup,
 * which a request that signs nothing should not pay (docs/decisions/0028-no-work-at-startup.md).
 */
declare module 'node:crypto' {
  interface Hmac {
    update(data: string): Hmac
    digest(encoding: 'base64url'): string
  }
  export function createHmac(algorithm: 'sha256', key: string): Hmac
}

/** Node's `process.getBuiltinModule` (nodejs_compat): a built-in module, evaluated on first call. */
declare var process: {
  getBuiltinModule(id: 'node:crypto'): typeof import('node:crypto')
}
