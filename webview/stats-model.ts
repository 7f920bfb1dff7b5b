// The per-row statistics table under the debugger's matrices, as plain data: which columns, and for each
// query row its cells and whether a cell shows a problem. Pure; the view only renders it.
import type { AttentionTrace } from '../src/engine/trace';
import { fmt, tokenLabel } from './format';
import { t } from './l10n';
import { itemAt } from './checked';

export type CellFlag = 'bad' | 'warn' | undefined;

export interface StatsCell {
  text: string;
  flag?: CellFlag;
  /** A longer explanation (tooltip). */
  title?: string;
}

export interface StatsColumn {
  id: 'row' | 'token' | 'sum' | 'entropy' | 'max' | 'variance' | 'padding' | 'future';
  header: string;
  title: string;
}

export interface StatsRow {
  index: number;
  cells: StatsCell[];
  /** True when any cell is flagged. */
  flagged: boolean;
}

export interface StatsTable {
  columns: StatsColumn[];
  rows: StatsRow[];
  /** One line about the whole head (variance of the scores against d_k). */
  summary: string;
  summaryFlag: CellFlag;
}

const NORMALISATION_TOLERANCE = 1e-3;
const VARIANCE_THRESHOLD = 4;

export function buildStatsTable(trace: AttentionTrace, tokenDisplays: readonly string[]): StatsTable {
  const s = trace.stats;
  const hasPadding = trace.paddedKeys.length > 0;
  const hasCausal = trace.causalIntent !== null && trace.causalIntent !== undefined;
  const columns: StatsColumn[] = [
    { id: 'row', header: t('#'), title: t('Query row') },
    { id: 'token', header: t('Query'), title: t('Query token') },
    { id: 'sum', header: t('Row sum'), title: t('Σ_j weight[i, j]: 1 when the softmax ran over the keys (dim -1).') },
    {
      id: 'entropy',
      header: t('Entropy / ln n'),
      title: t('Entropy of the row in nats, against ln(n) for its n visible keys: the largest entropy a row can have (uniform attention).'),
    },
    { id: 'max', header: t('Max weight → key'), title: t('The largest weight of the row and the key it goes to; near 1 means one-hot (saturated).') },
    {
      id: 'variance',
      header: t('Score var / d_k'),
      title: t(
        'Variance of the raw scores q·k of the row, against d_k (about d_k for unit-variance q and k); after the scale, the variance of the scaled scores.',
      ),
    },
  ];
  if (hasPadding) columns.push({ id: 'padding', header: t('On padding'), title: t('Weight the row gives to padding keys.') });
  if (hasCausal) columns.push({ id: 'future', header: t('On future'), title: t('Weight the row gives to keys after its own position.') });

  const nanRows = new Set(s.nanRows);
  const saturated = new Set(s.saturatedRows);
  const paddingOnly = new Set(s.paddingOnlyRows);
  const future = new Set(s.futureRows);
  const zeroRows = new Set(trace.fullyMaskedRows === 'zero' ? s.fullyMaskedRows : []);
  const dk = s.overall.dk;
  const rows: StatsRow[] = [];
  for (let i = 0; i < trace.L; i++) {
    const at = (list: ArrayLike<number>, what: string): number => itemAt(list, i, `row statistics (${what})`);
    const sum = at(s.rowSums, 'rowSums');
    const sumBad = nanRows.has(i) || (!zeroRows.has(i) && !(Math.abs(sum - 1) <= NORMALISATION_TOLERANCE));
    const argmax = at(s.argmax, 'argmax');
    const keyText = argmax >= 0 && argmax < tokenDisplays.length ? ` → ${argmax} ${tokenLabel(tokenDisplays[argmax] ?? '', 12)}` : '';
    const cells: StatsCell[] = [
      { text: String(i) },
      { text: tokenLabel(tokenDisplays[i] ?? '', 16) },
      { text: fmt(sum), flag: sumBad ? 'bad' : undefined },
      {
        text: `${fmt(at(s.entropy, 'entropy'), 3)} / ${fmt(at(s.lnVisible, 'lnVisible'), 3)}`,
        flag: nanRows.has(i) ? 'bad' : undefined,
        title: t('{0} visible keys', at(s.visibleKeys, 'visibleKeys')),
      },
      { text: fmt(at(s.maxWeight, 'maxWeight'), 3) + keyText, flag: nanRows.has(i) ? 'bad' : saturated.has(i) ? 'warn' : undefined },
      {
        text: `${fmt(at(s.rawVariance, 'rawVariance'), 3)} / ${dk} → ${fmt(at(s.scaledVariance, 'scaledVariance'), 3)}`,
        flag: at(s.scaledVariance, 'scaledVariance') > VARIANCE_THRESHOLD ? 'warn' : undefined,
        title: t(
          'raw variance {0} = {1} × d_k; scaled variance {2}',
          fmt(at(s.rawVariance, 'rawVariance')),
          fmt(at(s.rawVariance, 'rawVariance') / dk),
          fmt(at(s.scaledVariance, 'scaledVariance')),
        ),
      },
    ];
    if (hasPadding) cells.push({ text: fmt(at(s.paddingWeight, 'paddingWeight'), 3), flag: paddingOnly.has(i) ? 'bad' : undefined });
    if (hasCausal) cells.push({ text: fmt(at(s.futureWeight, 'futureWeight'), 3), flag: future.has(i) ? 'bad' : undefined });
    rows.push({ index: i, cells, flagged: cells.some((c) => c.flag !== undefined) });
  }
  const o = s.overall;
  const summaryFlag: CellFlag = o.scaledVariance > VARIANCE_THRESHOLD ? 'warn' : undefined;
  const summary = t(
    'Scores: variance {0} = {1} × d_k (d_k = {2}); after × {3}: variance {4}.',
    fmt(o.rawVariance),
    fmt(o.rawVarianceOverDk, 3),
    dk,
    fmt(trace.effectiveScale),
    fmt(o.scaledVariance),
  );
  return { columns, rows, summary, summaryFlag };
}
