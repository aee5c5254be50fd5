/**
 * What the bench's steps report. Every figure goes to the console, and into a Markdown record of
 * the run, one section per step, which `--write <file>` puts into that file's figures section
 * (figures-file.mjs). Progress and diagnostics that are not figures go to console.log alone.
 */

/**
 * computed: the section is arithmetic on other sections' figures and on assumptions, not a
 * measurement; its date line says so.
 * @typedef {{ name: string, title: string, blocks: string[], computed?: boolean }} Section
 */

export function createReport() {
  /** @type {Section[]} */
  const sections = []
  /** @type {Section | undefined} */
  let current
  return {
    /** Starts the section of a step. @param {{ name: string, title: string, computed?: boolean }} step */
    begin(step) {
      current = { name: step.name, title: step.title, blocks: [], computed: step.computed }
      sections.push(current)
    },
    /** A line of figures (several lines are several paragraphs). @param {string} text */
    text(text) {
      console.log(text)
      for (const line of text
        .split('\n')
        .map((part) => part.trim())
        .filter(Boolean))
        current?.blocks.push(line)
    },
    /** Rows of figures: a console table, and a Markdown table. @param {Record<string, unknown>[]} rows */
    table(rows) {
      console.table(rows)
      if (rows.length) current?.blocks.push(markdownTable(rows))
    },
    sections: () => sections,
  }
}

/** @param {Record<string, unknown>[]} rows */
export function markdownTable(rows) {
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))]
  const cell = (value) =>
    (value === undefined || value === null ? '' : String(value))
      .replaceAll('|', '\\|')
      .replaceAll('\n', ' ')
  return [
    `| ${columns.map(cell).join(' | ')} |`,
    `|${columns.map(() => '---').join('|')}|`,
    ...rows.map((row) => `| ${columns.map((column) => cell(row[column])).join(' | ')} |`),
  ].join('\n')
}
