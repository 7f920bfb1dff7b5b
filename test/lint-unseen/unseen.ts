// The unseen lint set (test/lint-unseen, see its README): labelled attention code from repositories that neither
// regression set uses, kept out of the rules' authors' sight. This module reads the cases (single .py files
// and folder cases that are small workspaces), checks their headers, redacts the labels before the linter sees
// the code, lints each file, and scores the findings with the main corpus's matching
// (test/lint-corpus/score.ts). The set comes in batches (cases/ is the first, batch-N/cases/ the later ones);
// reports are per group: the spent batches (1, 2 and the exposed 13-15, 17, 18, 20-22, 24-29, 31-33, 37, 40) together as the regression
// batches, then the unseen batches each on its own and, after each batch but the first, the unseen batches so far together. It prints
// aggregates only: never a per-case miss. The training set (test/lint-train) reuses the loader, the linter run
// and the aggregate table; it alone may list misses, since its cases are meant to be read.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import {
  RULE_CODES,
  isRuleCode,
  matchCase,
  parseExpectations,
  readHeaderFields,
  scoreResults,
  type CaseResult,
  type Counts,
  type Expectation,
  type FindingLike,
  type Label,
  type RuleCode,
  type Score,
} from '../lint-corpus/score';

export const UNSEEN_DIR = join(__dirname, 'cases');

/** Where the case comes from: a fix's before (`real-bug`) or after (`fixed`), or correct code that is not a fix pair (`clean`). */
export type UnseenClass = 'real-bug' | 'fixed' | 'clean';
const CLASSES: readonly UnseenClass[] = ['real-bug', 'fixed', 'clean'];
function isUnseenClass(s: string): s is UnseenClass {
  return (CLASSES as readonly string[]).includes(s);
}

export interface UnseenHeader {
  name: string;
  /** owner/name of the repository the case is modelled on. */
  repo: string;
  /** The issue, pull request, commit or file that documents the case. */
  url: string;
  label: Label;
  cls: UnseenClass;
  pattern: string;
  why: string;
  looksLike: RuleCode[];
  /** `# source: <repo URL> <commit, PR or issue URL> <path>`: the file the case was modelled on. */
  source: { repoUrl: string; refUrl: string; path: string };
}

export interface UnseenFile {
  /** Path inside the case (`model.py`, `utils/masking.py`); the file name for a single-file case. */
  path: string;
  text: string;
  expectations: Expectation[];
}

export interface UnseenCase {
  /** The case name: the file stem, or the folder name of a folder case. */
  name: string;
  folder: boolean;
  header: UnseenHeader;
  /** The file that carries the header. */
  headerFile: string;
  files: UnseenFile[];
}

const HEADER_KEYS = ['case', 'modelled-on', 'label', 'class', 'pattern', 'why', 'looks-like', 'source'] as const;
const HEADER_LINE = /^#\s*([a-z-]+):\s*(.*?)\s*$/;
/** A trailing `# expect: CODE[, CODE...]` comment and the whitespace before it. */
const EXPECT_TAIL = /\s*#\s*expect:\s*[A-Za-z0-9_]+(?:\s*,\s*[A-Za-z0-9_]+)*\s*$/;
const GITHUB_URL = /^https:\/\/github\.com\/([A-Za-z0-9][\w.-]*)\/([\w.-]+)(?:\/\S*)?$/;

function repoOfUrl(url: string): string | null {
  const m = GITHUB_URL.exec(url);
  return m ? `${m[1]}/${m[2]}`.toLowerCase() : null;
}

/** True when the first line of `source` is a header line (`# case: ...`). */
export function startsWithHeader(source: string): boolean {
  const first = source.split(/\r\n|\r|\n/, 1)[0] ?? '';
  const m = HEADER_LINE.exec(first);
  return m !== null && m[1] === 'case';
}

/** Parses the header block at the top of `source`; `where` names the file in error messages. */
export function parseUnseenHeader(source: string, where: string): UnseenHeader {
  const { fields, need } = readHeaderFields(source, where, HEADER_KEYS);
  const name = need('case');
  const mo = /^([A-Za-z0-9][\w.-]*\/[\w.-]+)\s+(https:\/\/github\.com\/\S+)$/.exec(need('modelled-on'));
  if (!mo) throw new Error(`${where}: "# modelled-on:" must be "<owner/repo> <https://github.com/... URL>"`);
  const [, repo, url] = mo;
  if (repoOfUrl(url) !== repo.toLowerCase()) throw new Error(`${where}: modelled-on URL ${url} is not inside ${repo}`);
  const label = need('label');
  if (label !== 'buggy' && label !== 'correct') throw new Error(`${where}: label must be "buggy" or "correct", got "${label}"`);
  const cls = need('class');
  if (!isUnseenClass(cls)) throw new Error(`${where}: class must be one of ${CLASSES.join(', ')}, got "${cls}"`);
  if ((cls === 'real-bug') !== (label === 'buggy')) {
    throw new Error(`${where}: class "${cls}" does not go with label "${label}" (real-bug is buggy; fixed and clean are correct)`);
  }
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
  const src = /^(https:\/\/github\.com\/\S+)\s+(https:\/\/github\.com\/\S+)\s+(\S.*)$/.exec(need('source'));
  if (!src) throw new Error(`${where}: "# source:" must be "<repo URL> <commit, PR or issue URL> <path>"`);
  const [, repoUrl, refUrl, path] = src;
  if (repoOfUrl(repoUrl) !== repo.toLowerCase() || repoOfUrl(refUrl) !== repo.toLowerCase()) {
    throw new Error(`${where}: "# source:" URLs must both be inside ${repo}`);
  }
  if (!/\/(commit\/[0-9a-f]{7,40}|pull\/\d+|issues\/\d+)$/.test(refUrl)) {
    throw new Error(`${where}: "# source:" must give a commit, pull request or issue URL, got ${refUrl}`);
  }
  return { name, repo, url, label, cls, pattern: need('pattern'), why: need('why'), looksLike, source: { repoUrl, refUrl, path } };
}

/**
 * Builds a case from its files (paths relative to the case; one file for a single-file case). Exactly one
 * file carries the header; `# case:` must equal the case name; a buggy case needs an expectation and a
 * correct one has none. Throws one Error naming the case and the problem.
 */
export function parseUnseenCase(name: string, folder: boolean, files: ReadonlyArray<{ path: string; text: string }>): UnseenCase {
  if (files.length === 0) throw new Error(`${name}: a case needs at least one .py file`);
  if (!folder && files.length !== 1) throw new Error(`${name}: a single-file case has exactly one file`);
  if (folder && files.length < 2) throw new Error(`${name}: a folder case is a workspace of at least two .py files`);
  for (const f of files) if (!f.path.endsWith('.py')) throw new Error(`${name}/${f.path}: case files must be .py files`);
  const withHeader = files.filter((f) => startsWithHeader(f.text));
  if (withHeader.length !== 1) {
    throw new Error(`${name}: exactly one file must start with the "# case:" header, found ${withHeader.length}`);
  }
  const headerFile = withHeader[0].path;
  const header = parseUnseenHeader(withHeader[0].text, `${name}/${headerFile}`);
  if (header.name !== name) throw new Error(`${name}: "# case: ${header.name}" must equal the case name`);
  const parsed = files.map((f) => ({ path: f.path, text: f.text, expectations: parseExpectations(f.text, null, `${name}/${f.path}`) }));
  const count = parsed.reduce((n, f) => n + f.expectations.length, 0);
  if (header.label === 'buggy' && count === 0) throw new Error(`${name}: a buggy case needs at least one "# expect: CODE" comment`);
  if (header.label === 'correct' && count > 0) throw new Error(`${name}: a correct case must not have "# expect:" comments`);
  return { name, folder, header, headerFile, files: parsed };
}

