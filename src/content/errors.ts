/** Why a backend call gave no usable payload; the message is for logs, never for visitors. */
export type ContentFailure = 'timeout' | 'network' | 'status' | 'malformed'

export class ContentError extends Error {
  override readonly name = 'ContentError'
  constructor(
    readonly failure: ContentFailure,
    message: string,
    /** The backend's HTTP status, when it answered. */
    readonly status?: number,
    /** The `message` field of the backend's error body, when it had one (spec section 4). */
    readonly backendMessage?: string,
  ) {
    super(message)
  }
}
