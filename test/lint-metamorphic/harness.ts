// Metamorphic testing of the linter: every case of the readable sets (test/lint-corpus, test/lint-holdout,
// test/lint-train; never test/lint-unseen) is rewritten by each semantics-preserving rewrite that applies
// (rewrites.ts), the original and the rewritten case are linted (each as a workspace of its own), the rewritten
// findings are mapped back to the original lines (edits.ts), and every finding is kept, lost or gained. A lost
// finding is a recall weakness (the rule saw a form, not the meaning), a gained one a precision weakness, unless
// it is a real bug the original missed (the case's labels say which).
import { join } from 'node:path';
import { readCaseFiles } from '../lint-corpus/load';
import { parseExpectations } from '../lint-corpus/score';
import { redactSource } from '../lint-holdout/holdout';
import { TRAIN_BATCHES, trainCasesDir } from '../lint-train/train';
import { identity, place, type MappedFile, type Place } from './edits';
import { applyRewrite, parseViews, REWRITES, type Rewrite, type SourceFile } from './rewrites';
import type { PyParser } from './syntax';

export interface MetaCase {
  /** `corpus`, `holdout` or `train/<batch>`. */
  set: string;
  /** The case's name (a file name, or a folder name with `/`). */
  name: string;
  /** Redacted files (headers blanked, `# expect:` comments removed; lines unchanged), workspace-relative paths. */
  files: SourceFile[];
  /** `path|line|code` of every expectation. */
  expected: Set<string>;
  label: 'buggy' | 'correct';
  /** The rest of the workspace (repos mode): files read from disk, neither rewritten nor linted. */
  context?: CaseContext;
}

/** Where the rest of a case's workspace is read from: a repository's directory and its `.py` paths. */
export interface CaseContext {
  root: string;
  pythonPaths: readonly string[];
}

/** The linter as the harness calls it: one workspace per linted case. */
export interface WorkspaceLinter {
  lintFiles(
    files: ReadonlyArray<{ path: string; text: string }>,
    context?: CaseContext,
  ): Promise<Array<{ path: string; line: number; code: string; message: string }>>;
}

/** Header keys of the corpus, holdout and training formats (the training set's adds `class` and `source`). */
const HEADER_KEYS = new Set(['case', 'modelled-on', 'label', 'class', 'pattern', 'why', 'looks-like', 'source']);

/** Blanks the leading header block (each `# key: ...` line becomes `#`), keeping every line where it was. */
export function blankHeader(text: string): string {
  if (!/^#\s*case:/.test(text)) return text;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const m = /^#\s*([a-z-]+):/.exec(lines[i]);
    if (!m || !HEADER_KEYS.has(m[1])) break;
    lines[i] = '#';
  }
  return lines.join('\n');
}

/** Reads the cases of one cases folder (notebooks skipped: they are not rewritten). */
export function readMetaCases(set: string, dir: string): { cases: MetaCase[]; skipped: string[] } {
  const cases: MetaCase[] = [];
  const skipped: string[] = [];
  for (const cf of readCaseFiles(dir)) {
    if (cf.file.endsWith('.ipynb')) {
      skipped.push(`${set}/${cf.file}`);
      continue;
    }
    const raw = cf.files ?? [{ path: cf.file, text: cf.text }];
    const expected = new Set<string>();
    for (const f of raw) for (const e of parseExpectations(f.text, null, `${set}/${cf.file}${f.path}`, f.path)) expected.add(`${f.path}|${e.line}|${e.code}`);
    const files = raw.map((f) => ({ path: f.path, text: redactSource(blankHeader(f.text), false) }));
    cases.push({ set, name: cf.file, files, expected, label: expected.size > 0 ? 'buggy' : 'correct' });
  }
  return { cases, skipped };
}

export const CORPUS_CASES = join(__dirname, '..', 'lint-corpus', 'cases');
export const HOLDOUT_CASES = join(__dirname, '..', 'lint-holdout', 'cases');

/** Every case of the corpus, the holdout and the training batches. */
export function loadMetaCases(): { cases: MetaCase[]; skipped: string[] } {
  const parts = [readMetaCases('corpus', CORPUS_CASES), readMetaCases('holdout', HOLDOUT_CASES)];
  for (const b of TRAIN_BATCHES) {
    const dir = trainCasesDir(b);
    if (dir !== null) parts.push(readMetaCases(`train/${b.id}`, dir));
  }
  return { cases: parts.flatMap((p) => p.cases), skipped: parts.flatMap((p) => p.skipped) };
}

