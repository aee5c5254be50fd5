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
    readonly backendMessage?: string
  ) {
    super(message)
  }
}

/**
 * A payload loaded fine but some of its URL-valued fields held no safe address: they were dropped
 * (the slots' fallbacks apply) and the page renders. Reported so that an editor can fix the value.
 */
export class DroppedAddressError extends Error {
  override readonly name = 'DroppedAddressError'
  constructor(
    readonly call: string,
    /** The fields' paths in the payload, e.g. `enterprisesHome[2].btnLink`. */
    readonly fields: string[]
  ) {
    super(`${call}: unsafe or malformed address dropped at ${fields.join(', ')}`)
  }
}

/**
 * A payload loaded fine but some of its list items cannot be shown as the site would (an
 * enterprise without an id, a duplicate id, no title: no page of its own, src/content/projects.ts).
 * The rest renders; reported once per backend load so that an editor can fix the items.
 */
export class MalformedItemsError extends Error {
  override readonly name = 'MalformedItemsError'
  constructor(
    readonly call: string,
    /** One sentence per item, e.g. `enterprises[3]: duplicate id "2": only its first item has a page (no page)`. */
    readonly problems: string[]
  ) {
    super(`${call}: ${problems.join('; ')}`)
  }
}
