/**
 * The one piece of `node:crypto` the worker uses (nodejs_compat, wrangler.toml): a synchronous
 * HMAC, so a view can sign an image address while React renders (src/images/image-signature.ts).
 * Declared here rather than through @types/node, whose globals (Buffer, process) the worker does
 * not have.
 */
declare module 'node:crypto' {
  interface Hmac {
    update(data: string): Hmac
    digest(encoding: 'base64url'): string
  }
  export function createHmac(algorithm: 'sha256', key: string): Hmac
}
