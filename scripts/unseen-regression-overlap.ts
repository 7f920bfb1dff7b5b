// How much of the unseen group's code the rules' authors may have read by reading the regression batches (which they
// read case by case since session 36): for each run length, how many unseen-group cases share a run of that many
// identical code lines (stripped, blank lines and comments left out) with any regression-batch case. Counts only:
// it never names a case, so the integrator may run it.
//
//   npx tsx scripts/unseen-regression-overlap.ts [RUN_LENGTH ...]     (default 6 10 15 25)
import { UNSEEN_BATCHES, loadUnseen } from '../test/lint-unseen/unseen';

/** A case's code lines: stripped, without blank lines and comment lines, its files in path order. */
function codeLines(files: ReadonlyArray<{ text: string }>): string[] {
  return files.flatMap((f) =>
    f.text
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l !== '' && !l.startsWith('#')),
  );
}

/** Every run of `k` consecutive lines, joined. */
function runs(lines: readonly string[], k: number): string[] {
  const out: string[] = [];
  for (let i = 0; i + k <= lines.length; i++) out.push(lines.slice(i, i + k).join('\n'));
  return out;
}

function main(): void {
  const lengths = process.argv.slice(2).map(Number);
  const ks = lengths.length > 0 ? lengths : [6, 10, 15, 25];
  if (ks.some((k) => !Number.isInteger(k) || k < 2)) throw new Error('run lengths must be whole numbers >= 2');
  const group = (g: 'regression' | 'unseen') =>
    UNSEEN_BATCHES.filter((b) => (b.group ?? 'unseen') === g).flatMap((b) => loadUnseen(b.dir).map((c) => codeLines(c.files)));
  const regression = group('regression');
  const unseen = group('unseen');
  for (const k of ks) {
    const seen = new Set(regression.flatMap((lines) => runs(lines, k)));
    const shared = unseen.filter((lines) => runs(lines, k).some((r) => seen.has(r))).length;
    console.log(`unseen-group cases sharing a run of ${k}+ identical code lines with a regression-batch case: ${shared} of ${unseen.length}`);
  }
}

main();
