/**
 * A value built on first use and kept for the isolate's life: module scope holds only the recipe,
 * so a new isolate does no work its first request may not need (docs/decisions/0028-no-work-at-startup.md).
 */
export function lazy<T>(build: () => T): () => T {
  let built: { value: T } | undefined
  return () => (built ??= { value: build() }).value
}
