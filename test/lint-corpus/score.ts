// Pure parsing, matching and scoring for the labelled lint corpus (format in test/lint-corpus/README.md and
// docs/LINT-CONTRACT.md). No file I/O and no dependency on src/lint: findings and linters are described
// structurally, so this module (and its tests) work before and independently of the linter.

export const RULE_CODES = ['ATT001', 'ATT002', 'ATT003', 'ATT004', 'ATT005', 'ATT006', 'ATT007', 'ATT008'] as const;
export type RuleCode = (typeof RULE_CODES)[number];

export function isRuleCode(s: string): s is RuleCode {
  return (RULE_CODES as readonly string[]).includes(s);
}

export type Label = 'buggy' | 'correct';

/** The `# key: value` header block at the top of a case (the first code cell of a notebook). */
export interface CaseHeader {
  name: string;
  /** owner/name of the public repository the case is modelled on. */
  repo: string;
  /** The issue, PR, commit or file that showed the pattern. */
  url: string;
  label: Label;
  pattern: string;
  why: string;
  /** For correct cases: the rules a naive linter would wrongly fire on this code. */
  looksLike: RuleCode[];
}

/**
 * A place in a case. `cell` is null for a .py file and the 0-based index over ALL cells (markdown included)
 * for a notebook, as in the linter contract; `line` is 1-based (relative to the cell in a notebook).
 */
export interface Location {
  cell: number | null;
  line: number;
  /** In a folder case, the file (relative to the folder, '/'-separated) that holds the line; absent otherwise. */
  path?: string;
}

export interface Expectation extends Location {
  code: RuleCode;
}

/** What the scorer needs from a linter finding (the contract's Finding has these and more). */
export interface FindingLike {
  code: string;
  line: number;
  column?: number;
  message?: string;
}

export interface LocatedFinding extends Location {
  code: string;
  column?: number;
  message?: string;
}

/**
 * The part of the linter API the scorer calls (structurally satisfied by src/lint's Linter). For a folder case
 * the linter must have been made with the folder as its workspace (`folderWorkspace`), and each file is linted
 * with its workspace-relative `path`.
 */
export interface LinterLike {
  lintPython(source: string, options?: { path?: string }): FindingLike[];
  lintNotebook(ipynbJson: string): { cellIndex: number; findings: FindingLike[] }[];
}

export interface SourceUnit {
  cell: number | null;
  source: string;
  /** In a folder case, the file's path relative to the folder. */
  path?: string;
}

/** One file of a folder case: its path relative to the folder ('/'-separated) and its text. */
export interface FolderFile {
  path: string;
  text: string;
}

export interface CorpusCase {
  /** File name inside the cases folder, e.g. `mask-halonet-unfold-keep-fill.py`; a folder case's name ends in `/`. */
  file: string;
  kind: 'py' | 'ipynb' | 'folder';
  /** The raw file text (what the linter is given); for a folder case, the text of the file with the header. */
  text: string;
  header: CaseHeader;
  /**
   * The Python sources: one unit for a .py file, one per code cell for a notebook, one per .py file (with its
   * `path`) for a folder case, which is linted as one workspace.
   */
  units: SourceUnit[];
  expectations: Expectation[];
}

const HEADER_KEYS = ['case', 'modelled-on', 'label', 'pattern', 'why', 'looks-like'] as const;
const HEADER_LINE = /^#\s*([a-z-]+):\s*(.*?)\s*$/;
/** `# expect: ATT001` or `# expect: ATT002, ATT007` at the very end of a line. */
const EXPECT_COMMENT = /#\s*expect:\s*([A-Za-z0-9_]+(?:\s*,\s*[A-Za-z0-9_]+)*)\s*$/;

function splitLines(source: string): string[] {
  return source.split(/\r\n|\r|\n/);
}

/**
 * The `# key: value` lines at the top of a case, checked against `keys` (unknown or repeated keys are errors),
 * and `need(key)`, which returns a key's value or throws naming the missing line. Shared by the corpus and the
 * unseen set, whose headers differ only in their keys.
 */
