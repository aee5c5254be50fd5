/** Types of ./publish-signing.mjs for the TypeScript that imports it (the worker tests). */
export function signedJsonHeaders(secret: string, body: string): Record<string, string>
export function signatureHeaders(
  secret: string,
  body: string,
  timestamp: number
): Record<string, string>
