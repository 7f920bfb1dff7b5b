// Colour scales for the heatmaps, built from the theme's background so that they read in light, dark and
// high-contrast themes alike. Sequential scale (weights): the background at 0, rising monotonically in
// perceived distance from it (OKLab) to a strong colour at the top. Diverging scale (scores): negative
// values one hue, positive another, the background at 0. Pure: no DOM.

export type Rgb = readonly [number, number, number]; // 0..255 each
export type ThemeKind = 'light' | 'dark' | 'high-contrast' | 'high-contrast-light';

/** Entries per look-up table (value → colour). */
export const LUT_SIZE = 256;

// ----- colour space -----------------------------------------------------------------------------------

const toLinear = (c: number): number => {
  const x = c / 255;
  return x <= 0.04045 ? x / 12.92 : Math.pow((x + 0.055) / 1.055, 2.4);
};
const fromLinear = (x: number): number => {
  const c = x <= 0.0031308 ? 12.92 * x : 1.055 * Math.pow(x, 1 / 2.4) - 0.055;
  return Math.max(0, Math.min(255, Math.round(c * 255)));
};

export type Lab = readonly [number, number, number];

/** sRGB (0..255) → OKLab (L in 0..1). */
export function rgbToOklab([r, g, b]: Rgb): Lab {
  const lr = toLinear(r),
    lg = toLinear(g),
    lb = toLinear(b);
  const l = Math.cbrt(0.4122214708 * lr + 0.5363325363 * lg + 0.0514459929 * lb);
  const m = Math.cbrt(0.2119034982 * lr + 0.6806995451 * lg + 0.1073969566 * lb);
  const s = Math.cbrt(0.0883024619 * lr + 0.2817188376 * lg + 0.6299787005 * lb);
  return [
    0.2104542553 * l + 0.793617785 * m - 0.0040720468 * s,
    1.9779984951 * l - 2.428592205 * m + 0.4505937099 * s,
    0.0259040371 * l + 0.7827717662 * m - 0.808675766 * s,
  ];
}

/** OKLab → sRGB (0..255, clipped to the gamut). */
export function oklabToRgb([L, a, b]: Lab): Rgb {
  const l = Math.pow(L + 0.3963377774 * a + 0.2158037573 * b, 3);
  const m = Math.pow(L - 0.1055613458 * a - 0.0638541728 * b, 3);
  const s = Math.pow(L - 0.0894841775 * a - 1.291485548 * b, 3);
  return [
    fromLinear(4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s),
    fromLinear(-1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s),
    fromLinear(-0.0041960863 * l - 0.7034186147 * m + 1.707614701 * s),
  ];
}

/** Euclidean distance in OKLab: a perceptual colour difference (about 0.02 is just noticeable). */
export function deltaE(a: Rgb, b: Rgb): number {
  const p = rgbToOklab(a),
    q = rgbToOklab(b);
  return Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]);
}

/** WCAG relative luminance (0..1). */
export function luminance([r, g, b]: Rgb): number {
  return 0.2126 * toLinear(r) + 0.7152 * toLinear(g) + 0.0722 * toLinear(b);
}