/**
 * The source as the linter sees it: the header block (when `hasHeader`) becomes bare `#` lines and every
 * trailing `# expect:` comment is removed. Lines and code columns stay where they were.
 */
export function redactUnseenSource(source: string, hasHeader: boolean): string {
  const parts = source.split(/(\r\n|\r|\n)/); // odd indexes are the separators
  let inHeader = hasHeader;
  for (let i = 0; i < parts.length; i += 2) {
    const line = parts[i];
    if (inHeader) {
      const m = HEADER_LINE.exec(line);
      if (m && (HEADER_KEYS as readonly string[]).includes(m[1])) {
        parts[i] = '#';
        continue;
      }
      inHeader = false;
    }
    parts[i] = line.replace(EXPECT_TAIL, '');
  }
  return parts.join('');
}

/** A workspace file as the linter is given it (redacted). */
export interface WorkspaceFile {
  path: string;
  text: string;
}

/** The part of the linter API the scorer calls (src/lint's Linter satisfies it). */
export interface UnseenLinter {
  lintPython(source: string, options?: { path?: string }): FindingLike[];
}

/**
 * The workspace the linter was created with (`createLinter(wasm, { workspace })`), switched to each case's
 * files in turn: a folder case is a small workspace, whose files see each other's imports. Versions name the
 * case, so the linter's per-file caches never mix two cases' files of the same path.
 */
export class CaseWorkspace {
  private files = new Map<string, string>();
  private caseName = '';

  use(caseName: string, files: readonly WorkspaceFile[]): void {
    this.caseName = caseName;
    this.files = new Map(files.map((f) => [f.path, f.text]));
  }

  read(relPath: string): string | undefined {
    return this.files.get(relPath);
  }

  version(relPath: string): string | undefined {
    return this.files.has(relPath) ? `${this.caseName}/${relPath}` : undefined;
  }

  listPython(dir: string): string[] {
    const prefix = dir === '' ? '' : `${dir}/`;
    return [...this.files.keys()].filter((p) => p.startsWith(prefix) && !p.slice(prefix.length).includes('/') && p.endsWith('.py'));
  }

  /**
   * The directories directly in `dir` that hold a file of the case, as workspace-relative paths: what the editor's
   * and the CLI's disk workspace (`diskWorkspace` in src/cli/lint-workspace.ts) answer, so importers in sibling
   * directories (`models/net.py` calling `layers/attention.py`) are looked for here as they are for a user.
   */
  listDirs(dir: string): string[] {
    const prefix = dir === '' ? '' : `${dir}/`;
    const dirs = new Set<string>();
    for (const p of this.files.keys()) {
      if (!p.startsWith(prefix)) continue;
      const rest = p.slice(prefix.length);
      const slash = rest.indexOf('/');
      if (slash > 0) dirs.add(prefix + rest.slice(0, slash));
    }
    return [...dirs].sort();
  }
}

/** The redacted files of a case: what a user's workspace would hold. */
export function redactedWorkspace(c: UnseenCase): WorkspaceFile[] {
  return c.files.map((f) => ({ path: f.path, text: redactUnseenSource(f.text, f.path === c.headerFile) }));
}

/**
 * Lints one file of a case. `workspace` holds the case's other files (empty for a single-file case). Today's
 * linter takes one source and no workspace, so each file is linted alone; once the linter's API takes the
 * workspace, pass it here (the one line below) and folder cases measure cross-file analysis.
 */
export function lintFileInWorkspace(
  linter: UnseenLinter,
  file: WorkspaceFile,
  workspace: readonly WorkspaceFile[],
  caseWorkspace?: CaseWorkspace,
  caseName = '',
): FindingLike[] {
  if (!caseWorkspace) return linter.lintPython(file.text);
  caseWorkspace.use(caseName, [file, ...workspace]);
  return linter.lintPython(file.text, { path: file.path });
}

export interface UnseenRun {
  /** One result per file of every case, named `<case>/<path>`. */
  results: CaseResult[];
  score: Score;
  /** Per class, plus `folder` (folder cases of any class): case count and TP/FP/FN over their files. */
  byClass: Map<UnseenClass | 'folder', { cases: number } & Counts>;
  /** Files on which the linter threw, with the error message (the file then counts no findings). */
  crashes: Array<{ file: string; message: string }>;
}

/** One case's per-file results, as linted. */
export interface LintedCase {
  c: UnseenCase;
  results: CaseResult[];
}

/** Lints every case (redacted, file by file within its workspace) and matches the findings to the labels. */
export function lintCases(
  linter: UnseenLinter,
  cases: readonly UnseenCase[],
  caseWorkspace?: CaseWorkspace,
): { linted: LintedCase[]; crashes: UnseenRun['crashes'] } {
  const crashes: UnseenRun['crashes'] = [];
  const linted: LintedCase[] = [];
  for (const c of cases) {
    const workspace = redactedWorkspace(c);
    const mine: CaseResult[] = [];
    for (const file of workspace) {
      const label = `${c.name}/${file.path}`;
      const expectations = c.files.find((f) => f.path === file.path)!.expectations;
      let findings: FindingLike[] = [];
      try {
        findings = lintFileInWorkspace(
          linter,
          file,
          workspace.filter((w) => w !== file),
          caseWorkspace,
          c.name,
        );
      } catch (err) {
        crashes.push({ file: label, message: err instanceof Error ? err.message : String(err) });
      }
      const located = findings.map((f) => ({ cell: null, code: f.code, line: f.line, column: f.column, message: f.message }));
      mine.push(matchCase(label, expectations, located));
    }
    linted.push({ c, results: mine });
  }
  return { linted, crashes };
}

/** Scores linted cases: overall and per rule, and per class (plus `folder`). */
export function summariseUnseen(linted: readonly LintedCase[], crashes: UnseenRun['crashes'] = []): UnseenRun {
  const results = linted.flatMap((l) => l.results);
  const byClass: UnseenRun['byClass'] = new Map();
  for (const key of [...CLASSES, 'folder'] as const) {
    const members = linted.filter(({ c }) => (key === 'folder' ? c.folder : c.header.cls === key));
    const s = scoreResults(members.flatMap((m) => m.results)).overall;
    byClass.set(key, { cases: members.length, ...s });
  }
  return { results, score: scoreResults(results), byClass, crashes: [...crashes] };
}

/** Lints every case (redacted, file by file within its workspace) and scores it against the labels. */
export function runUnseen(linter: UnseenLinter, cases: readonly UnseenCase[], caseWorkspace?: CaseWorkspace): UnseenRun {
  const { linted, crashes } = lintCases(linter, cases, caseWorkspace);
  return summariseUnseen(linted, crashes);
}

