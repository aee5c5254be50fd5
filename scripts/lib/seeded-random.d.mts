/** Types of ./seeded-random.mjs for the TypeScript tests. */
export declare function seededRandom(seed: number): () => number
