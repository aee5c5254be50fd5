/**
 * `npm run bench -- --write docs/performance.md`: the run's figures replace the figures section of
 * a Markdown file, so the file always holds the figures of the latest run, never a history.
 *
 * The section lies between two lines, FIGURES_START and FIGURES_END. A run of every step replaces
 * all of it: a line naming the date and the machine, then each step's section. A run of some steps
 * (`npm run bench:serving -- --write ...`) replaces only those steps' sections, each then naming its
 * own date and machine, and leaves the others as they were. Each step's section lies between
 * `<!-- bench:<step> -->` and `<!-- /bench:<step> -->`.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs'

export const FIGURES_START = '<!-- bench:figures -->'
export const FIGURES_END = '<!-- /bench:figures -->'

/**
 * Where the figures section's content starts and ends in `markdown`.
 * @param {string} markdown
 * @param {string} file its name, for the error
 */
export function figuresSection(markdown, file) {
  const start = markdown.indexOf(FIGURES_START)
  const end = markdown.indexOf(FIGURES_END)
  const fix = `put a line ${FIGURES_START} and a line ${FIGURES_END} around the place the figures go`
  if (start < 0 || end < 0 || end < start)
    throw new Error(`${file} has no figures section to replace: ${fix}`)
  if (
    markdown.indexOf(FIGURES_START, start + 1) >= 0 ||
    markdown.indexOf(FIGURES_END, end + 1) >= 0
  ) {
    throw new Error(
      `${file} has more than one figures section: keep one ${FIGURES_START} … ${FIGURES_END}`
    )
  }
  return { start: start + FIGURES_START.length, end }
}

/**
 * `markdown` with its figures section replaced by the run's.
 * @param {string} markdown
 * @param {{ sections: { name: string, title: string, blocks: string[], computed?: boolean }[], complete: boolean, date: string, machine: string, command: string }} run
 *   complete: every step ran; command: how to run them again, e.g. `npm run bench`
 * @param {string} [file]
 */
export function replaceFigures(markdown, run, file = 'the file') {
  const { start, end } = figuresSection(markdown, file)
  let figures = markdown.slice(start, end)
  if (run.complete) {
    figures = `\n${measuredBy(run)}\n\n${run.sections.map((section) => sectionText(section)).join('\n\n')}\n`
  } else {
    for (const section of run.sections) {
      const text = sectionText(section, run)
      const [open, close] = markers(section.name)
      const from = figures.indexOf(open)
      const to = figures.indexOf(close, from)
      figures =
        from >= 0 && to >= 0
          ? figures.slice(0, from) + text + figures.slice(to + close.length)
          : `${figures.trimEnd()}\n\n${text}\n`
    }
  }
  return markdown.slice(0, start) + figures + markdown.slice(end)
}

/** Checks `file` before a run, so that a long run does not end on a file it cannot write. */
export function checkFiguresFile(file) {
  let markdown
  try {
    markdown = readFileSync(file, 'utf8')
  } catch (error) {
    throw new Error(`cannot read ${file}: ${error instanceof Error ? error.message : error}`)
  }
  figuresSection(markdown, file)
}

/** Writes the run's figures into `file` (whole, through a temporary file: never half a file). */
export function writeFigures(file, run) {
  const next = replaceFigures(readFileSync(file, 'utf8'), run, file)
  const temporary = `${file}.${process.pid}.tmp`
  writeFileSync(temporary, next)
  renameSync(temporary, file)
}

function markers(name) {
  return [`<!-- bench:${name} -->`, `<!-- /bench:${name} -->`]
}

function measuredBy({ date, machine, command }) {
  return `Measured on ${date} with \`${command}\`, on ${machine}.`
}

/**
 * A step's section; `run` given: dated (a run of some steps). A computed section always says what
 * it is, so that no one reads its figures as measured.
 */
function sectionText({ name, title, blocks, computed }, run) {
  const [open, close] = markers(name)
  const line = computed
    ? `Computed${run ? ` on ${run.date} with \`${run.command}\`` : ''} from the figures measured above and the assumptions named below; not a measurement.`
    : run && measuredBy(run)
  return [open, `### ${title}`, ...(line ? [line] : []), ...blocks, close].join('\n\n')
}
