// Shape and layout inference: what reshapes, transposes, permutes, indexing, einsum and einops patterns do
// to a tensor's rank and per-axis labels. All functions are pure and return undefined when the effect
// cannot be known.
import type { AxisInfo, AxisLabel } from './values';

/** Normalises a possibly negative dim for a rank; undefined when out of range. */
export function posAxis(dim: number, ndim: number): number | undefined {
  const d = dim < 0 ? dim + ndim : dim;
  return d >= 0 && d < ndim ? d : undefined;
}

/** Where a negative axis index goes under transpose(a, b) when the rank is unknown (only negative a, b). */
export function swapNegative(axis: number, a: number, b: number): number | undefined {
  if (a >= 0 || b >= 0) return undefined;
  if (axis === a) return b;
  if (axis === b) return a;
  return axis;
}

export function isPermutation(perm: readonly number[]): boolean {
  const n = perm.length;
  const seen = new Set<number>();
  for (const p of perm) {
    const q = p < 0 ? p + n : p;
    if (q < 0 || q >= n || seen.has(q)) return false;
    seen.add(q);
  }
  return true;
}

export function normalisePerm(perm: readonly number[]): number[] {
  const n = perm.length;
  return perm.map((p) => (p < 0 ? p + n : p));
}

// ------------------------------------------------------------------------------------------------ einsum

export interface EinsumSpec {
  /** One list of axis names per operand; '...' stands for an ellipsis. */
  inputs: string[][];
  output: string[];
}

/**
 * Parses an einsum equation. `torch/np/jnp/tf.einsum` use one letter per axis ('bhid,bhjd->bhij', spaces
 * ignored); einops.einsum uses space-separated names ('b h i d, b h j d -> b h i j').
 */
export function parseEinsum(spec: string, style: 'letters' | 'words'): EinsumSpec | undefined {
  const arrow = spec.split('->');
  if (arrow.length > 2) return undefined;
  const lhs = arrow[0] ?? ''; // split returns at least one part
  const parseTerm = (t: string): string[] | undefined => {
    if (style === 'words') {
      const parts = t
        .trim()
        .split(/\s+/)
        .filter((x) => x.length > 0);
      return parts.every((p) => /^([A-Za-z_][A-Za-z0-9_]*|\.\.\.)$/.test(p)) ? parts : undefined;
    }
    const s = t.replace(/\s+/g, '');
    const out: string[] = [];
    for (let i = 0; i < s.length; i++) {
      if (s.startsWith('...', i)) {
        out.push('...');
        i += 2;
      } else if (/[A-Za-z]/.test(s.charAt(i))) out.push(s.charAt(i));
      else return undefined;
    }
    return out;
  };
  const inputs: string[][] = [];
  for (const term of lhs.split(',')) {
    const t = parseTerm(term);
    if (!t) return undefined;
    inputs.push(t);
  }
  let output: string[] | undefined;
  if (arrow.length === 2) output = parseTerm(arrow[1] ?? '');
  else {
    // Implicit output: letters that appear exactly once, in alphabetical order.
    const count = new Map<string, number>();
    for (const t of inputs) for (const a of t) if (a !== '...') count.set(a, (count.get(a) ?? 0) + 1);
    output = [...count.entries()]
      .filter(([, c]) => c === 1)
      .map(([a]) => a)
      .sort();
    if (inputs.some((t) => t.includes('...'))) output.unshift('...');
  }
  if (!output) return undefined;
  return { inputs, output };
}

/** Negative index of axis name `a` in a term (undefined if absent or before an ellipsis). */
export function negIndexInTerm(term: readonly string[], a: string): number | undefined {
  const i = term.lastIndexOf(a);
  if (i < 0) return undefined;
  const ell = term.indexOf('...');
  if (ell >= 0 && i < ell) return undefined;
  return i - term.length;
}

