export { sameOrigin } from './same-origin'
export type { SameOriginOptions } from './same-origin'
