// A normalised string that remembers, for every UTF-16 unit, which range of the original text it came from.
// This is what lets offsets survive normalisation (lowercasing, accent stripping, CJK spacing, byte mapping):
// a token's original range is [starts[first unit], ends[last unit]).

export interface Aligned {
  readonly text: string;
  /** Per unit of `text`: original start offset (UTF-16, absolute in the encoded input). */
  readonly starts: Int32Array;
  /** Per unit of `text`: original end offset (exclusive). */
  readonly ends: Int32Array;
}

/** Identity alignment of `original.slice(from, to)`; both units of a surrogate pair map to the whole pair. */
export function alignOriginal(original: string, from: number, to: number): Aligned {
  const n = to - from;
  const starts = new Int32Array(n);
  const ends = new Int32Array(n);
  for (let k = 0; k < n; k++) {
    starts[k] = from + k;
    ends[k] = from + k + 1;
  }
  for (let k = 0; k + 1 < n; k++) {
    const c = original.charCodeAt(from + k);
    if (c >= 0xd800 && c <= 0xdbff) {
      const lo = original.charCodeAt(from + k + 1);
      if (lo >= 0xdc00 && lo <= 0xdfff) {
        ends[k] = from + k + 2;
        starts[k + 1] = from + k;
        k++;
      }
    }
  }
  return { text: original.slice(from, to), starts, ends };
}

/**
 * The error for a unit whose original range is missing: `starts` and `ends` must be as long as `text`. Built only
 * when a read has come back `undefined` (the reads stay inline: a call per unit made the pipeline up to 2x slower).
 */
export function misaligned(a: Aligned, unit: number, what = 'aligned text'): RangeError {
  return new RangeError(`${what}: unit ${unit} has no original range (text of ${a.text.length} units, ${a.starts.length} starts, ${a.ends.length} ends)`);
}

export function sliceAligned(a: Aligned, from: number, to: number): Aligned {
  return { text: a.text.slice(from, to), starts: a.starts.subarray(from, to), ends: a.ends.subarray(from, to) };
}

/** Growable output of a transform (typed arrays and a rope string: no per-unit allocation). */
export class AlignedBuilder {
  private text = '';
  private starts: Int32Array;
  private ends: Int32Array;
  private n = 0;

  /** `capacity`: expected number of output units (the arrays grow as needed). */
  constructor(capacity = 16) {
    this.starts = new Int32Array(Math.max(1, capacity));
    this.ends = new Int32Array(Math.max(1, capacity));
  }

  /** Appends `s`, every unit of which comes from the original range [start, end). */
  push(s: string, start: number, end: number): void {
    const len = s.length;
    if (len === 0) return;
    this.reserve(len);
    this.text += s;
    for (let k = 0; k < len; k++) {
      this.starts[this.n] = start;
      this.ends[this.n++] = end;
    }
  }

  private reserve(len: number): void {
    if (this.n + len <= this.starts.length) return;
    const cap = Math.max(this.starts.length * 2, this.n + len);
    const starts = new Int32Array(cap);
    const ends = new Int32Array(cap);
    starts.set(this.starts.subarray(0, this.n));
    ends.set(this.ends.subarray(0, this.n));
    this.starts = starts;
    this.ends = ends;
  }

  /** Appends all of `a`. */
  append(a: Aligned): void {
    const len = a.text.length;
    if (len === 0) return;
    if (a.starts.length !== len || a.ends.length !== len) throw misaligned(a, Math.min(a.starts.length, a.ends.length));
    this.reserve(len);
    this.text += a.text;
    this.starts.set(a.starts, this.n);
    this.ends.set(a.ends, this.n);
    this.n += len;
  }

  /** Appends units [from, to) of `a`, each with its own original range (as `push` of every unit would). */
  appendUnits(a: Aligned, from: number, to: number): void {
    if (to > from) this.append(sliceAligned(a, from, to));
  }

  build(): Aligned {
    return { text: this.text, starts: this.starts.slice(0, this.n), ends: this.ends.slice(0, this.n) };
  }
}

/** Calls `f(start, end)` for every code point of text (unit range). */
function forEachCodePoint(text: string, f: (i: number, j: number) => void): void {
  for (let i = 0; i < text.length;) {
    const j = i + ((text.codePointAt(i) ?? 0) > 0xffff ? 2 : 1); // i < text.length: a code point is there
    f(i, j);
    i = j;
  }
}

/** Original range covered by units [i, j) of a. */
function rangeOf(a: Aligned, i: number, j: number): [number, number] {
  let s = a.starts[i];
  let e = a.ends[i];
  if (s === undefined || e === undefined) throw misaligned(a, i);
  for (let k = i + 1; k < j; k++) {
    const sk = a.starts[k];
    const ek = a.ends[k];
    if (sk === undefined || ek === undefined) throw misaligned(a, k);
    if (sk < s) s = sk;
    if (ek > e) e = ek;
  }
  return [s, e];
}

