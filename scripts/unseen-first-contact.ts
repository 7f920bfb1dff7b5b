// The linter's first contact with each unseen batch: from each committed baseline
// (test/lint-unseen/results/*-batch-N-baseline.txt, written the moment batch N arrived, before any rule was changed
// with it in view), the overall line of batch N alone, and the sums over every batch and over the batches since a
// given one. Aggregates only, as the baselines themselves: it names no case.
//
//   npx tsx scripts/unseen-first-contact.ts [--since N]      (default: the sums from batch 16 on as well)
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const RESULTS = join(__dirname, '..', 'test', 'lint-unseen', 'results');

export interface FirstContact {
  batch: number;
  file: string;
  tp: number;
  fp: number;
  fn: number;
  cases: number;
}

/**
 * The block of a baseline that reports batch `n` on its own: a header `lint unseen, batch-N: ...` or
 * `lint unseen, unseen (batch-N): ...` (no `+`, no other batch), followed by its `overall TP FP FN ...` row.
 */
export function firstContactOf(n: number, text: string, file: string): FirstContact | undefined {
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const head = /^lint unseen, (?:unseen \()?batch-(\d+)\)?: (\d+) cases/.exec(lines[i]);
    if (head === null || Number(head[1]) !== n) continue;
    for (let j = i + 1; j < lines.length && !lines[j].startsWith('lint unseen'); j++) {
      const row = /^overall\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(lines[j]);
      if (row !== null) return { batch: n, file, tp: Number(row[1]), fp: Number(row[2]), fn: Number(row[3]), cases: Number(head[2]) };
    }
  }
  return undefined;
}

function ratio(a: number, b: number): string {
  return b === 0 ? '    —' : (a / b).toFixed(3);
}

function sumLine(label: string, rows: readonly FirstContact[]): string {
  const tp = rows.reduce((s, r) => s + r.tp, 0);
  const fp = rows.reduce((s, r) => s + r.fp, 0);
  const fn = rows.reduce((s, r) => s + r.fn, 0);
  const cases = rows.reduce((s, r) => s + r.cases, 0);
  return `${label.padEnd(22)} ${String(cases).padStart(5)} ${String(tp).padStart(4)} ${String(fp).padStart(4)} ${String(fn).padStart(4)}   ${ratio(tp, tp + fp)}   ${ratio(tp, tp + fn)}`;
}

function main(): void {
  const argv = process.argv.slice(2);
  let since = 16;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--since' && /^\d+$/.test(argv[i + 1] ?? '')) since = Number(argv[++i]);
    else throw new Error(`unknown argument ${argv[i]} (expected --since N)`);
  }
  const rows: FirstContact[] = [];
  for (const file of readdirSync(RESULTS).sort()) {
    const m = /-batch-(\d+)-baseline\.txt$/.exec(file);
    if (m === null) continue;
    const row = firstContactOf(Number(m[1]), readFileSync(join(RESULTS, file), 'utf8'), file);
    if (row === undefined) throw new Error(`${file}: no block reporting batch ${m[1]} alone`);
    rows.push(row);
  }
  rows.sort((a, b) => a.batch - b.batch);
  console.log('first contact of each unseen batch (its baseline, batch alone)');
  console.log(`${'batch'.padEnd(22)} cases   TP   FP   FN   precision recall`);
  for (const r of rows) console.log(sumLine(`batch-${r.batch} (${r.file.slice(0, 10)})`, [r]));
  console.log(sumLine('all batches', rows));
  console.log(
    sumLine(
      `batches ${since} on`,
      rows.filter((r) => r.batch >= since),
    ),
  );
}

if (require.main === module) main();
