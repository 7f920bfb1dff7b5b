// The debugger's five steps as data: which trace tensor each shows, its formula and shape, and what a
// cell means. Pure (apart from the string table).
import type { AttentionTrace } from '../src/engine/trace';
import type { Tensor } from '../src/engine/tensor';
import type { RecordedSourceLine, RunResult } from '../src/protocol/engine';
import { fmt, fmtShape } from './format';
import { t } from './l10n';
import type { StepIndex } from './state';

export interface StepInfo {
  index: StepIndex;
  /** Short tab label. */
  name: string;
  /** The step's formula, with this trace's numbers. */
  formula: string;
  /** Shapes in and out. */
  shape: string;
  /** A remark (how many cells are masked, which way the softmax normalises...). */
  note: string;
  tensor: Tensor;
  /** The tensor's (rows, cols): (L, S), and (L, d_v) for the output. */
  rows: number;
  cols: number;
  /** Whether columns are keys (else the output's dimensions). */
  columnsAreKeys: boolean;
  /** Weights (0..1, sequential scale) rather than signed values. */
  isWeights: boolean;
}

export function stepNames(): readonly [string, string, string, string, string] {
  return [t('1 · scores = QKᵀ'), t('2 · × scale'), t('3 · + mask'), t('4 · softmax'), t('5 · × V')];
}

export function scaleDescription(trace: AttentionTrace): string {
  switch (trace.scaleChoice?.kind) {
    case 'inv-sqrt-dk':
      return t('1/√d_k = 1/√{0}', trace.dk);
    case 'inv-dk':
      return t('1/d_k = 1/{0}', trace.dk);
    case 'none':
      return t('no scale');
    case 'custom':
      return t('custom');
    default:
      return '';
  }
}

function countMasked(allowed: ArrayLike<number>): number {
  let n = 0;
  for (let i = 0; i < allowed.length; i++) if (!allowed[i]) n++;
  return n;
}

export function stepInfo(trace: AttentionTrace, step: StepIndex): StepInfo {
  const { L, S, dk, dv } = trace;
  const ls = fmtShape([L, S]);
  const names = stepNames();
  switch (step) {
    case 0:
      return {
        index: 0,
        name: names[0],
        tensor: trace.scores,
        rows: L,
        cols: S,
        columnsAreKeys: true,
        isWeights: false,
        formula: t('scores = Q · Kᵀ'),
        shape: t('Q {0} · Kᵀ {1} → {2}', fmtShape([L, dk]), fmtShape([dk, S]), ls),
        note: t('Each cell is the dot product of a query vector and a key vector (d_k = {0}).', dk),
      };
    case 1: {
      const temp = trace.temperature !== 1 ? t(' / temperature {0}', fmt(trace.temperature)) : '';
      return {
        index: 1,
        name: names[1],
        tensor: trace.scaled,
        rows: L,
        cols: S,
        columnsAreKeys: true,
        isWeights: false,
        formula: t('scaled = scores × {0} ({1}){2}', fmt(trace.scale), scaleDescription(trace), temp),
        shape: `${ls} → ${ls}`,
        note: t(
          'Scaling keeps the variance of the scores near 1, so the softmax does not saturate: variance {0} before, {1} after.',
          fmt(trace.stats.overall.rawVariance, 3),
          fmt(trace.stats.overall.scaledVariance, 3),
        ),
      };
    }
    case 2: {
      const masked = countMasked(trace.allowed.data);
      return {
        index: 2,
        name: names[2],
        tensor: trace.masked,
        rows: L,
        cols: S,
        columnsAreKeys: true,
        isWeights: false,
        formula: t('masked = scaled + mask'),
        shape: `${ls} + ${ls} → ${ls}`,
        note: masked === 0 ? t('No key is masked.') : t('{0} of {1} cells are masked (−∞, striped): the softmax gives them weight 0.', masked, L * S),
      };
    }
    case 3:
      return {
        index: 3,
        name: names[3],
        tensor: trace.probs,
        rows: L,
        cols: S,
        columnsAreKeys: true,
        isWeights: true,
        formula: t('weights = softmax(masked, dim={0})', trace.softmaxDim),
        shape: `${ls} → ${ls}`,
        note:
          trace.softmaxDim === -1
            ? t('dim -1: every query row sums to 1 over the keys.')
            : t('dim -2: every key column sums to 1 over the queries, and the rows do not.'),
      };
    case 4:
      return {
        index: 4,
        name: names[4],
        tensor: trace.output,
        rows: L,
        cols: dv,
        columnsAreKeys: false,
        isWeights: false,
        formula: t('output = weights · V'),
        shape: t('{0} · V {1} → {2}', ls, fmtShape([S, dv]), fmtShape([L, dv])),
        note: t('Each output row is a mix of the value vectors, weighted by its row of weights.'),
      };
  }
}

/** Tooltip lines for cell (row, col) of a step. */
export function describeStepCell(
  trace: AttentionTrace,
  step: StepIndex,
  row: number,
  col: number,
  tokens: readonly string[],
  queries: readonly string[] = tokens,
): string[] {
  const S = trace.S;
  const q = `${row} “${queries[row] ?? ''}”`;
  if (step === 4) {
    return [t('Query {0}, dimension {1}', q, col), t('output = {0}', fmt(trace.output.data[row * trace.dv + col]))];
  }
  const k = `${col} “${tokens[col] ?? ''}”`;
  const i = row * S + col;
  const head = t('Query {0} → key {1}', q, k);
  const score = trace.scores.data[i];
  const scaled = trace.scaled.data[i];
  const bias = trace.bias.data[i];
  const masked = trace.masked.data[i];
  const w = trace.probs.data[i];
  switch (step) {
    case 0:
      return [head, t('q·k = {0}', fmt(score))];
    case 1:
      return [head, t('{0} × {1} = {2}', fmt(score), fmt(trace.effectiveScale), fmt(scaled))];
    case 2:
      return [head, t('{0} + {1} = {2}', fmt(scaled), fmt(bias), fmt(masked)), trace.allowed.data[i] ? t('visible') : t('masked')];
    default:
      return [head, t('weight {0}', fmt(w))];
  }
}

/** The user's source lines of step `step` of layer `layer` of a recorded call (none for other runs). */
export function stepSourceLines(run: RunResult, layer: number, step: StepIndex): RecordedSourceLine[] {
  const lines = run.recorded?.stepSources?.[layer]?.[step];
  return Array.isArray(lines) ? lines : [];
}

/** "prog.py:12", "prog.py:12, 14", "a.py:3, b.py:5": the file's name (not its folders) and the lines. */
export function sourceLinkText(lines: readonly RecordedSourceLine[]): string {
  const parts: string[] = [];
  let last = '';
  for (const l of lines) {
    const name = l.path.split(/[\\/]/).pop() ?? l.path;
    parts.push(name === last ? String(l.line) : `${name}:${l.line}`);
    last = name;
  }
  return parts.join(', ');
}