/** WCAG contrast ratio (1..21). */
export function contrastRatio(a: Rgb, b: Rgb): number {
  const la = luminance(a),
    lb = luminance(b);
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

/** Parses `#rgb`, `#rrggbb`, `#rrggbbaa` (alpha ignored) and `rgb()/rgba()`; undefined otherwise. */
export function parseColour(css: string): Rgb | undefined {
  const s = css.trim().toLowerCase();
  let m = /^#([0-9a-f]{3})$/.exec(s);
  if (m) return [0, 1, 2].map((i) => parseInt(m![1][i] + m![1][i], 16)) as unknown as Rgb;
  m = /^#([0-9a-f]{6})([0-9a-f]{2})?$/.exec(s);
  if (m) return [0, 2, 4].map((i) => parseInt(m![1].slice(i, i + 2), 16)) as unknown as Rgb;
  m = /^rgba?\(\s*(\d+(?:\.\d+)?)[\s,]+(\d+(?:\.\d+)?)[\s,]+(\d+(?:\.\d+)?)/.exec(s);
  if (m) return [m[1], m[2], m[3]].map((v) => Math.max(0, Math.min(255, Math.round(Number(v))))) as unknown as Rgb;
  return undefined;
}

export function toHex([r, g, b]: Rgb): string {
  return '#' + [r, g, b].map((c) => c.toString(16).padStart(2, '0')).join('');
}

// ----- scales -----------------------------------------------------------------------------------------

/** A colour table: LUT_SIZE colours from the low end (index 0) to the high end. */
export interface ColourRamp {
  colours: Rgb[];
}

export interface ThemePalette {
  kind: ThemeKind;
  background: Rgb;
  /** Text colour (the theme's foreground, or black/white by the background). */
  foreground: Rgb;
  /** Sequential (weights 0 → max): the background first, then these stops. */
  sequential: ColourRamp;
  /** Diverging (signed scores): index 0 = most negative, middle = 0 (the background), last = most positive. */
  diverging: ColourRamp;
  /** Cells masked with -inf, drawn as stripes of these two colours. */
  maskedStripe: Rgb;
  /** NaN cells. */
  nan: Rgb;
  /** +inf cells. */
  posInf: Rgb;
}

/** Stops after the background, per theme family; each gets further from the background in lightness. */
const SEQUENTIAL_STOPS: Record<'dark' | 'light', Rgb[]> = {
  // deep blue → azure → teal → yellow: rising lightness on a dark background
  dark: [
    [28, 62, 118],
    [35, 119, 189],
    [62, 184, 160],
    [250, 230, 100],
  ],
  // pale blue → blue → navy: falling lightness on a light background
  light: [
    [165, 200, 232],
    [90, 155, 208],
    [33, 102, 172],
    [8, 38, 100],
  ],
};
const HIGH_CONTRAST_STOPS: Record<'dark' | 'light', Rgb[]> = {
  dark: [
    [0, 70, 170],
    [40, 150, 255],
    [255, 232, 0],
    [255, 255, 255],
  ],
  light: [
    [150, 190, 255],
    [29, 78, 216],
    [20, 20, 90],
    [0, 0, 0],
  ],
};
/** Diverging ends: [negative, positive]. */
const DIVERGING_ENDS: Record<'dark' | 'light', [Rgb, Rgb]> = {
  dark: [
    [90, 170, 255],
    [255, 140, 70],
  ],
  light: [
    [33, 102, 172],
    [178, 24, 43],
  ],
};

/** Whether a background is dark (OKLab lightness below the middle). */
export function isDark(bg: Rgb): boolean {
  return rgbToOklab(bg)[0] < 0.6;
}

/** Interpolates `stops` (evenly spaced) in OKLab into `n` colours. */
export function interpolate(stops: readonly Rgb[], n: number): Rgb[] {
  if (stops.length < 2) throw new Error(`interpolate: need at least 2 stops, got ${stops.length}`);
  if (!Number.isInteger(n) || n < 2) throw new Error(`interpolate: n must be an integer ≥ 2, got ${n}`);
  const labs = stops.map(rgbToOklab);
  const out: Rgb[] = [];
  for (let i = 0; i < n; i++) {
    const t = (i / (n - 1)) * (labs.length - 1);
    const k = Math.min(labs.length - 2, Math.floor(t));
    const f = t - k;
    const a = labs[k],
      b = labs[k + 1];
    out.push(oklabToRgb([a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f, a[2] + (b[2] - a[2]) * f]));
  }
  return out;
}

/** The palette for a theme and its actual editor background. */
export function makePalette(kind: ThemeKind, background: Rgb, foreground?: Rgb): ThemePalette {
  const dark = kind === 'high-contrast' ? true : kind === 'high-contrast-light' ? false : isDark(background);
  const family = dark ? 'dark' : 'light';
  const hc = kind === 'high-contrast' || kind === 'high-contrast-light';
  const stops = (hc ? HIGH_CONTRAST_STOPS : SEQUENTIAL_STOPS)[family];
  const [neg, pos] = DIVERGING_ENDS[family];
  const half = LUT_SIZE / 2;
  const negative = interpolate([neg, background], half);
  const positive = interpolate([background, pos], half);
  return {
    kind,
    background,
    foreground: foreground ?? (dark ? [230, 230, 230] : [30, 30, 30]),
    sequential: { colours: interpolate([background, ...stops], LUT_SIZE) },
    diverging: { colours: [...negative, ...positive] },
    maskedStripe: dark ? [120, 120, 120] : [150, 150, 150],
    nan: dark ? [255, 60, 200] : [200, 0, 160],
    posInf: dark ? [255, 255, 255] : [0, 0, 0],
  };
}

// ----- value → colour ---------------------------------------------------------------------------------

/** How values map onto a ramp: sequential over [lo, hi], or diverging symmetric around 0 with |v| ≤ hi. */
export type ValueScale = { kind: 'sequential'; lo: number; hi: number } | { kind: 'diverging'; hi: number };

/** Index into a LUT_SIZE ramp for a finite value (clamped). */
export function rampIndex(v: number, scale: ValueScale): number {
  let t: number;
  if (scale.kind === 'sequential') {
    const span = scale.hi - scale.lo;
    t = span > 0 ? (v - scale.lo) / span : v > scale.lo ? 1 : 0;
  } else {
    t = scale.hi > 0 ? 0.5 + v / (2 * scale.hi) : 0.5;
  }
  const i = Math.round(t * (LUT_SIZE - 1));
  return i < 0 ? 0 : i >= LUT_SIZE ? LUT_SIZE - 1 : i;
}

/** The value at a ramp index (for legends), the inverse of rampIndex at index centres. */
export function rampValue(index: number, scale: ValueScale): number {
  const t = index / (LUT_SIZE - 1);
  return scale.kind === 'sequential' ? scale.lo + t * (scale.hi - scale.lo) : (2 * t - 1) * scale.hi;
}

/** Finite min/max and max |v| of values (NaN/±inf ignored); undefined bounds when none are finite. */
export function finiteRange(values: ArrayLike<number>): { min: number; max: number; maxAbs: number; finite: number } {
  let min = Infinity,
    max = -Infinity,
    finite = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v === v && v !== Infinity && v !== -Infinity) {
      if (v < min) min = v;
      if (v > max) max = v;
      finite++;
    }
  }
  if (finite === 0) return { min: 0, max: 0, maxAbs: 0, finite };
  return { min, max, maxAbs: Math.max(Math.abs(min), Math.abs(max)), finite };
}

/**
 * The scale for a matrix: weights (all ≥ 0) are sequential from 0 to `unit ? 1 : max`; signed values are
 * diverging around 0.
 */
export function scaleFor(values: ArrayLike<number>, opts: { unit?: boolean } = {}): ValueScale {
  const r = finiteRange(values);
  if (r.min >= 0) return { kind: 'sequential', lo: 0, hi: opts.unit ? 1 : r.max > 0 ? r.max : 1 };
  return { kind: 'diverging', hi: r.maxAbs > 0 ? r.maxAbs : 1 };
}
