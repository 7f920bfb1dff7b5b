// The training set (test/lint-train, see its README): real attention code labelled the same way as the unseen set
// (test/lint-unseen), split from it by source repository with a fixed coin, and meant to be read: rule engineers
// read every case and every miss and change rules from them. It is a regression set. This module reuses the unseen
// set's loader, header checks, redaction, linter run and aggregate table (test/lint-unseen/unseen.ts) and adds what
// the unseen set must never have: a list of every miss and every false finding, with its case, file and line.
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import {
  formatUnseenReport,
  lintCases,
  loadUnseen,
  summariseUnseen,
  type CaseWorkspace,
  type LintedCase,
  type UnseenCase,
  type UnseenLinter,
  type UnseenRun,
  UNSEEN_BATCHES,
} from '../lint-unseen/unseen';

export const TRAIN_DIR = __dirname;

/** A batch of the training set: one folder per curator (`a`, `b`, ...). */
export interface TrainBatch {
  /** `a`, `b`, ... */
  id: string;
  /** The batch folder (its README and its cases, in `cases/` or next to the README). */
  dir: string;
  /**
   * What every case name of the batch starts with, before `-NN-<kind>`: `t8a` for session 26's batch a (the default,
   * `t8<id>`), `t10c` for session 27's batch c. The session number in the prefix keeps names unique across sessions.
   */
  namePrefix?: string;
}

/** The batches the report and the unit test read; a batch whose folder is missing is empty. */
export const TRAIN_BATCHES: readonly TrainBatch[] = [
  { id: 'a', dir: join(__dirname, 'a') },
  { id: 'b', dir: join(__dirname, 'b') },
  { id: 'c', dir: join(__dirname, 'c'), namePrefix: 't10c' },
  { id: 'd', dir: join(__dirname, 'd'), namePrefix: 't10d' },
  { id: 'e', dir: join(__dirname, 'e'), namePrefix: 't12e' },
  { id: 'f', dir: join(__dirname, 'f'), namePrefix: 't13f' },
  { id: 'g', dir: join(__dirname, 'g'), namePrefix: 't14g' },
  { id: 'h', dir: join(__dirname, 'h'), namePrefix: 't15h' },
  { id: 'i', dir: join(__dirname, 'i'), namePrefix: 't16i' },
  // Session 29, curator B (after curator A's `i`).
  { id: 'j', dir: join(__dirname, 'j'), namePrefix: 't17j' },
  // Session 30, curator A (curator B's `l` follows).
  { id: 'k', dir: join(__dirname, 'k'), namePrefix: 't18k' },
  // Session 30, curator B (after curator A's `k`).
  { id: 'l', dir: join(__dirname, 'l'), namePrefix: 't19l' },
  // Session 31, curator A (curator B's `n` follows).
  { id: 'm', dir: join(__dirname, 'm'), namePrefix: 't20m' },
  // Session 31, curator B (after curator A's `m`).
  { id: 'n', dir: join(__dirname, 'n'), namePrefix: 't21n' },
  // Session 32, curator A (curator B's `p` follows).
  { id: 'o', dir: join(__dirname, 'o'), namePrefix: 't22o' },
  // Session 32, curator B (after curator A's `o`).
  { id: 'p', dir: join(__dirname, 'p'), namePrefix: 't23p' },
  // Session 32, curator C (in parallel with curators D and E).
  { id: 'q', dir: join(__dirname, 'q'), namePrefix: 't24q' },
  // Session 32, curator D (in parallel with curators C and E).
  { id: 'r', dir: join(__dirname, 'r'), namePrefix: 't25r' },
  // Session 32, curator E (in parallel with curators C and D).
  { id: 's', dir: join(__dirname, 's'), namePrefix: 't26s' },
  // Session 34, curator T (masks and caches, correct code first; in parallel with curator U's batch).
  { id: 't', dir: join(__dirname, 't'), namePrefix: 't27t' },
  // Session 34, curator U (scales and axes, correct code first; in parallel with curator T's masks and caches).
  { id: 'u', dir: join(__dirname, 'u'), namePrefix: 't28u' },
  // Session 34, curator V (scales and softmax axes in under-represented code; in parallel with curator W's masks and caches).
  { id: 'v', dir: join(__dirname, 'v'), namePrefix: 't29v' },
  // Session 34, curator W (masks and caches in decoders with caches, speech, translators and collate-built masks,
  // correct code first; in parallel with curator V's scales and axes).
  { id: 'w', dir: join(__dirname, 'w'), namePrefix: 't30w' },
  // Session 35, the curator of unseen batch 27 (its training-side twin: the 8-f half of the coin).
  { id: 'x', dir: join(__dirname, 'x'), namePrefix: 't31x' },
  // Session 35, the curator of unseen batch 28 (its training-side twin: the 8-f half of the coin).
  { id: 'y', dir: join(__dirname, 'y'), namePrefix: 't32y' },
  // Session 36, curator s36z (a training batch on its own: the 8-f half of the coin, no unseen twin).
  { id: 'z', dir: join(__dirname, 'z'), namePrefix: 't33z' },
  // Session 36, curator s36aa (a training batch on its own after batch z: the 8-f half of the coin, no unseen twin).
  { id: 'aa', dir: join(__dirname, 'aa'), namePrefix: 't34aa' },
  // Session 36, curator s36bb (a training batch on its own after batches z and aa: the 8-f half of the coin, no unseen twin).
  { id: 'bb', dir: join(__dirname, 'bb'), namePrefix: 't35bb' },
  // Session 43, rule engineer eng-cut-s43b (hand cuts of fresh repositories shaped like the unseen measure's cases:
  // the 8-b quarter of the coin; in parallel with eng-cut-s43c's batch dd).
  { id: 'cc', dir: join(__dirname, 'cc'), namePrefix: 't43cc' },
  // Session 43, eng-cut-s43c (a training batch cut the way the unseen cases are cut: the 8-f half of the coin, c-f).
  { id: 'dd', dir: join(__dirname, 'dd'), namePrefix: 't43dd' },
  // Session 44, rule engineer eng-s44b (hand-cut folder cases of fresh repositories, the 8-b quarter of the coin; in
  // parallel with eng-s44c's batch ff).
  { id: 'ee', dir: join(__dirname, 'ee'), namePrefix: 't44ee' },
  // Session 44, rule engineer eng-s44c (hand-cut folder cases from fresh repositories, the c-f quarter of the coin;
  // batch ee of eng-s44b goes before it).
  { id: 'ff', dir: join(__dirname, 'ff'), namePrefix: 't44ff' },
];