export function readHeaderFields(source: string, where: string, keys: readonly string[]): { fields: Map<string, string>; need: (key: string) => string } {
  const fields = new Map<string, string>();
  for (const line of splitLines(source)) {
    const m = HEADER_LINE.exec(line);
    if (!m) break;
    const key = m[1];
    if (!keys.includes(key)) throw new Error(`${where}: unknown header key "${key}" (expected one of ${keys.join(', ')})`);
    if (fields.has(key)) throw new Error(`${where}: header key "${key}" appears twice`);
    fields.set(key, m[2]);
  }
  const need = (key: string): string => {
    const v = fields.get(key);
    if (v === undefined || v === '') throw new Error(`${where}: missing header line "# ${key}: ..."`);
    return v;
  };
  return { fields, need };
}

/** Parses the header block of a case; `where` names the file in error messages. */
export function parseHeader(source: string, where: string): CaseHeader {
  const { fields, need } = readHeaderFields(source, where, HEADER_KEYS);
  const name = need('case');
  const modelledOn = need('modelled-on');
  const mo = /^([A-Za-z0-9][\w.-]*\/[\w.-]+)\s+(https:\/\/github\.com\/\S+)$/.exec(modelledOn);
  if (!mo) throw new Error(`${where}: "# modelled-on:" must be "<owner/repo> <https://github.com/... URL>", got "${modelledOn}"`);
  const [, repo, url] = mo;
  if (!url.toLowerCase().startsWith(`https://github.com/${repo.toLowerCase()}/`)) {
    throw new Error(`${where}: modelled-on URL ${url} is not inside ${repo}`);
  }
  const label = need('label');
  if (label !== 'buggy' && label !== 'correct') throw new Error(`${where}: label must be "buggy" or "correct", got "${label}"`);
  const looksLike: RuleCode[] = [];
  const ll = fields.get('looks-like');
  if (ll !== undefined) {
    if (label !== 'correct') throw new Error(`${where}: "# looks-like:" is only for correct cases`);
    for (const code of ll
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '')) {
      if (!isRuleCode(code)) throw new Error(`${where}: looks-like names an unknown rule "${code}"`);
      looksLike.push(code);
    }
  }
  return { name, repo, url, label, pattern: need('pattern'), why: need('why'), looksLike };
}

/**
 * The `# expect:` comments of one source unit (`path`: a folder case's file, kept on each expectation). Throws on
 * a malformed one or an unknown code.
 */
