// A recorded hand-written call in the debugger: the user's own tensor at the current step (what their code
// computed there) beside the engine's reference, in words: which tensor it is, whether it agrees, how far apart
// the two are and the first cell where they part. Pure (apart from the string table).
import { itemAt } from './checked';
import type { OwnStep } from '../src/protocol/engine';
import { toF32 } from './data';
import { fmt } from './format';
import { t } from './l10n';

/** Scores at or below this are masked fills (-1e9, finfo.min) and drawn as masked cells (src/record/view.ts). */
const MASK_THRESHOLD = -1e4;

const num = (v: unknown): number => (typeof v === 'number' ? v : NaN); // NaN and ±∞ may arrive as null
const int = (v: unknown, what: string, max: number): number => {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > max) throw new Error(`${what} must be an integer in 0..${max}`);
  return v;
};

/** The own steps of a trace as they arrived (checked: shapes fit their data; unknown steps dropped). */
export function normaliseOwnSteps(raw: unknown): OwnStep[] {
  if (!Array.isArray(raw)) return [];
  return raw.slice(0, 5).map((o: OwnStep, i) => {
    const what = `trace.own[${i}]`;
    const rows = int(o.own?.shape?.[0], `${what}.own.shape[0]`, 1 << 20);
    const cols = int(o.own?.shape?.[1], `${what}.own.shape[1]`, 1 << 20);
    const data = toF32(o.own.data, `${what}.own.data`);
    if (data.length !== rows * cols) throw new Error(`${what}.own holds ${data.length} values for shape (${rows}, ${cols})`);
    const first = o.first && typeof o.first === 'object' ? o.first : null;
    return {
      step: int(o.step, `${what}.step`, 4),
      name: String(o.name),
      own: { data, shape: [rows, cols] },
      block: o.block ? { rows: int(o.block.rows, `${what}.block.rows`, 1 << 20), cols: int(o.block.cols, `${what}.block.cols`, 1 << 20) } : null,
      maxAbsDiff: num(o.maxAbsDiff),
      differing: int(o.differing, `${what}.differing`, rows * cols),
      cells: int(o.cells, `${what}.cells`, rows * cols),
      first: first
        ? {
            row: int(first.row, `${what}.first.row`, rows),
            col: int(first.col, `${what}.first.col`, cols),
            own: num(first.own),
            reference: num(first.reference),
          }
        : null,
    };
  });
}

/** What the user's tensor at this step is, in words. */
export function ownStepTitle(o: OwnStep): string {
  switch (o.name) {
    case 'step_raw':
      return o.step === 0 ? t('Your q·kᵀ, as your matmul gave it') : t('Your scores at this step: q·kᵀ, never scaled in your code');
    case 'step_scaled':
      return t('Your scores after your scale');
    case 'scores':
      return o.step === 2 ? t('Your softmax input') : t('Your scores at this step (already your softmax input)');
    case 'weights_used':
      return t('Your weights as multiplied with V (changed after the softmax)');
    case 'probs':
      return t('Your weights');
    default:
      return t('Your output');
  }
}

/** The comparison in one sentence; `queries`/`keys` label the rows and columns (step 4: dimensions). */
export function ownStepSummary(o: OwnStep, queries: readonly string[], keys: readonly string[]): string {
  const blocks = o.block ? ` ${t('Kept as block averages of {0} × {1} cells, compared with the reference’s block means.', o.block.rows, o.block.cols)}` : '';
  if (o.differing === 0) return t('Agrees with the reference: max |yours − reference| = {0}.', fmt(o.maxAbsDiff, 2)) + blocks;
  const f = o.first;
  let where = '';
  if (f) {
    const row = o.block ? String(f.row * o.block.rows) : `${f.row} “${queries[f.row] ?? ''}”`;
    const col = o.block ? String(f.col * o.block.cols) : o.step === 4 ? String(f.col) : `${f.col} “${keys[f.col] ?? ''}”`;
    where =
      o.step === 4
        ? ` ${t('First at query {0}, dimension {1}: yours {2}, reference {3}.', row, col, fmt(f.own), fmt(f.reference))}`
        : ` ${t('First at query {0} → key {1}: yours {2}, reference {3}.', row, col, fmt(f.own), fmt(f.reference))}`;
  }
  return t('Differs from the reference in {0} of {1} cells; max |yours − reference| = {2}.', o.differing, o.cells, fmt(o.maxAbsDiff, 3)) + where + blocks;
}

/** The values to draw: masked fills (≤ -1e4) as −∞, so that they show as masked cells like the reference's. */
export function ownDisplayValues(o: OwnStep): Float32Array {
  return o.own.data.map((x) => (x <= MASK_THRESHOLD ? -Infinity : x));
}

/** Tooltip lines of a cell of the user's tensor (in blocks when it was kept as block averages). */
export function describeOwnCell(
  o: OwnStep,
  reference: ArrayLike<number> | null,
  row: number,
  col: number,
  queries: readonly string[],
  keys: readonly string[],
): string[] {
  const cols = itemAt(o.own.shape, 1, 'your tensor’s shape');
  const yours = o.own.data[row * cols + col];
  const head = o.block
    ? t('Queries {0}–{1} → keys {2}–{3} (block average)', row * o.block.rows, (row + 1) * o.block.rows - 1, col * o.block.cols, (col + 1) * o.block.cols - 1)
    : o.step === 4
      ? t('Query {0}, dimension {1}', `${row} “${queries[row] ?? ''}”`, col)
      : t('Query {0} → key {1}', `${row} “${queries[row] ?? ''}”`, `${col} “${keys[col] ?? ''}”`);
  const ref = reference && !o.block ? reference[row * cols + col] : undefined;
  return [head, ref === undefined ? t('yours {0}', fmt(yours)) : t('yours {0} · reference {1}', fmt(yours), fmt(ref))];
}
