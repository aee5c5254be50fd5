/** Files in every format the header readers know, and a bomb of each (see header-fixtures.mjs); base64. */
export function headerFixtures(): Promise<{
  files: Record<string, string>
  bombs: Record<string, string>
  size: { width: number; height: number }
}>