export interface MetaFinding {
  set: string;
  case: string;
  rewrite: string;
  code: string;
  /** The original place (`path|line`). */
  at: Place;
  /** For a lost finding: whether the original finding met an expectation (tp) or not (fp); for a gained one: whether it meets one the original missed (tp), meets one the original also met (dup), or none (fp). */
  verdict: 'tp' | 'fp' | 'dup';
  message: string;
}

export interface RewriteTally {
  applied: number;
  unsafe: number;
  kept: number;
  /** Of the kept, those found a line or two away (MOVE_LINES). */
  moved: number;
  lost: number;
  gained: number;
}

export interface MetaRun {
  cases: number;
  rewrites: readonly Rewrite[];
  perRewrite: Map<string, RewriteTally>;
  perRule: Map<string, { kept: number; lost: number; gained: number }>;
  lost: MetaFinding[];
  gained: MetaFinding[];
  unsafe: Array<{ case: string; rewrite: string; why: string }>;
  /** Original findings over all cases (each compared once per applied rewrite). */
  originalFindings: number;
}

interface Located {
  code: string;
  places: ReadonlySet<Place>;
  message: string;
}

async function lintMapped(linter: WorkspaceLinter, files: readonly MappedFile[], context?: CaseContext): Promise<Located[]> {
  const byPath = new Map(files.map((f) => [f.path, f]));
  return (await linter.lintFiles(files, context)).map((f) => ({
    code: f.code,
    message: f.message,
    places: byPath.get(f.path)?.lines[f.line - 1] ?? new Set([place(f.path, f.line)]),
  }));
}

/** How far a finding may move (in lines of the same file) and still be the same finding. */
export const MOVE_LINES = 2;

function splitPlace(p: Place): [string, number] {
  const bar = p.lastIndexOf('|');
  return [p.slice(0, bar), Number(p.slice(bar + 1))];
}

/** Matches the rewritten findings to the original ones (same rule, original place in the rewritten line's places). */
export function compareFindings(
  original: ReadonlyArray<{ code: string; at: Place; message: string }>,
  rewritten: readonly Located[],
): { kept: typeof original; lost: typeof original; gained: Located[]; moved: typeof original } {
  const used = new Set<number>();
  const kept: Array<(typeof original)[number]> = [];
  const lost: Array<(typeof original)[number]> = [];
  for (const o of original) {
    const i = rewritten.findIndex((r, j) => !used.has(j) && r.code === o.code && r.places.has(o.at));
    if (i < 0) lost.push(o);
    else {
      used.add(i);
      kept.push(o);
    }
  }
  // a rewritten finding that maps onto an original finding's place already matched (two findings from one) is not new
  let gained = rewritten.filter((r, j) => !used.has(j) && !original.some((o) => o.code === r.code && r.places.has(o.at)));
  // A finding that moved by a line or two within its file (the range of a multi-line statement now starts on another
  // of its lines) is the same finding: a lost and a gained one of the same rule, nearest first, are paired as moved.
  const moved: Array<(typeof original)[number]> = [];
  const stillLost: Array<(typeof original)[number]> = [];
  for (const o of lost) {
    const [path, line] = splitPlace(o.at);
    const i = gained.findIndex(
      (g) =>
        g.code === o.code &&
        [...g.places].some((p) => {
          const [gp, gl] = splitPlace(p);
          return gp === path && Math.abs(gl - line) <= MOVE_LINES;
        }),
    );
    if (i < 0) stillLost.push(o);
    else {
      moved.push(o);
      gained = gained.filter((_, j) => j !== i);
    }
  }
  return { kept: [...kept, ...moved], lost: stillLost, gained, moved };
}