function fmt(x: number | null): string {
  return x === null ? '—' : x.toFixed(3);
}

/** F1 = 2PR / (P + R); null when either is undefined or both are 0. */
export function f1(c: Pick<Counts, 'precision' | 'recall'>): number | null {
  if (c.precision === null || c.recall === null || c.precision + c.recall === 0) return null;
  return (2 * c.precision * c.recall) / (c.precision + c.recall);
}

function table(head: string[], rows: string[][]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (r: string[]) => r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ');
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

/** The aggregate report: overall P/R/F1, per-rule P/R, and counts by class. No per-case line, ever. */
export function formatUnseenReport(run: UnseenRun, cases: readonly UnseenCase[], title = 'lint unseen'): string {
  const o = run.score.overall;
  const files = cases.reduce((n, c) => n + c.files.length, 0);
  const expected = cases.reduce((n, c) => n + c.files.reduce((m, f) => m + f.expectations.length, 0), 0);
  const perRule = [...run.score.perRule]
    .filter(([code]) => (RULE_CODES as readonly string[]).includes(code) || run.score.perRule.get(code)!.fp > 0)
    .map(([code, c]) => [code, String(c.tp), String(c.fp), String(c.fn), fmt(c.precision), fmt(c.recall)]);
  perRule.push(['overall', String(o.tp), String(o.fp), String(o.fn), fmt(o.precision), fmt(o.recall)]);
  const classes = [...run.byClass].map(([k, c]) => [k, String(c.cases), String(c.tp), String(c.fp), String(c.fn), fmt(c.precision), fmt(c.recall)]);
  return [
    `${title}: ${cases.length} cases (${files} files, ${expected} expectations) from ${new Set(cases.map((c) => c.header.repo.toLowerCase())).size} repositories`,
    `overall: precision ${fmt(o.precision)}  recall ${fmt(o.recall)}  F1 ${fmt(f1(o))}${run.crashes.length > 0 ? `  (linter threw on ${run.crashes.length} files)` : ''}`,
    table(['rule', 'TP', 'FP', 'FN', 'precision', 'recall'], perRule),
    table(['class', 'cases', 'TP', 'FP', 'FN', 'precision', 'recall'], classes),
  ].join('\n');
}

/** Every .py file under `dir`, as paths relative to it with `/` separators, sorted. */
function pythonFilesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const entry of readdirSync(d).sort()) {
      const full = join(d, entry);
      if (statSync(full).isDirectory()) walk(full);
      else if (entry.endsWith('.py')) out.push(relative(dir, full).split(sep).join('/'));
    }
  };
  walk(dir);
  return out;
}

/**
 * Reads every case in `dir` (a .py file or a folder per case); throws one Error listing every malformed case.
 * `what` names the set in that error; entries for which `skip` returns true (e.g. a batch's README.md when the
 * cases sit next to it, as the training set allows) are not cases.
 */
export function loadUnseen(dir: string = UNSEEN_DIR, what = 'unseen', skip: (entry: string) => boolean = () => false): UnseenCase[] {
  const cases: UnseenCase[] = [];
  const errors: string[] = [];
  for (const entry of readdirSync(dir).sort()) {
    if (skip(entry)) continue;
    const full = join(dir, entry);
    try {
      if (statSync(full).isDirectory()) {
        const files = pythonFilesUnder(full).map((path) => ({ path, text: readFileSync(join(full, path), 'utf8') }));
        cases.push(parseUnseenCase(entry, true, files));
      } else if (entry.endsWith('.py')) {
        cases.push(parseUnseenCase(entry.slice(0, -3), false, [{ path: entry, text: readFileSync(full, 'utf8') }]));
      } else {
        throw new Error(`${entry}: the cases folder holds only .py files and case folders`);
      }
    } catch (e) {
      errors.push((e as Error).message);
    }
  }
  if (errors.length > 0) throw new Error(`malformed ${what} cases in ${dir}:\n  ${errors.join('\n  ')}`);
  return cases;
}

/**
 * Which measure a batch is: `regression` (spent: its repositories or case names have reached the rules'
 * authors, see the README; kept so that its numbers must not fall) or `unseen` (gathered by someone who does
 * not change the rules, never read case by case). Batches 1 and 2 are regression batches, and so since session 32 are
 * 13-15, 17, 18, 20-22, 24-29 and 31 (their make-up, missed kinds or case names reached the integrator, a rules
 * author), and since session 39 batches 32 and 33 (given to the rule engineers after their first contact, by a decision
 * taken before any run of that session), and since session 40 batch 37 (its case table was read by the integrator);
 * batches 3 to 12, 16, 19, 23, 30, 35, 36 and 38 are the unseen measure (batches 35 and 36, gathered in parallel in
 * session 39, were printed on their own then and joined the measure in session 40, as decided in session 39 before any
 * result of them existed; batch 38, gathered in session 40, likewise joined in session 41).
 */
export type UnseenGroup = 'regression' | 'unseen';

/** A batch of the set: the first batch in `cases/`, later ones in `batch-N/cases/` (see the README). */
export interface UnseenBatch {
  /** `batch-1`, `batch-2`, ... */
  id: string;
  dir: string;
  /** Reported with the other batches of its group (absent: `unseen`). */
  group?: UnseenGroup;
  /**
   * Reported on its own only, not yet added to its group's combined runs (the prefixes and the group total): a batch
   * gathered in parallel with another one, whose combined line the integrator adds once both have landed.
   */
  alone?: boolean;
}

