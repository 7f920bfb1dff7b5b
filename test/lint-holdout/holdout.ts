// The second lint regression set (test/lint-holdout, written as a held-out corpus; see its README for why it
// no longer is one): what the linter is shown, how its findings are scored, and the floor they must not fall below.
//
// Cases use the main corpus format (test/lint-corpus/README.md) and are parsed and scored with
// test/lint-corpus/score.ts. The one difference is what the linter sees: before linting, `redactCase` blanks
// the header block (`# case:`, `# why:`, ...) and strips the `# expect:` comments, keeping every line and
// every code column where it was. Real code has no labels next to it, so the linter must not either.
// No file I/O here (tests and scripts read the files through test/lint-corpus/load.ts).
import { join } from 'node:path';
import { lintCase, matchCase, parseNotebookCells, scoreResults, type CaseResult, type CorpusCase, type LinterLike, type Score } from '../lint-corpus/score';

export const HOLDOUT_DIR = join(__dirname, 'cases');

/**
 * Overall precision and recall measured on this set when it became a regression set (P 0.90: 9 TP, 1 FP;
 * R 0.39: 9 of 23 expectations). One more false positive or one fewer true positive falls below.
 */
export const REGRESSION_FLOOR = { precision: 0.85, recall: 0.39 } as const;

/** The header keys of the corpus format (test/lint-corpus/score.ts accepts exactly these). */
const HEADER_KEYS = new Set(['case', 'modelled-on', 'label', 'pattern', 'why', 'looks-like']);
const HEADER_LINE = /^#\s*([a-z-]+):/;
/** A trailing `# expect: CODE[, CODE...]` comment and the whitespace before it. */
const EXPECT_TAIL = /\s*#\s*expect:\s*[A-Za-z0-9_]+(?:\s*,\s*[A-Za-z0-9_]+)*\s*$/;

/**
 * Blanks the leading header block (each header line becomes a bare `#`) when `hasHeader` is true, and
 * removes every trailing `# expect:` comment. Line breaks are kept as they were, so line numbers do not
 * move, and the code before a removed comment keeps its columns.
 */
export function redactSource(source: string, hasHeader: boolean): string {
  const parts = source.split(/(\r\n|\r|\n)/); // odd indexes are the separators
  let inHeader = hasHeader;
  for (let i = 0; i < parts.length; i += 2) {
    const line = parts[i];
    if (inHeader) {
      const m = HEADER_LINE.exec(line);
      if (m && HEADER_KEYS.has(m[1])) {
        parts[i] = '#';
        continue;
      }
      inHeader = false;
    }
    parts[i] = line.replace(EXPECT_TAIL, '');
  }
  return parts.join('');
}

/**
 * The case as the linter should see it: same file name, kind, units and expectations, with `text` (and the
 * unit sources) redacted. For a notebook the JSON is rewritten with each code cell's source as one string;
 * markdown cells, outputs and metadata are kept.
 */
export function redactCase(c: CorpusCase): CorpusCase {
  const headerCell = c.units[0]?.cell ?? null;
  if (c.kind === 'py') {
    const text = redactSource(c.text, true);
    return { ...c, text, units: [{ cell: null, source: text }] };
  }
  let doc: { cells: Array<{ cell_type: string; source: unknown }> };
  try {
    doc = JSON.parse(c.text) as typeof doc;
  } catch (e) {
    throw new Error(`${c.file}: not valid JSON (${(e as Error).message})`);
  }
  const cells = parseNotebookCells(c.text, c.file);
  const units = c.units.map((u) => ({ ...u }));
  for (const cell of cells) {
    if (cell.cellType !== 'code') continue;
    const redacted = redactSource(cell.source, cell.index === headerCell);
    doc.cells[cell.index].source = redacted;
    const unit = units.find((u) => u.cell === cell.index);
    if (unit) unit.source = redacted;
  }
  return { ...c, text: JSON.stringify(doc, null, 1), units };
}

export interface HoldoutRun {
  results: CaseResult[];
  score: Score;
  /** Cases on which the linter threw, with the error message. */
  crashes: Array<{ file: string; message: string }>;
}

/** Lints every case (redacted) and scores the findings against the expectations of the original case. */
export function runHoldout(linter: LinterLike, cases: readonly CorpusCase[]): HoldoutRun {
  const results: CaseResult[] = [];
  const crashes: HoldoutRun['crashes'] = [];
  for (const c of cases) {
    try {
      results.push(matchCase(c.file, c.expectations, lintCase(linter, redactCase(c))));
    } catch (err) {
      crashes.push({ file: c.file, message: err instanceof Error ? err.message : String(err) });
    }
  }
  return { results, score: scoreResults(results), crashes };
}

/** Lower-cased owner/name of every repository a README table row links to (`[owner/name#..](...)`). */
export function readmeRepos(readme: string): Set<string> {
  const repos = new Set<string>();
  for (const m of readme.matchAll(/\]\(https:\/\/github\.com\/([A-Za-z0-9][\w.-]*\/[\w.-]+)\//g)) {
    repos.add(m[1].toLowerCase());
  }
  return repos;
}