/** Replaces every code point c by f(c) (possibly empty or several characters). */
export function mapCodePoints(a: Aligned, f: (c: string) => string): Aligned {
  const out = new AlignedBuilder(a.text.length + 16);
  const { text, starts, ends } = a;
  for (let i = 0; i < text.length;) {
    const c = text.charCodeAt(i);
    const s = starts[i];
    const e = ends[i];
    if (s === undefined || e === undefined) throw misaligned(a, i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const lo = text.charCodeAt(i + 1);
      if (lo >= 0xdc00 && lo <= 0xdfff) {
        const s2 = starts[i + 1];
        const e2 = ends[i + 1];
        if (s2 === undefined || e2 === undefined) throw misaligned(a, i + 1);
        out.push(f(text.slice(i, i + 2)), Math.min(s, s2), Math.max(e, e2));
        i += 2;
        continue;
      }
    }
    out.push(f(text.charAt(i)), s, e);
    i++;
  }
  return out.build();
}

const CLUSTER_RE = /[^]\p{M}+/gu; // a code point followed by at least one combining mark

/**
 * Replaces every cluster (a code point plus the combining marks that follow it) by f(cluster), for
 * transformations such as Unicode normalisation that must see the whole cluster (composition, mark reordering).
 * When mapping the code points one by one gives the same text, each output keeps its own code point's range
 * (so "#\uFE0F\u20E3" stripped of its variation selector still maps "⃣" to its own offset), and a code point
 * that maps to nothing (a stripped accent) joins the range of the output before it in the cluster, so the
 * accent stays with its base letter; otherwise the whole output maps to the whole cluster.
 */
export function mapClusters(a: Aligned, f: (cluster: string) => string): Aligned {
  const re = new RegExp(CLUSTER_RE);
  let m: RegExpExecArray | null;
  let done = 0; // units before this are emitted
  const out = new AlignedBuilder(a.text.length + 16);
  const emitSingles = (to: number) => {
    // code points with no marks after them: their own clusters
    if (done < to) {
      out.append(mapCodePoints(sliceAligned(a, done, to), f));
    }
  };
  while ((m = re.exec(a.text)) !== null) {
    emitSingles(m.index);
    const cluster = m[0];
    const at = m.index;
    const whole = f(cluster);
    const pieces: [string, number, number][] = [];
    let joined = '';
    forEachCodePoint(cluster, (i, j) => {
      const piece = f(cluster.slice(i, j));
      pieces.push([piece, at + i, at + j]);
      joined += piece;
    });
    if (joined === whole) {
      const kept: [string, number, number][] = [];
      for (const [piece, i, j] of pieces) {
        const [s, e] = rangeOf(a, i, j);
        const last = kept[kept.length - 1];
        if (piece.length > 0 || !last) kept.push([piece, s, e]);
        else [last[1], last[2]] = [Math.min(last[1], s), Math.max(last[2], e)];
      }
      for (const [piece, s, e] of kept) out.push(piece, s, e);
    } else {
      const [s, e] = rangeOf(a, at, at + cluster.length);
      out.push(whole, s, e);
    }
    done = at + cluster.length;
  }
  emitSingles(a.text.length);
  return out.build();
}

/**
 * Inserts `s` before the first unit (as HF's NormalizedString.prepend; nothing for an empty string). The inserted
 * units own no source text: they map to the empty range where the first unit starts (HF aligns them with the
 * first character, which would make a lone "▁" or "Ġ" token overlap the token of that character).
 */
export function prependAligned(a: Aligned, s: string): Aligned {
  if (a.text.length === 0 || s.length === 0) return a;
  const first = a.starts[0];
  if (first === undefined) throw misaligned(a, 0);
  const out = new AlignedBuilder(a.text.length + s.length);
  out.push(s, first, first);
  out.append(a);
  return out.build();
}

/** Replaces each [start, end) range (in order, not overlapping) by `content`, aligned with the replaced units. */
export function replaceRangesAligned(a: Aligned, ranges: readonly (readonly [number, number])[], content: string): Aligned {
  if (ranges.length === 0) return a;
  const out = new AlignedBuilder(a.text.length);
  let i = 0;
  for (const [k, end] of ranges) {
    out.appendUnits(a, i, k);
    if (end > k) {
      const [s, e] = rangeOf(a, k, end);
      if (content.length > 0) out.push(content, s, e);
    } else if (content.length > 0) {
      const at = k < a.text.length ? a.starts[k] : a.ends[k - 1]; // an insertion: the empty range where unit k starts
      if (at === undefined) throw misaligned(a, k < a.text.length ? k : k - 1);
      out.push(content, at, at);
    }
    i = Math.max(i, end);
  }
  out.appendUnits(a, i, a.text.length);
  return out.build();
}

/** Replaces every occurrence of `pattern` by `content`; the replacement aligns with the replaced units. */
export function replaceAligned(a: Aligned, pattern: string, content: string): Aligned {
  if (pattern.length === 0) return a;
  const out = new AlignedBuilder(a.text.length);
  let i = 0;
  for (;;) {
    const k = a.text.indexOf(pattern, i);
    const stop = k < 0 ? a.text.length : k;
    out.appendUnits(a, i, stop);
    if (k < 0) break;
    const [s, e] = rangeOf(a, k, k + pattern.length);
    if (content.length > 0) out.push(content, s, e);
    i = k + pattern.length;
  }
  return out.build();
}
