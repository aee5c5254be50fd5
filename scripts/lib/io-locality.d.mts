export type IoKind =
  | 'kv-read'
  | 'kv-write'
  | 'kv-delete'
  | 'kv-list'
  | 'cache-read'
  | 'cache-write'
  | 'cache-delete'
  | 'backend'
  | 'fetch'
  | 'images'
  | 'queue'
  | 'analytics'
  | 'ratelimit'
  | 'assets'
export declare const LOCAL_KINDS: ReadonlySet<string>
export declare function leavesLocation(kind: string): boolean
