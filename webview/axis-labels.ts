// How column labels stand above a matrix. A label that fits the column's width is set upright as it is; a
// CJK label (Han, kana, hangul, CJK punctuation) too narrow for that is set upright one character per line,
// as vertical CJK text is; only a long Latin (or mixed) label is turned 90°. Pure: widths are measured by
// the caller (canvas measureText) or estimated (SVG).
import { itemAt } from './checked';

export type LabelOrientation = 'horizontal' | 'stacked' | 'rotated';

/** Line height of stacked characters, in font sizes. */
export const STACK_LINE = 1.1;
/** A stacked label longer than this many characters is rotated instead (it would tower over the matrix). */
export const MAX_STACKED_CHARS = 8;

/** CJK ideographs, kana, hangul, bopomofo, CJK punctuation and full-width forms: the scripts set upright in vertical text. */
const UPRIGHT = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Bopomofo}\u3000-\u303f\uff00-\uffef\u30fc…]+$/u;

export function isUprightScript(label: string): boolean {
  return UPRIGHT.test(label);
}

/** The orientation of a column label `width` px wide at `font` px in a column `cellWidth` px wide. */
export function labelOrientation(label: string, width: number, cellWidth: number, font: number): LabelOrientation {
  if (width <= cellWidth - 2) return 'horizontal';
  const chars = [...label].length;
  if (isUprightScript(label) && chars <= MAX_STACKED_CHARS && font <= cellWidth + 2) return 'stacked';
  return 'rotated';
}

/** The height a column label takes above the matrix in its orientation (px). */
export function labelExtent(label: string, orientation: LabelOrientation, width: number, font: number): number {
  switch (orientation) {
    case 'horizontal':
      return font;
    case 'stacked':
      return [...label].length * font * STACK_LINE;
    case 'rotated':
      return width;
  }
}

/** The tallest of the labels' extents (0 without labels). */
export function labelsExtent(labels: readonly string[], widths: readonly number[], cellWidth: number, font: number): number {
  let most = 0;
  labels.forEach((l, i) => {
    const width = itemAt(widths, i, 'label widths');
    most = Math.max(most, labelExtent(l, labelOrientation(l, width, cellWidth, font), width, font));
  });
  return most;
}

/**
 * A text's width estimated without a canvas (for SVG): full-width characters 1 em, others 0.6 em, which
 * is close for the sans-serif fonts SVG viewers pick.
 */
export function estimateWidth(text: string, font: number): number {
  let w = 0;
  for (const ch of text) w += isUprightScript(ch) ? font : 0.6 * font;
  return w;
}
