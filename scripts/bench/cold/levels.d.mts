/** Types of ./levels.mjs for the TypeScript tests. */
import type { IoStep } from '../../lib/io-chain'

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
export declare function stepKinds(steps: readonly IoStep[]): string[][]
export declare function stepsLeaving(chain: string[][]): number
export declare function chainText(steps: readonly IoStep[]): string
export declare function unitsByKind(records: IoRecord[]): Record<string, number>
