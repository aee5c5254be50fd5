/** Types of ./levels.mjs for the TypeScript tests. */
export type IoRecord = {
  kind: string
  target: string
  units: number
  depth: number
  beforeResponse: boolean
  answeredBeforeResponse?: boolean
  cacheTtl?: number
  lifetime?: number
}
export declare const LEVEL_NAMES: Record<'a' | 'b' | 'c' | 'd' | 'e' | 'f', string>
export declare function chainBeforeFirstByte(records: IoRecord[]): string[][]
export declare function chainText(chain: string[][]): string
export declare function unitsByKind(records: IoRecord[]): Record<string, number>