export const UNSEEN_BATCHES: readonly UnseenBatch[] = [
  { id: 'batch-1', dir: UNSEEN_DIR, group: 'regression' },
  { id: 'batch-2', dir: join(__dirname, 'batch-2', 'cases'), group: 'regression' },
  // A regression batch since the end of session 43: the repeated-code report of the session's final review, shown to
  // the integrator, named one case file of this batch (with its kind) as a same-shape neighbour of a training case.
  { id: 'batch-3', dir: join(__dirname, 'batch-3', 'cases'), group: 'regression' },
  { id: 'batch-4', dir: join(__dirname, 'batch-4', 'cases'), group: 'unseen' },
  { id: 'batch-5', dir: join(__dirname, 'batch-5', 'cases'), group: 'unseen' },
  { id: 'batch-6', dir: join(__dirname, 'batch-6', 'cases'), group: 'unseen' },
  { id: 'batch-7', dir: join(__dirname, 'batch-7', 'cases'), group: 'unseen' },
  { id: 'batch-8', dir: join(__dirname, 'batch-8', 'cases'), group: 'unseen' },
  { id: 'batch-9', dir: join(__dirname, 'batch-9', 'cases'), group: 'unseen' },
  // A regression batch since the end of session 44: the repeated-code report of the session's final review, run on
  // the whole tree and shown to the integrator, named one case file of this batch (with its kind).
  { id: 'batch-10', dir: join(__dirname, 'batch-10', 'cases'), group: 'regression' },
  { id: 'batch-11', dir: join(__dirname, 'batch-11', 'cases'), group: 'unseen' },
  { id: 'batch-12', dir: join(__dirname, 'batch-12', 'cases'), group: 'unseen' },
  { id: 'batch-13', dir: join(__dirname, 'batch-13', 'cases'), group: 'regression' },
  { id: 'batch-14', dir: join(__dirname, 'batch-14', 'cases'), group: 'regression' },
  { id: 'batch-15', dir: join(__dirname, 'batch-15', 'cases'), group: 'regression' },
  // A regression batch since the end of session 46: the repeated-code report of the session's final review (run on
  // the whole tree by the review tool and shown to the integrator) named a case file of this batch (with its kind).
  { id: 'batch-16', dir: join(__dirname, 'batch-16', 'cases'), group: 'regression' },
  { id: 'batch-17', dir: join(__dirname, 'batch-17', 'cases'), group: 'regression' },
  // Session 30, curator A (curator B's batch 19 follows).
  { id: 'batch-18', dir: join(__dirname, 'batch-18', 'cases'), group: 'regression' },
  // Session 30, curator B (gathered in parallel with curator A's batch 18; added to the measure after it by the integrator).
  // A regression batch since the end of session 43: the repeated-code report of the session's final review, shown to
  // the integrator, named two case files of this batch (with their kind) as same-shape neighbours of a training case.
  { id: 'batch-19', dir: join(__dirname, 'batch-19', 'cases'), group: 'regression' },
  // Session 31, curator A (curator B's batch 21 follows).
  { id: 'batch-20', dir: join(__dirname, 'batch-20', 'cases'), group: 'regression' },
  // Session 31, curator B (gathered in parallel with curator A's batch 20), in the measure after it.
  { id: 'batch-21', dir: join(__dirname, 'batch-21', 'cases'), group: 'regression' },
  // Session 32, curator A (curator B's batch 23 follows). A regression batch from the start: its overall line and case
  // file names reached the integrator (see the README).
  { id: 'batch-22', dir: join(__dirname, 'batch-22', 'cases'), group: 'regression' },
  // Session 32, curator B (gathered in parallel with curator A's batch 22), in the unseen measure after batch 19.
  { id: 'batch-23', dir: join(__dirname, 'batch-23', 'cases'), group: 'unseen' },
  // Session 32, curator C (gathered in parallel with curators D and E). A regression batch from the start: its make-up
  // (every case correct code) reached the integrator (see the README).
  { id: 'batch-24', dir: join(__dirname, 'batch-24', 'cases'), group: 'regression' },
  // Session 32, curator D (gathered in parallel with curators C and E). A regression batch: two of its case file names,
  // with their kinds, reached the integrator in the session's final repeated-code report.
  { id: 'batch-25', dir: join(__dirname, 'batch-25', 'cases'), group: 'regression' },
  // Session 32, curator E (gathered in parallel with curators C and D). A regression batch, as batch 25.
  { id: 'batch-26', dir: join(__dirname, 'batch-26', 'cases'), group: 'regression' },
  // Session 35 (brief curator36), gathered alone. Meant to join the unseen measure; a regression batch since the session's
  // final review, whose repeated-code report showed the integrator one of its case file names with its kind.
  { id: 'batch-27', dir: join(__dirname, 'batch-27', 'cases'), group: 'regression' },
  // Session 35 (brief curator37), gathered alone after batch 27; a regression batch, as batch 27 (one case file name with
  // its kind reached the integrator in the final review's repeated-code report).
  { id: 'batch-28', dir: join(__dirname, 'batch-28', 'cases'), group: 'regression' },
  // Session 36 (brief curator-s36u29), gathered alone: meant as a fresh unseen batch (printed on its own), a regression
  // batch since the session's final review, whose repeated-code report showed the integrator one of its case file names
  // with its kind, beside a batch-1 case whose code it largely repeats (batch 1's cases were read by rule engineers that
  // session).
  { id: 'batch-29', dir: join(__dirname, 'batch-29', 'cases'), group: 'regression' },
  // Session 37 (brief curator-s37u30), gathered alone: a fresh unseen batch measured with today's linter. The integrator
  // decided before any result existed that it was printed on its own in session 37 (`alone`) and joins the unseen
  // measure in session 38, after batch 23.
  { id: 'batch-30', dir: join(__dirname, 'batch-30', 'cases'), group: 'unseen' },
  // Session 38 (brief curator-s38u31), gathered by one curator in parallel with the curator of batch 32 (each from its
  // half of the unseen coin): a fresh unseen batch measured with today's linter. The integrator decided before any
  // result existed that it is printed on its own this session (`alone`). A regression batch since the session's final
  // review, whose repeated-code report showed the integrator two of its case file names with their kinds.
  { id: 'batch-31', dir: join(__dirname, 'batch-31', 'cases'), group: 'regression' },
  // Session 38 (brief curator-s38u32), gathered in parallel with batch 31 (brief curator-s38u31), each curator from its
  // half of the coin's unseen side: a fresh unseen batch measured with today's linter. The integrator decided before any
  // result existed that it is printed on its own this session (`alone`). A regression batch since session 39, which
  // decided at its start (before any run) to give its cases to the rule engineers: its first contact is recorded.
  { id: 'batch-32', dir: join(__dirname, 'batch-32', 'cases'), group: 'regression' },
  // Session 38 (brief curator-s38u33), gathered after batches 31 and 32 in parallel with batch 34, each curator from its
  // half of the coin's unseen side: a fresh unseen batch measured with today's linter. The integrator decided before any
  // result existed that it is printed on its own this session (`alone`), after batch 32. A regression batch since
  // session 39, as batch 32 (its first contact is recorded).
  { id: 'batch-33', dir: join(__dirname, 'batch-33', 'cases'), group: 'regression' },
  // Session 39 (brief curator-s39u35), gathered in parallel with batch 36, each curator from its half of the coin's
  // unseen side: a fresh unseen batch measured with today's linter. The integrator decided before any result existed
  // that it is printed on its own this session (`alone`); a later session adds it to the unseen measure. Session 40 added
  // it, as decided in session 39 before any result of it existed.
  { id: 'batch-35', dir: join(__dirname, 'batch-35', 'cases'), group: 'unseen' },
  // Session 39 (brief curator-s39u36), gathered in parallel with batch 35 (brief curator-s39u35), each curator from its
  // half of the coin's unseen side: a fresh unseen batch measured with today's linter. The integrator decided before any
  // result existed that it is printed on its own this session (`alone`), after batch 35; a later session adds it.
  // Session 40 added it, as decided in session 39 before any result of it existed.
  { id: 'batch-36', dir: join(__dirname, 'batch-36', 'cases'), group: 'unseen' },
  // Session 39 (brief curator-s39u37), gathered after batches 35 and 36, from the coin's unseen side, with real bugs as
  // its aim: a fresh unseen batch measured with today's linter. The integrator decided before any result existed that it
  // is printed on its own this session (`alone`), after batch 36; a later session adds it. A regression batch since the
  // start of session 40: its integrator opened batch-37/README.md (the case table) before it joined the measure.
  { id: 'batch-37', dir: join(__dirname, 'batch-37', 'cases'), group: 'regression' },
  // Session 40 (brief curator-s40u38), gathered by one curator from the coin's unseen side (first hex digit 0-7), with
  // real bugs as its first aim, every case written for the set, labelled before any linter ran on it and checked to share
  // no run of six code lines with any other case under test/: a fresh unseen batch measured with today's linter. The
  // integrator decided before any result existed that it is printed on its own this session (`alone`); a later session
  // adds it to the unseen measure. Session 41 added it, as decided in session 40 before any result of it existed.
  { id: 'batch-38', dir: join(__dirname, 'batch-38', 'cases'), group: 'unseen' },
  // Session 41 (brief curator-s41u39), gathered by one curator from its half of the coin's unseen side (first hex digit
  // 0-3; batch 40 draws from 4-7), with real bugs as its first aim, every case written for the set, labelled before any
  // linter ran on it and checked to share no run of six code lines with any other case under test/: a fresh unseen
  // batch measured with today's linter. The integrator decided before any result existed that it is printed on its own
  // this session (`alone`); at the start of session 42 it joins the unseen measure, as session 41 decided before any
  // batch existed. Session 42 added it, as decided.
  { id: 'batch-39', dir: join(__dirname, 'batch-39', 'cases'), group: 'unseen' },
  // Session 41 (brief curator-s41u40), gathered by one curator in parallel with the curator of batch 39, each from its
  // quarter of the coin (first hex digit 4-7 here, 0-3 for batch 39; 8-f is the training set), with real bugs as its
  // first aim, every case written for the set, labelled before any linter ran on it and checked to share no run of six
  // code lines with any other case under test/: a fresh unseen batch measured with today's linter. The integrator
  // decided before any result existed that it is printed on its own this session (`alone`); at the start of session 42
  // it becomes a regression batch given to the rule engineers, as session 41 decided before any batch existed. Session 42 made it so.
  { id: 'batch-40', dir: join(__dirname, 'batch-40', 'cases'), group: 'regression' },
  // Session 41 (brief curator-s41u41), the second pair of the session: gathered by one curator from its half of the
  // coin's unseen side (first hex digit 0-3; batch 42 draws from 4-7), after batches 39 and 40 and from none of their
  // repositories, with real bugs as its first aim, every case written for the set, labelled before any linter ran on it
  // and checked to share no run of six code lines with any other case under test/ (batches 39 and 40 included): a
  // fresh unseen batch measured with today's linter. The integrator decided before any result existed that it is
  // printed on its own this session (`alone`); at the start of session 42 it joins the unseen measure, as session 41
  // decided before it existed. Session 42 added it, as decided.
  // A regression batch since the end of session 46: the repeated-code report of the session's final review (run on
  // the whole tree by the review tool and shown to the integrator) named a case file of this batch (with its kind).
  { id: 'batch-41', dir: join(__dirname, 'batch-41', 'cases'), group: 'regression' },
  // Session 41 (brief curator-s41u42), gathered by one curator in parallel with the curator of batch 41, each from its
  // quarter of the coin (first hex digit 4-7 here, 0-3 for batch 41; 8-f is the training set), after batches 39 and 40
  // and from none of their repositories, with real bugs as its first aim, every case written for the set, labelled
  // before any linter ran on it and checked to share no run of six code lines with any other case under test/: a fresh
  // unseen batch measured with today's linter. The integrator decided before any result existed that it is printed on
  // its own this session (`alone`); at the start of session 42 it joins the unseen measure, as session 41 decided before
  // it existed. Session 42 added it, as decided.
  { id: 'batch-42', dir: join(__dirname, 'batch-42', 'cases'), group: 'unseen' },
  // Session 41 (brief curator-s41u43), the third pair of the session: gathered by one curator from its half of the
  // coin's unseen side (first hex digit 0-3; batch 44 draws from 4-7), after batches 39-42 and from none of their
  // repositories, with real bugs as its first aim, every case written for the set, labelled before any linter ran on it
  // and checked to share no run of six code lines with any other case under test/ (batches 39-42 included): a fresh
  // unseen batch measured with today's linter. The integrator decided before any result existed that it is printed on
  // its own this session (`alone`); at the start of session 42 it joins the unseen measure, as session 41 decided before
  // it existed. Session 42 added it, as decided.
  { id: 'batch-43', dir: join(__dirname, 'batch-43', 'cases'), group: 'unseen' },
  // Session 41 (brief curator-s41u44), the third pair of the session: gathered by one curator in parallel with the
  // curator of batch 43, each from its quarter of the coin (first hex digit 4-7 here, 0-3 for batch 43; 8-f is the
  // training set), after batches 39 to 42 and from none of their repositories, with real bugs as its first aim, every
  // case written for the set, labelled before any linter ran on it and checked to share no run of six code lines with
  // any other case under test/ (batches 39 to 42 included): a fresh unseen batch measured with today's linter. The
  // integrator decided before any result existed that it is printed on its own this session (`alone`); at the start of
  // session 42 it joins the unseen measure, as session 41 decided before it existed. Session 42 added it, as decided.
  { id: 'batch-44', dir: join(__dirname, 'batch-44', 'cases'), group: 'unseen' },
  // Session 42 (brief curator-s42u45), gathered by one curator from its half of the coin's unseen side (first hex digit
  // 0-3; batch 46 draws from 4-7 in parallel), after batches 39-44 and from none of their repositories, with real bugs
  // as its first aim, every case written for the set, labelled before any linter ran on it and checked to share no run
  // of six code lines with any other case under test/: a fresh unseen batch measured with today's linter. The
  // integrator decided before any result existed that it is printed on its own this session (`alone`); at the start of
  // session 43 it joins the unseen measure, as session 42 decided before it existed. Session 43 added it, as decided.
  { id: 'batch-45', dir: join(__dirname, 'batch-45', 'cases'), group: 'unseen' },
  // Session 42 (brief curator-s42u46): gathered by one curator in parallel with the curator of batch 45, each from its
  // quarter of the coin (first hex digit 4-7 here, 0-3 for batch 45; 8-f is the training set), after batches 39 to 44
  // and from none of their repositories, with real bugs as its first aim, every case written for the set, labelled
  // before any linter ran on it and checked to share no run of six code lines with any other case under test/: a fresh
  // unseen batch measured with today's linter. The integrator decided before any result existed that it is printed on
  // its own this session (`alone`); at the start of session 43 it joins the unseen measure, as session 42 decided before
  // it existed. Session 43 added it, as decided.
  { id: 'batch-46', dir: join(__dirname, 'batch-46', 'cases'), group: 'unseen' },
  // Session 42 (brief curator-s42u47), gathered by one curator of the session's second pair from its quarter of the
  // coin's unseen side (first hex digit 0-3; batch 48 draws from 4-7), after batches 39-46 and from none of their
  // repositories, with real bugs as its first aim, every case written for the set, labelled before any linter ran on it
  // and checked to share no run of six code lines with any other case under test/: a fresh unseen batch measured with
  // today's linter. The integrator decided before any result existed that it is printed on its own this session
  // (`alone`); at the start of session 43 it joins the unseen measure, as session 42 decided before it existed. Session 43 added it, as decided.
  { id: 'batch-47', dir: join(__dirname, 'batch-47', 'cases'), group: 'unseen' },
  // Session 42 (brief curator-s42u48), the second pair of the session: gathered by one curator in parallel with the
  // curator of batch 47, each from its quarter of the coin (first hex digit 4-7 here, 0-3 for batch 47; 8-f is the
  // training set), after batches 45 and 46 and from none of their repositories, with real bugs as its first aim, every
  // case written for the set, labelled before any linter ran on it and checked to share no run of six code lines with
  // any other case under test/ (batches 45 and 46 included): a fresh unseen batch measured with today's linter. The
  // integrator decided before any result existed that it is printed on its own this session (`alone`); at the start of
  // session 43 it joins the unseen measure, as session 42 decided before it existed. Session 43 added it, as decided.
  { id: 'batch-48', dir: join(__dirname, 'batch-48', 'cases'), group: 'unseen' },
  // Session 43 (brief curator-s43u49), gathered by one curator in parallel with the curator of batch 50, each from its
  // quarter of the coin's unseen side (first hex digit 0-3 here, 4-7 for batch 50; 8-f is the training set), after
  // batches 45-48 and from none of their repositories, with real bugs as its first aim, every case written for the set,
  // labelled before any linter ran on it and checked to share no run of six code lines with any other case under test/:
  // a fresh unseen batch measured with today's linter. The integrator decided before any result existed that it is
  // printed on its own this session (`alone`); at the start of session 44 it joins the unseen measure, as session 43
  // decided before it existed. Session 44 added it, as decided.
  { id: 'batch-49', dir: join(__dirname, 'batch-49', 'cases'), group: 'unseen' },
  // Session 43 (brief curator-s43u50), gathered by one curator in parallel with the curator of batch 49, each from its
  // quarter of the coin (first hex digit 4-7 here, 0-3 for batch 49; 8-f is the training set), after batches 45-48 and
  // from none of their repositories, with real bugs as its first aim, every case written for the set, labelled before any
  // linter ran on it and checked to share no run of six code lines with any other case under test/ (and batch 49's cases):
  // a fresh unseen batch measured with today's linter. The integrator decided before any result existed that it is
  // printed on its own this session (`alone`); at the start of session 44 it joins the unseen measure, as session 43
  // decided before it existed.
  // While merging the session's branches, the integrator printed a `git diff --stat` whose tail listed every case file
  // name of this batch (no code, label or result): a batch whose case names reached a rules author is a regression batch
  // (as batches 21, 29 and 31 were for fewer names), so it never joins the unseen measure and is a regression batch from
  // session 43 on, given to the rule engineers.
  { id: 'batch-50', dir: join(__dirname, 'batch-50', 'cases'), group: 'regression' },
  // Session 44 (brief curator-s44u51), gathered by one curator in parallel with the curator of batch 52, each from its
  // quarter of the coin's unseen side (first hex digit 0-3 here, 4-7 for batch 52; 8-f is the training set), after
  // batches 49 and 50 and from none of their repositories, with real bugs as its first aim, every case written for the
  // set, labelled before any linter ran on it and checked to share no run of six code lines with any other case under
  // test/ (and the test folders of the session's other branches): a fresh unseen batch measured with today's linter.
  // The integrator decided before any result existed that it is printed on its own this session (`alone`); at the
  // start of session 45 it joins the unseen measure, as session 44 decided before it existed.
  // Session 45 added it to the unseen measure at its start, as decided.
  { id: 'batch-51', dir: join(__dirname, 'batch-51', 'cases'), group: 'unseen' },
  // Session 44 (brief curator-s44u52), gathered by one curator in parallel with the curator of batch 51, each from its
  // quarter of the coin (first hex digit 4-7 here, 0-3 for batch 51; 8-f is the training set), after batches 49 and 50 and
  // from none of their repositories, with real bugs as its first aim and then correct look-alikes of the rules' bugs,
  // every case written for the set, labelled before any linter ran on it and checked to share no run of six code lines
  // with any other case under test/ (and batch 51's cases): a fresh unseen batch measured with today's linter. The
  // integrator decided before any result existed that it is printed on its own this session (`alone`); at the start of
  // session 45 it joins the unseen measure, as session 44 decided before it existed.
  // A regression batch since the end of session 44 (before it joined the measure): the repeated-code report of the
  // session's final review, run on the whole tree and shown to the integrator, named case files of this batch (with
  // their kind).
  { id: 'batch-52', dir: join(__dirname, 'batch-52', 'cases'), group: 'regression' },
  // Session 44 (brief curator-s44u53), gathered by one curator of the session's second pair in parallel with the curator
  // of batch 54, each from its quarter of the coin's unseen side (first hex digit 0-3 here, 4-7 for batch 54; 8-f is the
  // training set), after batches 51 and 52 of the first pair and from none of their repositories, with real bugs as its
  // first aim, every case written for the set, labelled before any linter ran on it and checked to share no run of six
  // code lines with any other case under test/ (and the case files of batches 51, 52 and 54 on their branches): a fresh
  // unseen batch measured with today's linter. The integrator decided before any result existed that it is printed on
  // its own this session (`alone`); at the start of session 45 it joins the unseen measure, as session 44 decided before
  // it existed.
  // Session 45 added it to the unseen measure at its start, as decided.
  { id: 'batch-53', dir: join(__dirname, 'batch-53', 'cases'), group: 'unseen' },
  // Session 44 (brief curator-s44u54), gathered by one curator of the session's second pair, in parallel with the curator
  // of batch 53, each from its quarter of the coin (first hex digit 4-7 here, 0-3 for batch 53; 8-f is the training set),
  // after batches 51 and 52 and from none of their repositories, with real bugs as its first aim and then correct
  // look-alikes of the rules' bugs, every case written for the set, labelled before any linter ran on it and checked to
  // share no run of six code lines with any other case under test/ (and batches 51-53's cases): a fresh unseen batch
  // measured with today's linter. The integrator decided before any result existed that it is printed on its own this
  // session (`alone`); at the start of session 45 it joins the unseen measure, as session 44 decided before it existed.
  // A regression batch since the end of session 44 (before it joined the measure): the repeated-code report of the
  // session's final review, run on the whole tree and shown to the integrator, named case files of this batch (with
  // their kind).
  { id: 'batch-54', dir: join(__dirname, 'batch-54', 'cases'), group: 'regression' },
  // Session 45 (brief curator-s45u55), gathered by one curator in parallel with the curator of batch 56, each from its
  // quarter of the coin's unseen side (first hex digit 0-3 here, 4-7 for batch 56; 8-f is the training set), after
  // batches 51-54 and from none of their repositories, with real bugs as its first aim and then correct look-alikes of
  // the rules' bugs, every case written for the set, labelled before any linter ran on it and checked to share no run
  // of six code lines with any other case under test/ (and the test folders of the session's other branches and batch
  // 56's case files): a fresh unseen batch measured with today's linter. The integrator decided before any result
  // existed that it is printed on its own this session (`alone`); at the start of session 46 it joins the unseen
  // measure, as session 45 decided before it existed.
  // A regression batch since the end of session 45 (before it joined the measure): the repeated-code report of the
  // session's final review, run on the whole tree and shown to the integrator, named a case file of this batch (with
  // its kind).
  { id: 'batch-55', dir: join(__dirname, 'batch-55', 'cases'), group: 'regression' },
  // Session 45 (brief curator-s45u56), gathered by one curator in parallel with the curator of batch 55, each from its
  // quarter of the coin (first hex digit 4-7 here, 0-3 for batch 55; 8-f is the training set), after batches 51-54 and
  // from none of their repositories, with real bugs as its first aim and then correct look-alikes of the rules' bugs,
  // every case written for the set, labelled before any linter ran on it and checked to share no run of six code lines
  // with any other case under test/ (and the test folders of the session's other branches): a fresh unseen batch
  // measured with today's linter. The integrator decided before any result existed that it is printed on its own this
  // session (`alone`); at the start of session 46 it joins the unseen measure, as session 45 decided before it existed.
  // A regression batch since the end of session 45 (before it joined the measure): the repeated-code report of the
  // session's final review, run on the whole tree and shown to the integrator, named a case file of this batch (with
  // its kind).
  { id: 'batch-56', dir: join(__dirname, 'batch-56', 'cases'), group: 'regression' },
  // Session 46 (brief curator-s46u57), gathered by one curator in parallel with the curator of batch 58, each from its
  // quarter of the coin's unseen side (first hex digit 0-3 here, 4-7 for batch 58; 8-f is the training set), after
  // batches 51-56 and from none of their repositories, with real bugs as its first aim and then correct look-alikes of
  // the rules' bugs, every case written for the set, labelled before any linter ran on it and checked to share no run
  // of six code lines with any other case under test/ (and the test folders of the session's other branches and batch
  // 58's case files): a fresh unseen batch measured with today's linter. The integrator decided before any result
  // existed that it is printed on its own this session (`alone`); at the start of session 47 it joins the unseen
  // measure, as session 46 decided before it existed.
  // A regression batch since the end of session 46: the repeated-code report of the session's final review (run on
  // the whole tree by the review tool and shown to the integrator) named a case file of this batch (with its kind).
  { id: 'batch-57', dir: join(__dirname, 'batch-57', 'cases'), group: 'regression' },
  // Session 46 (brief curator-s46u58), gathered by one curator in parallel with the curator of batch 57, each from its
  // quarter of the coin (first hex digit 4-7 here, 0-3 for batch 57; 8-f is the training set), after batches 55 and 56
  // and from none of their repositories, with real bugs as its first aim and then correct look-alikes of the rules' bugs,
  // every case written for the set, labelled before any linter ran on it and checked to share no run of six code lines
  // with any other case under test/ (and the test folders of the session's other branches and batch 57's case files): a
  // fresh unseen batch measured with today's linter. The integrator decided before any result existed that it is printed
  // on its own this session (`alone`); at the start of session 47 it joins the unseen measure, as session 46 decided
  // before it existed.
  // In the unseen measure since the start of session 47 (decided in session 46 before it existed).
  { id: 'batch-58', dir: join(__dirname, 'batch-58', 'cases'), group: 'unseen' },
  // Session 47 (brief curator-s47u59), gathered by one curator in parallel with the curator of batch 60, each from its
  // quarter of the coin (first hex digit 0-3 here, 4-7 for batch 60; 8-f is the training set), after batches 57 and 58
  // and from none of their repositories, with real bugs as its first aim and then correct look-alikes of the rules' bugs,
  // every case written for the set, labelled before any linter ran on it and checked to share no run of six code lines
  // with any other case under test/ (and the test folders of the session's other branches and batch 60's case files): a
  // fresh unseen batch measured with today's linter. The integrator decided before any result existed that it is printed
  // on its own this session (`alone`); at the start of session 48 it joins the unseen measure, as session 47 decided
  // before it existed.
  // In the unseen measure since the start of session 48 (decided in session 47 before it existed).
  { id: 'batch-59', dir: join(__dirname, 'batch-59', 'cases'), group: 'unseen' },
  // Session 47 (brief curator-s47u60), gathered by one curator in parallel with the curator of batch 59, each from its
  // quarter of the coin's unseen side (first hex digit 4-7 here, 0-3 for batch 59; 8-f is the training set), after
  // batches 57 and 58 and from none of their repositories, with real bugs as its first aim and then correct look-alikes
  // of the rules' bugs, every case written for the set, labelled before any linter ran on it, checked to share no run of
  // six code lines with any other case under test/ (and the test folders of the session's other branches and batch
  // 59's case files) and to appear in no row of the repeated-code report on the change: a fresh unseen batch measured
  // with today's linter. The integrator decided before any result existed that it is printed on its own this session
  // (`alone`); at the start of session 48 it joins the unseen measure, as session 47 decided before it existed.
  // In the unseen measure since the start of session 48 (decided in session 47 before it existed).
  { id: 'batch-60', dir: join(__dirname, 'batch-60', 'cases'), group: 'unseen' },
  // Session 48 (brief curator-s48u61), gathered by one curator in parallel with the curator of batch 62, each from its
  // quarter of the coin's unseen side (first hex digit 0-3 here, 4-7 for batch 62; 8-f is the training set), after
  // batches 59 and 60 and from none of their repositories, with real bugs as its first aim and then correct look-alikes
  // of the rules' bugs, every case written for the set, labelled before any linter ran on it, checked to share no run of
  // six code lines with any other case under test/ (and the test folders of the session's other branches) and to appear
  // in no row of the repeated-code report on the change: a fresh unseen batch measured with today's linter. The
  // integrator decided before any result existed that it is printed on its own this session (`alone`); at the start of
  // session 49 it joins the unseen measure, as session 48 decided before it existed.
  // In the unseen measure since the start of session 49 (decided in session 48 before it existed).
  { id: 'batch-61', dir: join(__dirname, 'batch-61', 'cases'), group: 'unseen' },
  // Session 48 (brief curator-s48u62), gathered by one curator in parallel with the curator of batch 61, each from its
  // quarter of the coin's unseen side (first hex digit 4-7 here, 0-3 for batch 61; 8-f is the training set), after
  // batches 59 and 60 and from none of their repositories, with real bugs as its first aim and then correct look-alikes
  // of the rules' bugs, every case written for the set, labelled before any linter ran on it, checked to share no run of
  // six code lines with any other case under test/ (and the test folders of the session's other branches and batch
  // 61's case files) and to appear in no row of the repeated-code report on the change: a fresh unseen batch measured
  // with today's linter. The integrator decided before any result existed that it is printed on its own this session
  // (`alone`); at the start of session 49 it joins the unseen measure, as session 48 decided before it existed.
  // A regression batch since session 48, before any result of it was read: while merging the session's branches the
  // integrator printed a `git status` that listed this batch's case file names (no code, label or result); a batch
  // whose case names reached a rules author is a regression batch (as batch 50 was in session 43).
  { id: 'batch-62', dir: join(__dirname, 'batch-62', 'cases'), group: 'regression' },
  // Session 49 (brief curator-s49u63), gathered by one curator in parallel with the curator of batch 64, each from its
  // quarter of the coin's unseen side (first hex digit 0-3 here, 4-7 for batch 64; 8-f is the training set), after
  // batches 61 and 62 and from none of their repositories, with real bugs as its first aim and then correct look-alikes
  // of the rules' bugs, every case written for the set, labelled before any linter ran on it, checked to share no run of
  // six code lines with any other case under test/ (and the test folders of the session's other branches) and to appear
  // in no row of the repeated-code report on the change: a fresh unseen batch measured with today's linter. The
  // integrator decided before any result existed that it is printed on its own this session (`alone`); at the start of
  // session 50 it joins the unseen measure, as session 49 decided before it existed.
  // A regression batch since session 49, before any result of it was read past its aggregates: while merging the
  // curators' branches the integrator read this batch's paragraph in the folder's README, which names the kinds of its
  // real bugs case by case (framework, form, domain); a batch whose kinds reached a rules author is a regression batch.
  { id: 'batch-63', dir: join(__dirname, 'batch-63', 'cases'), group: 'regression' },
  // Session 49 (brief curator-s49u64), gathered by one curator in parallel with the curator of batch 63, each from its
  // quarter of the coin's unseen side (first hex digit 4-7 here, 0-3 for batch 63; 8-f is the training set), after
  // batches 61 and 62 and from none of their repositories, with real bugs as its first aim and then correct look-alikes
  // of the rules' bugs, every case written for the set, labelled before any linter ran on it, checked to share no run of
  // six code lines with any other case under test/ (and the test folders of the session's other branches) and to appear
  // in no row of the repeated-code report on the change: a fresh unseen batch measured with today's linter. The
  // integrator decided before any result existed that it is printed on its own this session (`alone`); at the start of
  // session 50 it joins the unseen measure, as session 49 decided before it existed.
  { id: 'batch-64', dir: join(__dirname, 'batch-64', 'cases'), group: 'unseen', alone: true },
];