/** Entries of a batch folder that are not cases when the cases sit next to the README. */
function notACase(entry: string): boolean {
  return /\.(md|txt|json)$/i.test(entry) || entry.startsWith('.');
}

/** Where a batch's cases are: `<batch>/cases/` when it exists, else the batch folder itself; null when there is none. */
export function trainCasesDir(batch: TrainBatch): string | null {
  if (!existsSync(batch.dir) || !statSync(batch.dir).isDirectory()) return null;
  const cases = join(batch.dir, 'cases');
  return existsSync(cases) && statSync(cases).isDirectory() ? cases : batch.dir;
}

/** The name a case of batch `id` must have: `<prefix>-NN-<kind>`, the prefix `t8<id>` unless the batch names another. */
export function trainCaseNamePattern(id: string, namePrefix = `t8${id}`): RegExp {
  return new RegExp(`^${namePrefix}-\\d\\d-(softmax|mask|scale|causal|transpose|fill|postmask|clean)$`);
}

/** Every batch's cases (a missing folder is an empty batch); throws on a malformed case or a case name used twice. */
export function loadTrainBatches(batches: readonly TrainBatch[] = TRAIN_BATCHES): Array<{ batch: TrainBatch; cases: UnseenCase[] }> {
  const loaded = batches.map((batch) => {
    const dir = trainCasesDir(batch);
    const cases = dir === null ? [] : loadUnseen(dir, 'training', dir === batch.dir ? notACase : () => false);
    return { batch, cases };
  });
  const seen = new Map<string, string>();
  for (const { batch, cases } of loaded) {
    for (const c of cases) {
      const other = seen.get(c.name);
      if (other !== undefined) throw new Error(`training case name "${c.name}" is used in ${other} and ${batch.id}`);
      seen.set(c.name, batch.id);
    }
  }
  return loaded;
}

/** One miss (an expectation no finding met) or one false finding (a finding no expectation asked for). */
export interface TrainDiscrepancy {
  kind: 'miss' | 'false';
  case: string;
  /** Path inside the case (`model.py`, `layers/attention.py`). */
  file: string;
  line: number;
  /** The rule the label expects (a miss) or the rule the linter reported (a false finding). */
  code: string;
  /** The finding's message (false findings only). */
  message?: string;
  /** The case's class and label, to read the discrepancy against. */
  cls: UnseenCase['header']['cls'];
}

