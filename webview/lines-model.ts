// The lines view's pure part: which query→key lines to draw and how strongly, and one colour per head
// when all heads of a layer are overlaid.
import { type Rgb, oklabToRgb } from './colour-scale';

export interface Segment {
  query: number;
  key: number;
  /** 0..1 */
  opacity: number;
  head: number;
}

/** Lines lighter than this are not drawn (they would be invisible anyway). */
export const MIN_LINE_OPACITY = 0.02;

/**
 * Segments for heads' (T, T) weights: opacity = weight (NaN and non-positive weights draw nothing).
 * With `focusQuery` / `focusKey`, only that query's (or key's) lines.
 */
export function lineSegments(
  heads: readonly { head: number; weights: ArrayLike<number> }[],
  T: number,
  opts: { focusQuery?: number; focusKey?: number; minOpacity?: number } = {},
): Segment[] {
  const min = opts.minOpacity ?? MIN_LINE_OPACITY;
  const out: Segment[] = [];
  for (const { head, weights } of heads) {
    if (weights.length !== T * T) throw new Error(`lineSegments: head ${head} has ${weights.length} weights, expected ${T}²`);
    for (let i = 0; i < T; i++) {
      if (opts.focusQuery !== undefined && i !== opts.focusQuery) continue;
      for (let j = 0; j < T; j++) {
        if (opts.focusKey !== undefined && j !== opts.focusKey) continue;
        const w = weights[i * T + j];
        if (w === undefined || !(w >= min)) continue;
        out.push({ query: i, key: j, opacity: Math.min(1, w), head });
      }
    }
  }
  return out;
}

/** n distinguishable colours (evenly spaced hues in OKLab), light on dark backgrounds and dark on light ones. */
export function headColours(n: number, darkBackground: boolean): Rgb[] {
  const L = darkBackground ? 0.78 : 0.55;
  const C = 0.14;
  return Array.from({ length: n }, (_, i) => {
    const hue = ((i * 360) / Math.max(1, n) + 25) * (Math.PI / 180);
    return oklabToRgb([L, C * Math.cos(hue), C * Math.sin(hue)]);
  });
}