const GROUP_TITLES: Record<UnseenGroup, string> = {
  regression: 'regression batches',
  unseen: 'unseen',
};

/** Every batch's cases; throws if a case name occurs in two batches (names label results and workspace versions). */
export function loadUnseenBatches(batches: readonly UnseenBatch[] = UNSEEN_BATCHES): Array<{ batch: UnseenBatch; cases: UnseenCase[] }> {
  const loaded = batches.map((batch) => ({ batch, cases: loadUnseen(batch.dir) }));
  const seen = new Map<string, string>();
  for (const { batch, cases } of loaded) {
    for (const c of cases) {
      const other = seen.get(c.name);
      if (other !== undefined) throw new Error(`unseen case name "${c.name}" is used in ${other} and ${batch.id}`);
      seen.set(c.name, batch.id);
    }
  }
  return loaded;
}

/** One group's batches (see `UnseenGroup`) and their run together. */
export interface UnseenGroupRun {
  group: UnseenGroup;
  batches: UnseenBatch[];
  cases: readonly UnseenCase[];
  run: UnseenRun;
  /**
   * The group's first k batches together, for k = 2 .. n, in batch order (empty with fewer than two batches);
   * the last one is the whole group. Each unseen batch is added to the measure in a later session, so every
   * earlier session's combined measure (batches 3 + 4) stays printed beside the newest (3 + 4 + 5).
   */
  prefixes: Array<{ batches: UnseenBatch[]; cases: readonly UnseenCase[]; run: UnseenRun }>;
}