export function parseExpectations(source: string, cell: number | null, where: string, path?: string): Expectation[] {
  const out: Expectation[] = [];
  splitLines(source).forEach((text, i) => {
    const line = i + 1;
    const m = EXPECT_COMMENT.exec(text);
    if (!m) {
      if (/#\s*expect\s*:/.test(text)) throw new Error(`${where}:${line}: malformed "# expect:" comment: ${text.trim()}`);
      return;
    }
    for (const code of m[1].split(',').map((s) => s.trim())) {
      if (!isRuleCode(code)) throw new Error(`${where}:${line}: unknown rule code "${code}" in "# expect:"`);
      if (out.some((e) => e.line === line && e.code === code)) throw new Error(`${where}:${line}: ${code} expected twice`);
      out.push(path === undefined ? { cell, line, code } : { cell, line, code, path });
    }
  });
  return out;
}

export interface NotebookCell {
  /** 0-based over all cells, markdown included. */
  index: number;
  cellType: string;
  source: string;
}

/** The cells of an .ipynb document (nbformat 4: `source` is a string or a list of strings). */
export function parseNotebookCells(json: string, where: string): NotebookCell[] {
  let doc: unknown;
  try {
    doc = JSON.parse(json);
  } catch (e) {
    throw new Error(`${where}: not valid JSON (${(e as Error).message})`);
  }
  const cells = (doc as { cells?: unknown }).cells;
  if (!Array.isArray(cells)) throw new Error(`${where}: a notebook needs a "cells" array`);
  return cells.map((cell, index) => {
    const c = cell as { cell_type?: unknown; source?: unknown };
    if (typeof c.cell_type !== 'string') throw new Error(`${where}: cell ${index} has no cell_type`);
    const src = c.source;
    let source: string;
    if (typeof src === 'string') source = src;
    else if (Array.isArray(src) && src.every((s) => typeof s === 'string')) source = src.join('');
    else throw new Error(`${where}: cell ${index} source must be a string or a list of strings`);
    return { index, cellType: c.cell_type, source };
  });
}

/** Parses and validates one case file (its name and full text). */
export function parseCase(file: string, text: string): CorpusCase {
  let kind: 'py' | 'ipynb';
  let units: SourceUnit[];
  if (file.endsWith('.py')) {
    kind = 'py';
    units = [{ cell: null, source: text }];
  } else if (file.endsWith('.ipynb')) {
    kind = 'ipynb';
    units = parseNotebookCells(text, file)
      .filter((c) => c.cellType === 'code')
      .map((c) => ({ cell: c.index, source: c.source }));
    if (units.length === 0) throw new Error(`${file}: a notebook case needs at least one code cell`);
  } else {
    throw new Error(`${file}: a case must be a .py or .ipynb file`);
  }
  const header = parseHeader(units[0].source, file);
  const stem = file.replace(/\.(py|ipynb)$/, '');
  if (header.name !== stem) throw new Error(`${file}: "# case: ${header.name}" must equal the file name (${stem})`);
  const expectations = units.flatMap((u) => parseExpectations(u.source, u.cell, u.cell === null ? file : `${file}[cell ${u.cell}]`));
  if (header.label === 'buggy' && expectations.length === 0) {
    throw new Error(`${file}: a buggy case needs at least one "# expect: CODE" comment`);
  }
  if (header.label === 'correct' && expectations.length > 0) {
    throw new Error(`${file}: a correct case must not have "# expect:" comments`);
  }
  return { file, kind, text, header, units, expectations };
}

/** A folder case's name: a case name followed by `/`. */
const FOLDER_NAME = /^[A-Za-z0-9][\w.-]*\/$/;
/** A file path inside a folder case: '/'-separated, relative, ending in .py, no `.` or `..` parts. */
const FOLDER_FILE = /^(?:[\w-][\w.-]*\/)*[\w-][\w.-]*\.py$/;

/**
 * Parses and validates a folder case: `folder` is its name with a trailing `/` (`mask-collate-pad/`), `files`
 * its .py files (any depth). Exactly one file carries the header block, whose `# case:` equals the folder name;
 * `# expect:` comments sit in the file where the finding is reported, each expectation keeping that path.
 */
export function parseFolderCase(folder: string, files: readonly FolderFile[]): CorpusCase {
  if (!FOLDER_NAME.test(folder)) throw new Error(`${folder}: a folder case's name must be a case name followed by "/"`);
  if (files.length === 0) throw new Error(`${folder}: a folder case needs at least one .py file`);
  const sorted = [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  for (const f of sorted) if (!FOLDER_FILE.test(f.path)) throw new Error(`${folder}${f.path}: not a relative .py path inside the folder`);
  const headed = sorted.filter((f) => /^#\s*case:/.test(splitLines(f.text)[0] ?? ''));
  if (headed.length !== 1) {
    throw new Error(
      `${folder}: exactly one file must start with the header block ("# case: ..."), found ${headed.length === 0 ? 'none' : headed.map((f) => f.path).join(', ')}`,
    );
  }
  const headerFile = headed[0];
  const header = parseHeader(headerFile.text, `${folder}${headerFile.path}`);
  const stem = folder.slice(0, -1);
  if (header.name !== stem) throw new Error(`${folder}${headerFile.path}: "# case: ${header.name}" must equal the folder name (${stem})`);
  const units: SourceUnit[] = sorted.map((f) => ({ cell: null, source: f.text, path: f.path }));
  const expectations = sorted.flatMap((f) => parseExpectations(f.text, null, `${folder}${f.path}`, f.path));
  if (header.label === 'buggy' && expectations.length === 0) {
    throw new Error(`${folder}: a buggy case needs at least one "# expect: CODE" comment`);
  }
  if (header.label === 'correct' && expectations.length > 0) {
    throw new Error(`${folder}: a correct case must not have "# expect:" comments`);
  }
  return { file: folder, kind: 'folder', text: headerFile.text, header, units, expectations };
}

/** What src/lint's WorkspaceFiles asks of a workspace, structurally (this module does not import src/lint). */
export interface WorkspaceLike {
  read(relPath: string): string | undefined;
  version(relPath: string): string | number | undefined;
  listPython(dir: string): readonly string[];
}

/** A folder case's files as the linter's workspace (in memory; the files never change, so every version is 1). */
export function folderWorkspace(c: CorpusCase): WorkspaceLike {
  const files = new Map<string, string>();
  for (const u of c.units) if (u.path !== undefined) files.set(u.path, u.source);
  return {
    read: (relPath) => files.get(relPath),
    version: (relPath) => (files.has(relPath) ? 1 : undefined),
    listPython: (dir) =>
      [...files.keys()].filter((p) => {
        const slash = p.lastIndexOf('/');
        return (slash < 0 ? '' : p.slice(0, slash)) === dir;
      }),
  };
}

/**
 * Runs a linter on one case and returns its findings with their cell (and, in a folder case, their file). For a
 * folder case `linter` must have been made with `folderWorkspace(c)` as its workspace; every file is linted.
 */
export function lintCase(linter: LinterLike, c: CorpusCase): LocatedFinding[] {
  if (c.kind === 'folder') {
    return c.units.flatMap((u) =>
      linter
        .lintPython(u.source, { path: u.path })
        .map((f) => ({ cell: null, path: u.path, code: f.code, line: f.line, column: f.column, message: f.message })),
    );
  }
  if (c.kind === 'py') {
    return linter.lintPython(c.text).map((f) => ({ cell: null, code: f.code, line: f.line, column: f.column, message: f.message }));
  }
  return linter
    .lintNotebook(c.text)
    .flatMap((entry) => entry.findings.map((f) => ({ cell: entry.cellIndex, code: f.code, line: f.line, column: f.column, message: f.message })));
}

/**
 * Lints and matches every case, folder cases with a linter that `forFolder` makes for their workspace (one per
 * case, so no case sees another's files). A case the linter throws on is listed in `crashes` with the error.
 */
export async function runCases(
  cases: readonly CorpusCase[],
  linter: LinterLike,
  forFolder: (workspace: WorkspaceLike) => Promise<LinterLike>,
): Promise<{ results: CaseResult[]; crashes: string[] }> {
  const results: CaseResult[] = [];
  const crashes: string[] = [];
  for (const c of cases) {
    try {
      const l = c.kind === 'folder' ? await forFolder(folderWorkspace(c)) : linter;
      results.push(matchCase(c.file, c.expectations, lintCase(l, c)));
    } catch (err) {
      crashes.push(`${c.file}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    }
  }
  return { results, crashes };
}

export function locationKey(l: Location & { code: string }): string {
  return `${l.path === undefined ? '' : `${l.path}|`}${l.cell === null ? '-' : l.cell}:${l.code}:${l.line}`;
}

export interface CaseResult {
  file: string;
  /** Expectations met by a finding of the same code on the same line (and cell). */
  tp: Expectation[];
  /** Findings with no matching expectation (one per distinct cell/code/line). */
  fp: LocatedFinding[];
  /** Expectations no finding met. */
  fn: Expectation[];
}

/**
 * Matches findings to expectations by (cell, code, line). Several findings with the same (cell, code, line)
 * count once: they are one claim about that line.
 */
export function matchCase(file: string, expectations: readonly Expectation[], findings: readonly LocatedFinding[]): CaseResult {
  const byKey = new Map<string, LocatedFinding>();
  for (const f of findings) {
    if (!Number.isInteger(f.line) || f.line < 1) throw new Error(`${file}: finding ${f.code} has an invalid line ${f.line} (expected an integer >= 1)`);
    const key = locationKey(f);
    if (!byKey.has(key)) byKey.set(key, f);
  }
  const tp: Expectation[] = [];
  const fn: Expectation[] = [];
  for (const e of expectations) {
    const key = locationKey(e);
    if (byKey.has(key)) {
      tp.push(e);
      byKey.delete(key);
    } else {
      fn.push(e);
    }
  }
  return { file, tp, fp: [...byKey.values()], fn };
}

export interface Counts {
  tp: number;
  fp: number;
  fn: number;
  /** tp / (tp + fp); null when nothing was reported. */
  precision: number | null;
  /** tp / (tp + fn); null when nothing was expected. */
  recall: number | null;
}

export interface Score {
  /** One row per rule code (all of RULE_CODES, plus any unknown code a linter reported). */
  perRule: Map<string, Counts>;
  overall: Counts;
}

function ratio(num: number, den: number): number | null {
  return den === 0 ? null : num / den;
}

function finish(c: { tp: number; fp: number; fn: number }): Counts {
  return { ...c, precision: ratio(c.tp, c.tp + c.fp), recall: ratio(c.tp, c.tp + c.fn) };
}

export function scoreResults(results: readonly CaseResult[]): Score {
  const raw = new Map<string, { tp: number; fp: number; fn: number }>();
  for (const code of RULE_CODES) raw.set(code, { tp: 0, fp: 0, fn: 0 });
  const row = (code: string) => {
    let r = raw.get(code);
    if (!r) raw.set(code, (r = { tp: 0, fp: 0, fn: 0 }));
    return r;
  };
  const total = { tp: 0, fp: 0, fn: 0 };
  for (const r of results) {
    for (const e of r.tp) row(e.code).tp++;
    for (const f of r.fp) row(f.code).fp++;
    for (const e of r.fn) row(e.code).fn++;
    total.tp += r.tp.length;
    total.fp += r.fp.length;
    total.fn += r.fn.length;
  }
  const perRule = new Map<string, Counts>();
  for (const [code, c] of raw) perRule.set(code, finish(c));
  return { perRule, overall: finish(total) };
}

function pct(x: number | null): string {
  return x === null ? '—' : x.toFixed(3);
}

/** A fixed-width text table: rule, TP, FP, FN, precision, recall, then an overall row. */
export function formatTable(score: Score): string {
  const head = ['rule', 'TP', 'FP', 'FN', 'precision', 'recall'];
  const rows = [...score.perRule].map(([code, c]) => [code, String(c.tp), String(c.fp), String(c.fn), pct(c.precision), pct(c.recall)]);
  const o = score.overall;
  rows.push(['overall', String(o.tp), String(o.fp), String(o.fn), pct(o.precision), pct(o.recall)]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const fmt = (r: string[]) => r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ');
  return [fmt(head), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(fmt)].join('\n');
}

export interface Targets {
  minOverallPrecision: number;
  minRecall: number;
  recallRules: readonly RuleCode[];
}

/** The brief's targets: overall precision >= 0.9 and recall >= 0.75 on each of ATT001-ATT004. */
export const TARGETS: Targets = { minOverallPrecision: 0.9, minRecall: 0.75, recallRules: ['ATT001', 'ATT002', 'ATT003', 'ATT004'] };

/** Human-readable reasons the score misses the targets (empty when they are met). */
export function missedTargets(score: Score, targets: Targets = TARGETS): string[] {
  const misses: string[] = [];
  const p = score.overall.precision;
  if (p === null) misses.push('overall precision is undefined: the linter reported nothing');
  else if (p < targets.minOverallPrecision) misses.push(`overall precision ${p.toFixed(3)} < ${targets.minOverallPrecision}`);
  for (const code of targets.recallRules) {
    const r = score.perRule.get(code)?.recall ?? null;
    if (r === null) misses.push(`${code} recall is undefined: the corpus expects no ${code}`);
    else if (r < targets.minRecall) misses.push(`${code} recall ${r.toFixed(3)} < ${targets.minRecall}`);
  }
  return misses;
}

export function describeLocation(file: string, l: Location): string {
  if (l.path !== undefined) return `${file}${l.path}:${l.line}`;
  return l.cell === null ? `${file}:${l.line}` : `${file} [cell ${l.cell}]:${l.line}`;
}

export interface MissOptions {
  /** Only this rule's misses. */
  rule?: string;
  /** The case behind a file, to name a false positive's label (`(correct case)`) and, with `why`, its reason. */
  caseOf?: (file: string) => CorpusCase | undefined;
  /** Add the case's `why:` on a second line. */
  why?: boolean;
}

/** Every false positive and false negative, one per line, with file:line (and cell). */
export function formatMisses(results: readonly CaseResult[], options: MissOptions = {}): string[] {
  const lines: string[] = [];
  for (const r of results) {
    const c = options.caseOf?.(r.file);
    const why = options.why && c ? `\n      why: ${c.header.why}` : '';
    for (const f of r.fp) {
      if (options.rule && f.code !== options.rule) continue;
      const label = c ? ` (${c.header.label} case)` : '';
      lines.push(`FP ${f.code} ${describeLocation(r.file, f)}${label}${f.message ? ` — ${f.message}` : ''}${why}`);
    }
    for (const e of r.fn) {
      if (options.rule && e.code !== options.rule) continue;
      lines.push(`FN ${e.code} ${describeLocation(r.file, e)}${why}`);
    }
  }
  return lines;
}

export interface CorpusStats {
  cases: number;
  buggy: number;
  correct: number;
  notebooks: number;
  repos: Set<string>;
  /** Expectations per rule (the buggy evidence). */
  expected: Map<RuleCode, number>;
  /** Buggy cases per rule (a case counts once per rule it expects). */
  buggyCases: Map<RuleCode, number>;
  /** Correct cases naming the rule in `# looks-like:`. */
  lookAlikes: Map<RuleCode, number>;
}

export function corpusStats(cases: readonly CorpusCase[]): CorpusStats {
  const zero = () => new Map<RuleCode, number>(RULE_CODES.map((c) => [c, 0]));
  const s: CorpusStats = {
    cases: cases.length,
    buggy: 0,
    correct: 0,
    notebooks: 0,
    repos: new Set(),
    expected: zero(),
    buggyCases: zero(),
    lookAlikes: zero(),
  };
  for (const c of cases) {
    s.repos.add(c.header.repo.toLowerCase());
    if (c.kind === 'ipynb') s.notebooks++;
    if (c.header.label === 'buggy') s.buggy++;
    else s.correct++;
    for (const e of c.expectations) s.expected.set(e.code, (s.expected.get(e.code) ?? 0) + 1);
    for (const code of new Set(c.expectations.map((e) => e.code))) s.buggyCases.set(code, (s.buggyCases.get(code) ?? 0) + 1);
    for (const code of c.header.looksLike) s.lookAlikes.set(code, (s.lookAlikes.get(code) ?? 0) + 1);
  }
  return s;
}

/**
 * Checks a corpus README's case table: every case listed once (first column `` `file` ``, `` `folder/` `` for a
 * folder case), its row naming
 * the case's repository and label, and no row for a case that does not exist. Returns the problems found.
 */
export function readmeTableProblems(readme: string, cases: readonly CorpusCase[]): string[] {
  const problems: string[] = [];
  const rows = new Map<string, string>();
  for (const line of readme.split('\n')) {
    const m = /^\|\s*`([^`]+(?:\.py|\.ipynb|\/))`\s*\|/.exec(line);
    if (!m) continue;
    if (rows.has(m[1])) problems.push(`README lists ${m[1]} twice`);
    rows.set(m[1], line);
  }
  for (const c of cases) {
    const row = rows.get(c.file);
    if (!row) problems.push(`README has no row for ${c.file}`);
    else {
      if (!row.includes(c.header.repo)) problems.push(`README row for ${c.file} does not name ${c.header.repo}`);
      if (!row.includes(c.header.label)) problems.push(`README row for ${c.file} does not give its label`);
    }
  }
  const names = new Set(cases.map((c) => c.file));
  for (const f of rows.keys()) if (!names.has(f)) problems.push(`README lists ${f}, which is not a case`);
  return problems;
}
