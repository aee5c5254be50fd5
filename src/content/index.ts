/** The content layer as routes and middleware use it: the client for one request and what a page was rendered from. */
export { contentFor, payloadsReadBy, type PayloadRead } from './content-for-request'
export type { ContentClient } from './client'
export { ContentError } from './errors'
