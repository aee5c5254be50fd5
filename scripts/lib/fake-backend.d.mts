/** The soak's fake content backend (see fake-backend.mjs): its interface, for typed callers. */
export const MODES: readonly ['healthy', '500', 'hang', 'garbage', 'reset']
export type Mode = (typeof MODES)[number]
export type StoredMessage = { key: string | null; name: string; email: string; comments: string }

export function startFakeBackend(): Promise<{
  origin: string
  setMode: (mode: Mode) => void
  calls: Record<Mode, number>
  /** Changes fields of a page's payload (`home`, `about`, ...), as an editor in the CMS would. */
  edit: (page: string, fields: Record<string, unknown>) => void
  close: () => Promise<void>
  /** Every message stored, in order. */
  messages: StoredMessage[]
  /** POST messages received. */
  messageCalls: { total: number; replays: number; byMode: Record<Mode, number> }
}>