/** Axis label an einsum/einops axis name suggests: b → batch, h → head, i/j/n/t/l/s → seq, d/c/e → feat. */
export function labelOfAxisName(name: string): AxisLabel | undefined {
  const n = name.toLowerCase();
  if (n === 'b' || n === 'batch' || n === 'bs') return 'batch';
  if (n === 'h' || n === 'heads' || n === 'head' || n === 'nh' || n === 'n_heads' || n === 'num_heads') return 'head';
  if (['i', 'j', 'n', 't', 'l', 's', 'q', 'k', 'seq', 'len', 'x', 'y', 'm', 'p', 'tq', 'tk', 'lq', 'lk'].includes(n)) return 'seq';
  if (['d', 'c', 'e', 'dim', 'dh', 'hd', 'dk', 'dv', 'f', 'ch'].includes(n)) return 'feat';
  return undefined;
}

// ------------------------------------------------------------------------------------------------ einops

export interface EinopsSide {
  /** Top-level groups; a composite `(h d)` is one group of several names. */
  groups: string[][];
  hasEllipsis: boolean;
}

export function parseEinopsSide(s: string): EinopsSide | undefined {
  const groups: string[][] = [];
  let hasEllipsis = false;
  const tokens = s
    .replace(/\(/g, ' ( ')
    .replace(/\)/g, ' ) ')
    .trim()
    .split(/\s+/)
    .filter((t) => t.length > 0);
  let cur: string[] | undefined;
  for (const t of tokens) {
    if (t === '(') {
      if (cur) return undefined;
      cur = [];
    } else if (t === ')') {
      if (!cur) return undefined;
      groups.push(cur);
      cur = undefined;
    } else if (t === '...' || t === '…') {
      hasEllipsis = true;
      if (cur) cur.push('...');
      else groups.push(['...']);
    } else if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(t) || /^\d+$/.test(t)) {
      if (cur) cur.push(t);
      else groups.push([t]);
    } else return undefined;
  }
  if (cur) return undefined;
  return { groups, hasEllipsis };
}

export function parseEinopsPattern(pattern: string): { lhs: EinopsSide; rhs: EinopsSide } | undefined {
  const parts = pattern.split('->');
  if (parts.length !== 2) return undefined;
  const lhs = parseEinopsSide(parts[0] ?? ''); // two parts (checked above)
  const rhs = parseEinopsSide(parts[1] ?? '');
  if (!lhs || !rhs) return undefined;
  return { lhs, rhs };
}

/** Labels of an einops side's groups: a composite group is labelled by its last named axis when that is a feature axis. */
export function einopsLabels(side: EinopsSide): AxisInfo[] {
  return side.groups.map((g) => {
    // `()`: a new axis of length 1.
    if (g.length === 0) return { size1: true };
    if (g.length === 1) {
      if (g[0] === '1') return { size1: true };
      const label = labelOfAxisName(g[0] ?? '');
      return label ? { label } : {};
    }
    const labels = g.map(labelOfAxisName);
    if (labels.includes('feat')) return { label: 'feat' as const };
    if (labels.every((l) => l === 'batch' || l === 'head')) return { label: 'batch' as const };
    return {};
  });
}

/**
 * Where each axis of an einops pattern's left side goes on its right side, as negative indices: an axis named
 * alone on both sides moves to its new place; one merged, split, reduced or covered by an ellipsis has no
 * single place (undefined).
 */
export function einopsAxisMap(lhs: EinopsSide, rhs: EinopsSide): (axis: number) => number | undefined {
  const single = (g: string[]): string | undefined => (g.length === 1 && /^[A-Za-z_]/.test(g[0] ?? '') ? g[0] : undefined);
  const ellipsis = (s: EinopsSide): number => s.groups.findIndex((g) => g.length === 1 && g[0] === '...');
  const lEll = ellipsis(lhs);
  const rEll = ellipsis(rhs);
  return (axis) => {
    const li = lhs.groups.length + axis;
    if (li < 0 || li >= lhs.groups.length || (lEll >= 0 && li <= lEll)) return undefined;
    const name = single(lhs.groups[li] ?? []); // li is in range (checked above)
    if (!name) return undefined;
    const ri = rhs.groups.findIndex((g) => single(g) === name);
    if (ri < 0 || (rEll >= 0 && ri < rEll)) return undefined;
    return ri - rhs.groups.length;
  };
}
