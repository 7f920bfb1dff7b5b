// Jupyter notebooks: the code cells are linted as one module (later cells see the imports, classes and
// variables of earlier ones, as in the kernel), and findings are mapped back to the cell they start in,
// with lines relative to the cell. IPython magics (`%time`, `!pip`) become comments of the same length.

export interface NotebookCell {
  /** 0-based index over ALL cells. */
  index: number;
  source: string;
}

export type NotebookParse = { ok: true; cells: NotebookCell[] } | { ok: false; error: string };

/** Reads the code cells of an .ipynb JSON text. Never throws: broken input gives { ok: false, error }. */
export function parseNotebook(json: string): NotebookParse {
  let doc: unknown;
  try {
    // A UTF-8 byte-order mark (some Windows editors write one) is not JSON, but Jupyter reads such files: skip it.
    doc = JSON.parse(json.charCodeAt(0) === 0xfeff ? json.slice(1) : json);
  } catch (e) {
    return { ok: false, error: `not valid JSON (${(e as Error).message})` };
  }
  if (typeof doc !== 'object' || doc === null || !Array.isArray((doc as { cells?: unknown }).cells)) {
    return { ok: false, error: 'not a Jupyter notebook: expected a JSON object with a "cells" array' };
  }
  const nb = doc as { cells: unknown[]; metadata?: { kernelspec?: { language?: unknown }; language_info?: { name?: unknown } } };
  const lang = nb.metadata?.language_info?.name ?? nb.metadata?.kernelspec?.language;
  if (typeof lang === 'string' && lang.toLowerCase() !== 'python') return { ok: true, cells: [] };
  const cells: NotebookCell[] = [];
  nb.cells.forEach((cell, index) => {
    if (typeof cell !== 'object' || cell === null) return;
    const c = cell as { cell_type?: unknown; source?: unknown };
    if (c.cell_type !== 'code') return;
    let source: string;
    if (typeof c.source === 'string') source = c.source;
    else if (Array.isArray(c.source) && c.source.every((s) => typeof s === 'string')) source = c.source.join('');
    else return;
    cells.push({ index, source });
  });
  return { ok: true, cells };
}

/** IPython syntax that is not Python: line magics, shell escapes, help. Replaced by comments of equal length. */
export function neutraliseMagics(source: string): string {
  let cellMagic = false;
  return source
    .split('\n')
    .map((line, i) => {
      if (i === 0 && /^\s*%%/.test(line)) {
        // %%bash, %%writefile...: the whole cell is not Python (except %%time / %%timeit).
        cellMagic = !/^\s*%%(time|timeit|capture|prun)\b/.test(line);
        return line.replace(/^(\s*)%/, '$1#');
      }
      if (cellMagic) return line.length > 0 ? '#' + line.slice(1) : line;
      if (/^\s*[%!]/.test(line)) return line.replace(/^(\s*)[%!]/, '$1#');
      if (/^\s*\S.*\?\s*$/.test(line) && !/[#'"]/.test(line)) return '#' + line.slice(1);
      return line;
    })
    .join('\n');
}

export interface CellSpan {
  cellIndex: number;
  /** 1-based line in the joined module where the cell starts. */
  firstLine: number;
  lineCount: number;
}

/** Joins cells into one module, one cell per block of lines, and remembers where each starts. */
export function joinCells(cells: readonly NotebookCell[]): { source: string; spans: CellSpan[] } {
  const parts: string[] = [];
  const spans: CellSpan[] = [];
  let line = 1;
  for (const c of cells) {
    const src = neutraliseMagics(c.source.replace(/\r\n?/g, '\n'));
    const lineCount = src.split('\n').length;
    spans.push({ cellIndex: c.index, firstLine: line, lineCount });
    parts.push(src);
    line += lineCount;
  }
  return { source: parts.join('\n'), spans };
}
