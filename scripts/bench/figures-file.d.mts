/** Types of figures-file.mjs (see its header). */
export type Section = { name: string; title: string; blocks: string[]; computed?: boolean }
export type Run = {
  sections: Section[]
  complete: boolean
  date: string
  machine: string
  command: string
}
export const FIGURES_START: string
export const FIGURES_END: string
export function figuresSection(markdown: string, file: string): { start: number; end: number }
export function replaceFigures(markdown: string, run: Run, file?: string): string
export function checkFiguresFile(file: string): void
export function writeFigures(file: string, run: Run): void