/**
 * Lints every batch once; returns each batch's run, the run of each group's batches together (the regression
 * batches combined, the unseen batch on its own), and the run of all batches together.
 */
export function runUnseenBatches(
  linter: UnseenLinter,
  loaded: ReadonlyArray<{ batch: UnseenBatch; cases: readonly UnseenCase[] }>,
  caseWorkspace?: CaseWorkspace,
): {
  perBatch: Array<{ batch: UnseenBatch; cases: readonly UnseenCase[]; run: UnseenRun }>;
  groups: UnseenGroupRun[];
  combined: UnseenRun;
} {
  const allLinted: LintedCase[] = [];
  const allCrashes: UnseenRun['crashes'] = [];
  type GroupAcc = {
    batches: UnseenBatch[];
    cases: UnseenCase[];
    linted: LintedCase[];
    crashes: UnseenRun['crashes'];
    prefixes: UnseenGroupRun['prefixes'];
  };
  const byGroup = new Map<UnseenGroup, GroupAcc>();
  const perBatch = loaded.map(({ batch, cases }) => {
    const { linted, crashes } = lintCases(linter, cases, caseWorkspace);
    allLinted.push(...linted);
    allCrashes.push(...crashes);
    if (batch.alone === true) return { batch, cases, run: summariseUnseen(linted, crashes) };
    const group = batch.group ?? 'unseen';
    const g = byGroup.get(group) ?? { batches: [], cases: [], linted: [], crashes: [], prefixes: [] };
    g.batches.push(batch);
    g.cases.push(...cases);
    g.linted.push(...linted);
    g.crashes.push(...crashes);
    if (g.batches.length > 1) {
      g.prefixes.push({ batches: [...g.batches], cases: [...g.cases], run: summariseUnseen(g.linted, g.crashes) });
    }
    byGroup.set(group, g);
    return { batch, cases, run: summariseUnseen(linted, crashes) };
  });
  const groups = (['regression', 'unseen'] as const)
    .filter((group) => byGroup.has(group))
    .map((group) => {
      const g = byGroup.get(group)!;
      return { group, batches: g.batches, cases: g.cases, run: summariseUnseen(g.linted, g.crashes), prefixes: g.prefixes };
    });
  return { perBatch, groups, combined: summariseUnseen(allLinted, allCrashes) };
}