export async function runMetamorphic(
  cases: readonly MetaCase[],
  parser: PyParser,
  linter: WorkspaceLinter,
  rewrites: readonly Rewrite[] = REWRITES,
): Promise<MetaRun> {
  const run: MetaRun = {
    cases: cases.length,
    rewrites,
    perRewrite: new Map(rewrites.map((r) => [r.name, { applied: 0, unsafe: 0, kept: 0, moved: 0, lost: 0, gained: 0 }])),
    perRule: new Map(),
    lost: [],
    gained: [],
    unsafe: [],
    originalFindings: 0,
  };
  const rule = (code: string) => {
    let r = run.perRule.get(code);
    if (!r) run.perRule.set(code, (r = { kept: 0, lost: 0, gained: 0 }));
    return r;
  };
  for (const c of cases) {
    const original = (
      await lintMapped(
        linter,
        c.files.map((f) => identity(f.path, f.text)),
        c.context,
      )
    ).map((f) => ({ code: f.code, at: [...f.places][0] ?? '', message: f.message }));
    run.originalFindings += original.length;
    const met = new Set(original.map((o) => `${o.at}|${o.code}`).filter((k) => c.expected.has(k)));
    // repos mode: the case's files parsed once for every rewrite (large cases)
    const views = c.context === undefined ? undefined : parseViews(c.files, parser);
    for (const rw of rewrites) {
      const tally = run.perRewrite.get(rw.name)!;
      const outcome = applyRewrite(rw, c.files, parser, views);
      if (outcome.kind === 'not-applicable') continue;
      if (outcome.kind === 'unsafe') {
        tally.unsafe++;
        run.unsafe.push({ case: `${c.set}/${c.name}`, rewrite: rw.name, why: outcome.why });
        continue;
      }
      tally.applied++;
      const { kept, lost, gained, moved } = compareFindings(original, await lintMapped(linter, outcome.files, c.context));
      tally.kept += kept.length;
      tally.moved += moved.length;
      tally.lost += lost.length;
      tally.gained += gained.length;
      for (const k of kept) rule(k.code).kept++;
      for (const l of lost) {
        rule(l.code).lost++;
        run.lost.push({
          set: c.set,
          case: c.name,
          rewrite: rw.name,
          code: l.code,
          at: l.at,
          verdict: c.expected.has(`${l.at}|${l.code}`) ? 'tp' : 'fp',
          message: l.message,
        });
      }
      for (const g of gained) {
        rule(g.code).gained++;
        const places = [...g.places].sort();
        const hit = places.find((p) => c.expected.has(`${p}|${g.code}`));
        const verdict = hit === undefined ? 'fp' : met.has(`${hit}|${g.code}`) ? 'dup' : 'tp';
        run.gained.push({ set: c.set, case: c.name, rewrite: rw.name, code: g.code, at: hit ?? places[0] ?? '(new line)', verdict, message: g.message });
      }
    }
  }
  return run;
}

function pad(s: string | number, n: number): string {
  return String(s).padStart(n);
}

function fmtPlace(p: Place): string {
  const bar = p.lastIndexOf('|');
  return bar < 0 ? p : `${p.slice(0, bar)}:${p.slice(bar + 1)}`;
}

/** The tables (per rewrite, per rule) and every lost and gained finding, in a stable order. */
export function formatMetaReport(run: MetaRun, header = ''): string {
  const lines: string[] = [];
  if (header) lines.push(header, '');
  lines.push(`cases: ${run.cases}; original findings: ${run.originalFindings}`, '');
  lines.push('| rewrite | cases applied | unsafe (skipped) | kept | of which moved | lost | gained |', '| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
  const total = { applied: 0, unsafe: 0, kept: 0, moved: 0, lost: 0, gained: 0 };
  for (const rw of run.rewrites) {
    const t = run.perRewrite.get(rw.name)!;
    lines.push(`| ${rw.name} | ${t.applied} | ${t.unsafe} | ${t.kept} | ${t.moved} | ${t.lost} | ${t.gained} |`);
    for (const k of Object.keys(total) as Array<keyof typeof total>) total[k] += t[k];
  }
  lines.push(`| all | ${total.applied} | ${total.unsafe} | ${total.kept} | ${total.moved} | ${total.lost} | ${total.gained} |`, '');
  lines.push('| rule | kept | lost | gained |', '| --- | ---: | ---: | ---: |');
  for (const code of [...run.perRule.keys()].sort()) {
    const r = run.perRule.get(code)!;
    lines.push(`| ${code} | ${r.kept} | ${r.lost} | ${r.gained} |`);
  }
  const sortKey = (f: MetaFinding) => `${f.rewrite}\u0000${f.set}\u0000${f.case}\u0000${f.at}\u0000${f.code}`;
  const list = (title: string, tag: string, fs: MetaFinding[]): void => {
    lines.push('', `${title}: ${fs.length}`);
    for (const f of [...fs].sort((a, b) => (sortKey(a) < sortKey(b) ? -1 : sortKey(a) > sortKey(b) ? 1 : 0))) {
      lines.push(`  ${tag} ${pad(f.rewrite, 14)}  ${f.code}  ${f.set}/${f.case}  ${fmtPlace(f.at)}  [${f.verdict}]  ${f.message}`);
    }
  };
  list('lost findings (verdict: tp = the original met a label, fp = it did not)', 'LOST  ', run.lost);
  list('gained findings (verdict: tp = meets a label the original missed, dup = a label the original met, fp = no label)', 'GAINED', run.gained);
  lines.push('', `unsafe (rewritten case did not parse; skipped): ${run.unsafe.length}`);
  for (const u of run.unsafe) lines.push(`  ${u.rewrite}  ${u.case}  ${u.why}`);
  return lines.join('\n');
}
