// Sums the per-batch aggregate rows of a saved `npm run lint:unseen` report over a chosen set of unseen batches,
// so a measure that leaves out batches someone has partly seen is computed from the report, not by hand:
//   npx tsx test/lint-unseen/subset.ts results/<file>.txt --without batch-17,batch-18
// It reads only the overall rows each batch's own section prints (TP, FP, FN), never a case.
import { readFileSync } from 'node:fs';

export interface BatchTotals {
  readonly tp: number;
  readonly fp: number;
  readonly fn: number;
}

/** The overall TP/FP/FN row of each batch reported alone ("lint unseen, unseen (batch-N): ..."). */
export function perBatchTotals(report: string): Map<string, BatchTotals> {
  const out = new Map<string, BatchTotals>();
  let current: string | undefined;
  for (const line of report.split('\n')) {
    const head = /^lint unseen, unseen \((batch-\d+)\):/.exec(line);
    if (head) {
      current = head[1];
      continue;
    }
    if (line.startsWith('lint unseen')) current = undefined;
    const row = /^overall\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(line);
    if (row && current) {
      out.set(current, { tp: Number(row[1]), fp: Number(row[2]), fn: Number(row[3]) });
      current = undefined;
    }
  }
  return out;
}

/** The summed totals of every batch in `totals` but those in `without`. */
export function sumWithout(totals: Map<string, BatchTotals>, without: ReadonlySet<string>): BatchTotals & { batches: string[] } {
  const batches = [...totals.keys()].filter((b) => !without.has(b));
  const sum = (k: keyof BatchTotals): number => batches.reduce((s, b) => s + totals.get(b)![k], 0);
  return { batches, tp: sum('tp'), fp: sum('fp'), fn: sum('fn') };
}

if (require.main === module) {
  const [file, flag, list] = process.argv.slice(2);
  if (!file) throw new Error('usage: subset.ts REPORT [--without batch-a,batch-b]');
  const without = new Set(flag === '--without' && list ? list.split(',') : []);
  const s = sumWithout(perBatchTotals(readFileSync(file, 'utf8')), without);
  const p = s.tp + s.fp ? (s.tp / (s.tp + s.fp)).toFixed(3) : '—';
  const r = s.tp + s.fn ? (s.tp / (s.tp + s.fn)).toFixed(3) : '—';
  console.log(`${s.batches.join(' + ')}: TP ${s.tp}  FP ${s.fp}  FN ${s.fn}  precision ${p}  recall ${r}`);
}