/**
 * The aggregate report, one block per group, each titled with the batches it holds: the regression batches
 * combined; the unseen group's batches in order, each on its own, and after every batch but the first the
 * batches so far together (3, 4, 3 + 4, 5, 3 + 4 + 5: each session's combined measure stays comparable).
 * No per-case line, ever.
 */
export function formatUnseenBatchesReport(result: ReturnType<typeof runUnseenBatches>): string {
  const title = (group: UnseenGroup, batches: readonly UnseenBatch[]) => `lint unseen, ${GROUP_TITLES[group]} (${batches.map((b) => b.id).join(' + ')})`;
  const blocks: string[] = [];
  for (const { group, batches, cases, run, prefixes } of result.groups) {
    if (group === 'unseen' && batches.length > 1) {
      const alone = result.perBatch.filter((b) => (b.batch.group ?? 'unseen') === 'unseen' && b.batch.alone !== true);
      alone.forEach((one, i) => {
        blocks.push(formatUnseenReport(one.run, one.cases, title(group, [one.batch])));
        // prefixes[k] holds the first k + 2 batches: print it right after its last batch.
        const upTo = prefixes[i - 1];
        if (upTo !== undefined) blocks.push(formatUnseenReport(upTo.run, upTo.cases, title(group, upTo.batches)));
      });
      continue;
    }
    blocks.push(formatUnseenReport(run, cases, title(group, batches)));
  }
  // Batches reported on their own only (`alone`: not yet part of their group's combined measures), last.
  for (const one of result.perBatch.filter((b) => b.batch.alone === true)) {
    blocks.push(formatUnseenReport(one.run, one.cases, title(one.batch.group ?? 'unseen', [one.batch])));
  }
  return blocks.join('\n\n');
}
