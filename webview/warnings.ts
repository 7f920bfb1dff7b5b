// The engine's trace warnings, said plainly in the user's language. The engine gives each warning a stable
// id and the rows it concerns; the sentence is built here from the trace's numbers so that it can be
// translated. Pure (apart from the string table).
import { type AttentionTrace, type TraceWarning, type TraceWarningId, numberRange, rowSpread } from '../src/engine/trace';
import { fmt, pct } from './format';
import { t } from './l10n';
import { itemAt } from './checked';

export interface WarningText {
  id: TraceWarningId;
  /** A few words: the bug's name. */
  title: string;
  /** What happened and what to do. */
  detail: string;
  rows: number[];
  severity: 'error' | 'warning' | 'info';
}

const SEVERITY: Record<TraceWarningId, WarningText['severity']> = {
  'rows-not-normalized': 'error',
  'attends-only-padding': 'error',
  'nan-rows': 'error',
  'future-visible': 'error',
  'saturated-rows': 'warning',
  'score-variance-high': 'warning',
  'near-uniform-rows': 'warning',
  'fully-masked-zero-rows': 'info',
};

function worstRowSumError(trace: AttentionTrace, rows: readonly number[]): number {
  let worst = 0;
  for (const i of rows) {
    const d = Math.abs(itemAt(trace.stats.rowSums, i, 'row sums') - 1);
    if (d > worst) worst = d;
  }
  return worst;
}

/** `causalMasks`: the alignments of the causal masks the trace applied (from the debugger's switches). */
export function describeWarning(w: TraceWarning, trace: AttentionTrace, causalMasks: readonly string[] = []): WarningText {
  const rows = Array.isArray(w.rows) ? w.rows.filter((r) => Number.isInteger(r)) : [];
  const base = { id: w.id, rows, severity: SEVERITY[w.id] ?? 'warning' };
  switch (w.id) {
    case 'rows-not-normalized': {
      let detail = t('These query rows of weights do not sum to 1 (off by up to {0}).', fmt(worstRowSumError(trace, rows)));
      if (trace.softmaxDim === -2) {
        detail += ' ' + t('The softmax ran over dim -2 (the queries), so each key column sums to 1 instead of each query row: use dim=-1.');
      }
      return { ...base, title: t('Rows do not sum to 1'), detail };
    }
    case 'attends-only-padding': {
      let detail = t('These queries put all their weight on padding keys.');
      const inverted = trace.padding?.find((p) => p.inverted);
      if (inverted?.passedTo === 'sdpa') {
        detail +=
          ' ' +
          t(
            'The padding mask was built with True = pad, but F.scaled_dot_product_attention reads True = attend: invert it (~mask), or pass it to nn.MultiheadAttention as key_padding_mask.',
          );
      } else if (inverted?.passedTo === 'mha') {
        detail +=
          ' ' +
          t(
            "The padding mask was built with True = keep, but nn.MultiheadAttention's key_padding_mask reads True = ignore: invert it (~mask), or pass it to SDPA as attn_mask.",
          );
      }
      return { ...base, title: t('Queries attend only to padding'), detail };
    }
    case 'saturated-rows': {
      const m = rowSpread(trace.stats, rows);
      let detail = t(
        'These rows put at least {0} of their weight on a single key: the softmax is saturated (one-hot) and its gradients vanish.',
        pct(trace.stats.saturationThreshold),
      );
      detail +=
        ' ' +
        t(
          'Entropy {0} nats against ln n = {1}; the scaled scores spread {2} (standard deviation), where about 1 is usual.',
          numberRange(m.entropyMin, m.entropyMax),
          numberRange(m.lnMin, m.lnMax),
          fmt(m.scaledStd, 3),
        );
      const ideal = 1 / Math.sqrt(trace.dk);
      if (Math.abs(trace.effectiveScale - ideal) > 1e-9 * ideal) {
        detail += ' ' + t('The scores are multiplied by {0}, while 1/sqrt(d_k) = {1}.', fmt(trace.effectiveScale), fmt(ideal));
      }
      return { ...base, title: t('Saturated (one-hot) rows'), detail };
    }
    case 'nan-rows': {
      const masked = new Set(trace.stats.fullyMaskedRows);
      const detail = rows.every((i) => masked.has(i))
        ? t('These rows are NaN: every key is masked there, and a softmax over nothing but -inf is 0/0, which ·V then spreads into the output.')
        : t('These rows are NaN: the scores contain NaN or +inf.');
      return { ...base, title: t('NaN rows'), detail };
    }
    case 'future-visible': {
      const intent = trace.causalIntent ?? 'top-left';
      const rule = intent === 'top-left' ? t('query i sees keys j ≤ i') : t('query i sees keys j ≤ i + (S − L)');
      let why = t('no causal mask is applied.');
      const aligns = [...new Set(causalMasks)];
      if (aligns.length > 0) why = t('the causal mask is aligned {0}.', aligns.join(', '));
      const detail = t('These queries give weight to future keys although the attention is meant to be causal ({0}: {1}), but {2}', intent, rule, why);
      return { ...base, title: t('Future tokens visible'), detail };
    }
    case 'fully-masked-zero-rows':
      return {
        ...base,
        title: t('Rows with no visible key'),
        detail: t("These rows may attend to no key at all; SDPA's safe softmax silently gives them weight 0 and output 0 instead of NaN."),
      };
    case 'score-variance-high': {
      const o = trace.stats.overall;
      return {
        ...base,
        title: t('Score variance too high'),
        detail: t(
          'The scaled scores have variance {0} (raw q·k: {1} with d_k = {2}). q·k of unit-variance vectors has variance about d_k; only the 1/sqrt(d_k) scale brings it back near 1.',
          fmt(o.scaledVariance),
          fmt(o.rawVariance),
          o.dk,
        ),
      };
    }
    case 'near-uniform-rows': {
      const m = rowSpread(trace.stats, rows);
      let detail = t(
        'These rows are almost uniform: entropy {0} nats against ln n = {1}, the most a row over n keys can have. The scaled scores spread only {2} (standard deviation; raw q·k: {3}, about √d_k = {4}), where 1/√d_k gives about 1, so the softmax averages the values instead of attending.',
        numberRange(m.entropyMin, m.entropyMax),
        numberRange(m.lnMin, m.lnMax),
        fmt(m.scaledStd, 3),
        fmt(m.rawStd, 3),
        fmt(m.sqrtDk, 3),
      );
      const ideal = 1 / Math.sqrt(trace.dk);
      if (Math.abs(trace.effectiveScale - ideal) > 1e-9 * ideal) {
        detail += ' ' + t('The scores are multiplied by {0}, while 1/sqrt(d_k) = {1}.', fmt(trace.effectiveScale), fmt(ideal));
      }
      return { ...base, title: t('Almost uniform rows (flat attention)'), detail };
    }
    default:
      // A warning this panel does not know yet: show the engine's own sentence.
      return { ...base, title: String(w.id), detail: String(w.message ?? '') };
  }
}
