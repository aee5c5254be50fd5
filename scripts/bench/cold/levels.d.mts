/** Types of ./levels.mjs for the TypeScript tests. */
export type IoRecord = {
  kind: string
  target: string
  units: number
  wave: number
  leaves: boolean
  beforeResponse: boolean
  cacheTtl?: number
  lifetime?: number
}
export declare const LEVEL_NAMES: Record<'a' | 'b' | 'c' | 'd' | 'e' | 'f', string>
export declare function chainBeforeFirstByte(records: IoRecord[]): string[][]
export declare function stepsLeaving(chain: string[][]): number
export declare function chainText(chain: string[][]): string
export declare function unitsByKind(records: IoRecord[]): Record<string, number>
