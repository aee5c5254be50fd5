/** Types of seed-sql.mjs, for vitest.config.ts. */
export type Seed = { pages: Record<string, unknown>; pageMeta: Record<string, unknown> }
export declare const SEED_DIR: string
export declare const PUBLIC_DIR: string
export declare function readSeed(dir?: string): Seed
export declare function buildSeedStatements(seed: Seed): string[]
export declare function buildSeedSql(seed: Seed): string
export declare function findMissingImages(seed: Seed, publicDir?: string): string[]
