/** Types of ./local-content.mjs. */

/** Applies the migrations to the local content under `state`, and seeds it only when it holds no page. */
export function prepareLocalContent(root: string, state: string): void
