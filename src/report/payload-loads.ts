/** The content report's input: the payloads as loaded, by tag. */
import type { PayloadLoad } from '../env'

export type { PayloadLoad }
/** Loaded payloads by their tag (`payload:get-about-page`, `payload:page-meta-data:/about`: ../payload-catalogue.ts). */
export type PayloadLoads = ReadonlyMap<string, PayloadLoad>