export interface TrainRun {
  perBatch: Array<{ batch: TrainBatch; cases: readonly UnseenCase[]; run: UnseenRun }>;
  /** All batches together. */
  cases: readonly UnseenCase[];
  combined: UnseenRun;
  /** Every miss and false finding of every batch, in case and line order. */
  discrepancies: TrainDiscrepancy[];
}

/** The discrepancies of linted cases, in case, file and line order. */
export function trainDiscrepancies(linted: readonly LintedCase[]): TrainDiscrepancy[] {
  const out: TrainDiscrepancy[] = [];
  for (const { c, results } of linted) {
    for (const r of results) {
      const file = r.file.slice(c.name.length + 1);
      for (const e of r.fn) out.push({ kind: 'miss', case: c.name, file, line: e.line, code: e.code, cls: c.header.cls });
      for (const f of r.fp) {
        out.push({ kind: 'false', case: c.name, file, line: f.line, code: f.code, message: f.message, cls: c.header.cls });
      }
    }
  }
  return out.sort((a, b) => a.case.localeCompare(b.case) || a.file.localeCompare(b.file) || a.line - b.line || a.code.localeCompare(b.code));
}

/** Lints every batch once (each case a workspace of its own) and scores it; collects every discrepancy. */
export function runTrain(
  linter: UnseenLinter,
  loaded: ReadonlyArray<{ batch: TrainBatch; cases: readonly UnseenCase[] }>,
  caseWorkspace?: CaseWorkspace,
): TrainRun {
  const allLinted: LintedCase[] = [];
  const allCrashes: UnseenRun['crashes'] = [];
  const perBatch = loaded.map(({ batch, cases }) => {
    const { linted, crashes } = lintCases(linter, cases, caseWorkspace);
    allLinted.push(...linted);
    allCrashes.push(...crashes);
    return { batch, cases, run: summariseUnseen(linted, crashes) };
  });
  return {
    perBatch,
    cases: loaded.flatMap((l) => l.cases),
    combined: summariseUnseen(allLinted, allCrashes),
    discrepancies: trainDiscrepancies(allLinted),
  };
}

/**
 * The training report: the aggregate table of each non-empty batch and of all batches together (the unseen set's
 * table), then every miss and false finding with its case, file, line and rule (only those of `rule` when given),
 * then the files on which the linter threw.
 */
export function formatTrainReport(result: TrainRun, options: { rule?: string } = {}): string {
  const blocks: string[] = [];
  const nonEmpty = result.perBatch.filter((b) => b.cases.length > 0);
  for (const b of nonEmpty) blocks.push(formatUnseenReport(b.run, b.cases, `lint train, batch ${b.batch.id}`));
  if (nonEmpty.length !== 1) {
    blocks.push(formatUnseenReport(result.combined, result.cases, `lint train, batches ${result.perBatch.map((b) => b.batch.id).join(' + ')}`));
  }
  const rows = result.discrepancies.filter((d) => options.rule === undefined || d.code === options.rule);
  const misses = rows.filter((d) => d.kind === 'miss');
  const falses = rows.filter((d) => d.kind === 'false');
  const scope = options.rule === undefined ? '' : ` (${options.rule} only)`;
  const lines = [`misses${scope}: ${misses.length}`];
  for (const d of misses) lines.push(`  MISS   ${d.case}  ${d.file}:${d.line}  expected ${d.code}  [${d.cls}]`);
  lines.push(`false findings${scope}: ${falses.length}`);
  for (const d of falses) lines.push(`  FALSE  ${d.case}  ${d.file}:${d.line}  reported ${d.code}  [${d.cls}]${d.message ? `  ${d.message}` : ''}`);
  if (result.combined.crashes.length > 0) {
    lines.push(`linter threw on ${result.combined.crashes.length} file(s):`);
    for (const c of result.combined.crashes) lines.push(`  THREW  ${c.file}  ${c.message}`);
  }
  blocks.push(lines.join('\n'));
  return blocks.join('\n\n');
}

/**
 * The unseen set's REGRESSION batches (spent, see test/lint-unseen/README.md) as training batches: since session 36
 * rule authors read them case by case (scripts/lint-regression-report.ts). Their cases folders, or, with `copy`, the
 * folders `copy/batch-N/` of a copy of each (so that a rules author reads a folder that holds no unseen case). The
 * unseen group's batches are never among them.
 */
export function regressionBatchesAsTraining(copy?: string): TrainBatch[] {
  return UNSEEN_BATCHES.filter((b) => b.group === 'regression').map((b) => ({
    id: b.id,
    dir: copy === undefined ? b.dir : join(copy, b.id),
  }));
}
