/** The content report's input: the payloads as loaded, by tag. */
import type { LoadedPayload } from '../fetch-payload'

/** A payload as loaded, or why it could not be (one line). */
export type PayloadLoad = LoadedPayload<unknown> | { error: string }
/** Loaded payloads by their tag (`payload:get-about-page`, `payload:page-meta-data:/about`: ../payload-catalogue.ts). */
export type PayloadLoads = ReadonlyMap<string, PayloadLoad>
