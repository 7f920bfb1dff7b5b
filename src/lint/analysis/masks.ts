// Mask polarity inference: what a mask's True (or 1) entries mean, and how negation, comparison,
// transposition and combination change it. Pure functions over MaskInfo.
import { msg, type MessageArg, type MessageParts } from '../message';
import { PHRASES } from './phrases';
import type { DType, MaskInfo, MaskJoin, TriRegion } from './values';

/** A triangular mask's polarity: True above the diagonal marks the future (ignore); True on/below it keeps. */
export function triMask(tri: TriRegion, dtype: DType | undefined, why: MessageArg): MaskInfo {
  return { polarity: tri.region === 'upper' ? 'ignore' : 'keep', tri, causal: true, dtype, why };
}

/**
 * An additive mask (0 where kept, -inf or a large negative number where masked) read where a 0/1 mask is expected
 * (`.bool()`, `~m`, `1 - m`): its nonzero entries are the masked positions, so as a 0/1 mask True/1 means ignore.
 * Only for masks whose construction shows them additive (not a name), so the reading is a fact of the code.
 */
export function additiveAsZeroOne(m: MaskInfo, dtype?: DType): MaskInfo | undefined {
  // An additive reading assumed for a mask of unknown meaning added to zeros (`bias = zeros(...) + attention_mask`,
  // ops.ts: addSub) is no construction: the tensor may as well hold 0/1 (`1 - bias` then reads it as the code means).
  if (!m.additive || m.byName || m.additiveAssumed) return undefined;
  const { additive: _additive, builtFrom: _builtFrom, ...rest } = m;
  return { ...rest, polarity: 'ignore', dtype: dtype ?? m.dtype, why: msg(PHRASES.additiveReadAsZeroOne, m.why), fromAdditive: true };
}

/**
 * `isinf(m)` / `isneginf(m)` of an additive mask whose masked entries are -inf: True where it masks (ignore);
 * `isfinite(m)`: True where it keeps. Undefined for any other mask (a finite large negative value is never inf).
 */
export function infOfAdditive(m: MaskInfo | undefined, test: 'inf' | 'finite', how: MessageArg): MaskInfo | undefined {
  if (!m?.additive || !m.negInf || m.byName) return undefined;
  const { additive: _additive, builtFrom: _builtFrom, negInf: _negInf, ...rest } = m;
  return { ...rest, polarity: test === 'inf' ? 'ignore' : 'keep', dtype: 'bool', why: msg(PHRASES.sameAs, how, m.why) };
}

/** `~m`, `m == 0`, `1 - m`, `logical_not(m)`: True and False swap. An additive mask is first read as a 0/1 one. */
export function flipMask(m0: MaskInfo, how: MessageArg, dtype?: DType): MaskInfo | undefined {
  // A count of masks (0 to 2): `1 - m` is -1 where both are, `~m` nonzero everywhere; no flip (compare reads `== 0`).
  if (m0.count && !m0.additive) return undefined;
  // A negated mask (`keep - 1`, -1 where True) compared with 0 or negated logically (`== 0`, `logical_not`) is a 0/1
  // (boolean) mask again; `1 - m` of it is no mask at all (ops.ts: addSub).
  const { negated: _negated, paddingPair: _paddingPair, zerosOf: _zerosOf, ...m1 } = m0;
  const m = m1.additive ? additiveAsZeroOne(m1) : m1;
  if (!m) return undefined;
  // A mask of unknown polarity flipped is still a mask of unknown polarity.
  const pairJoin = m.pairJoin ? { pairJoin: m.pairJoin === 'and' ? ('or' as const) : ('and' as const) } : {};
  if (!m.polarity)
    return {
      ...m,
      ...flippedBound(m),
      ...pairJoin,
      ...(m0.zerosOf ? {} : { zerosOf: true as const }),
      dtype: dtype ?? m.dtype,
      why: msg(PHRASES.flippedOf, how, m.why),
    };
  const tri: TriRegion | undefined = m.tri ? (m.tri.region === 'upper' ? { region: 'lower', k: m.tri.k - 1 } : { region: 'upper', k: m.tri.k + 1 }) : undefined;
  return {
    ...m,
    polarity: m.polarity === 'keep' ? 'ignore' : 'keep',
    ...flippedBound(m),
    // True and False swap: the complement of an and of two terms is the or of their complements.
    ...pairJoin,
    tri,
    dtype: dtype ?? m.dtype,
    why: msg(PHRASES.flippedOf, how, m.why),
    byName: m.byName,
  };
}

/** A flipped mask's causal bound: the triangle's polarity flips with it (`~(future | pad)` is within the past). */
function flippedBound(m: MaskInfo): Pick<MaskInfo, 'causalBound'> {
  const b = m.causalBound;
  return b ? { causalBound: { ...b, polarity: b.polarity === 'keep' ? 'ignore' : 'keep' } } : {};
}

/**
 * A causal triangle the code builds, and nothing else: a literal diagonal on the causal edge (`triu(ones, 1)`,
 * `triu(ones)`, `tril(ones)`, `tril(ones, -1)`; band and window edges have no polarity, mask-ops.ts: bandEdge).
 */
function causalTriangle(m: MaskInfo): boolean {
  return shownByCode(m) && !m.padding && !!m.tri && Math.abs(m.tri.k) <= 1 && (m.tri.region === 'upper' ? m.tri.k >= 0 : m.tri.k <= 0);
}

/**
 * The side of the diagonal a triangle built by the code marks (`triu` upper, `tril` lower; one whose diagonal is a
 * size the code does not fix, `triu(ones, M + 1)`, by the side its polarity stands for); undefined for any other mask.
 */
function triangleSide(m: MaskInfo | undefined): 'upper' | 'lower' | undefined {
  if (!m || m.padding || m.join || m.additive || !shownByCode(m)) return undefined;
  if (m.tri) return m.tri.region;
  return m.causal && m.polarity ? (m.polarity === 'ignore' ? 'upper' : 'lower') : undefined;
}

/** The causal bound a combination with `a` and `b` keeps: one triangle's (or both, when they agree). */
export function causalBoundOf(a: MaskInfo | undefined, b: MaskInfo | undefined): Pick<MaskInfo, 'causalBound'> {
  const of = (m: MaskInfo | undefined): MaskInfo['causalBound'] =>
    m ? (m.causalBound ?? (causalTriangle(m) && m.polarity ? { polarity: m.polarity, part: m } : undefined)) : undefined;
  // An upper and a lower triangle joined (`triu(ones, M + 1) + tril(ones, 0)`, Transformer-XL's same-length mask over
  // memory and new keys) mark the two sides of a band: the outside (or inside) of a window of keys, not a causal
  // triangle bounded by another mask, so neither triangle bounds what the result means.
  const [sa, sb] = [triangleSide(a), triangleSide(b)];
  if (sa && sb && sa !== sb) return {};
  const [x, y] = [of(a), of(b)];
  const bound = x && y ? (x.polarity === y.polarity ? x : undefined) : (x ?? y);
  return bound ? { causalBound: bound } : {};
}

/** Swapping the last two axes of a mask: upper and lower triangles swap, query and key sides swap. */
export function transposeMask(m: MaskInfo): MaskInfo {
  const tri: TriRegion | undefined = m.tri ? { region: m.tri.region === 'upper' ? 'lower' : 'upper', k: 0 - m.tri.k || 0 } : undefined;
  const padAxes = m.padAxes?.map((a) => (a === -1 ? -2 : a === -2 ? -1 : a));
  // A transposed triangle is no longer on the causal side it was built on: no bound is kept.
  const { align: _align, causalBound: _bound, ...rest } = m;
  const out: MaskInfo = { ...rest, tri, padAxes, ...(m.sizes ? { sizes: [m.sizes[1], m.sizes[0]] as const } : {}) };
  if (tri && !m.additive) return { ...out, polarity: tri.region === 'upper' ? 'ignore' : 'keep' };
  return out;
}

/** A mask converted to another dtype; an additive mask made boolean is True where it masked (`additive.bool()`). */
export function withMaskDtype(m: MaskInfo, dtype: DType | undefined): MaskInfo {
  // A count of masks made boolean is True where it is nonzero: the or it stands for.
  if (m.count && dtype === 'bool') {
    const { count: _count, ...or } = m;
    return withMaskDtype(or, dtype);
  }
  if (m.additive && dtype === 'bool') return additiveAsZeroOne(m, 'bool') ?? { ...m, dtype };
  // A negated mask (`keep - 1`, -1 where True) made boolean is True where it was -1: an ordinary mask of that meaning.
  if (m.negated && dtype === 'bool') {
    const { negated: _negated, ...rest } = m;
    return { ...rest, dtype };
  }
  return dtype === m.dtype ? m : { ...m, dtype };
}

/**
 * `a & b`, `a * b` (logical and) or `a | b` (logical or) of two masks with the same polarity. A causal and a padding
 * part known from their construction combined the way their polarities do not combine (keep masks with or, ignore
 * masks with and, or one of each with any operator) carry that as `join`, for ATT002 to report where a use reads the
 * result; one of each has no polarity.
 */
export function combineMasks(a: MaskInfo, b: MaskInfo, op: 'and' | 'or'): MaskInfo | undefined {
  if (a.additive && b.additive && op === 'and') return undefined;
  const bound = causalBoundOf(a, b);
  if (a.polarity && b.polarity && a.polarity !== b.polarity) {
    const join = wrongJoin(a, b, op);
    const dtype = a.dtype === b.dtype && a.dtype ? { dtype: a.dtype } : {};
    // No polarity; a causal triangle in it still bounds what the result can mean (`query_keep & future`).
    if (!join) return bound.causalBound ? { ...dtype, why: msg(PHRASES.combined, a.why, op === 'and' ? '&' : '|', b.why), ...bound } : undefined;
    return { ...dtype, why: msg(PHRASES.combined, a.why, op === 'and' ? '&' : '|', b.why), join, ...bound };
  }
  // A combination of one meaning and nothing else (the mixed join, no polarity) stays that: combined further it is
  // still garbled.
  if (!a.polarity && a.join?.kind === 'mixed') return { why: msg(PHRASES.combined, a.why, op === 'and' ? '&' : '|', b.why), join: carriedJoin(a) };
  if (!b.polarity && b.join?.kind === 'mixed') return { why: msg(PHRASES.combined, a.why, op === 'and' ? '&' : '|', b.why), join: carriedJoin(b) };
  if (!a.polarity || a.polarity !== b.polarity || windowEdges(a, b))
    return bound.causalBound ? { why: msg(PHRASES.combined, a.why, op === 'and' ? '&' : '|', b.why), ...bound } : undefined;
  const join = wrongJoin(a, b, op) ?? furtherJoined(a, b);
  const padAxes = [...new Set([...(a.padAxes ?? []), ...(b.padAxes ?? [])])];
  const pairJoin = queryKeyPair(a, b) ? { pairJoin: op } : carriedPair(a, b);
  return {
    ...pairJoin,
    polarity: a.polarity,
    dtype: a.dtype === b.dtype ? a.dtype : a.dtype === 'bool' || b.dtype === 'bool' ? 'bool' : undefined,
    padding: a.padding || b.padding ? true : undefined,
    causal: a.causal || b.causal || !!a.tri || !!b.tri ? true : undefined,
    padAxes: padAxes.length > 0 ? padAxes : undefined,
    why: msg(PHRASES.combined, a.why, op === 'and' ? '&' : '|', b.why),
    byName: a.byName || b.byName ? true : undefined,
    documented: a.documented || b.documented ? true : undefined,
    nameSource: a.nameSource ?? b.nameSource,
    // A causal part combined with padding keeps its alignment.
    ...(a.align && !b.causal && !b.tri ? { align: a.align, sizes: a.sizes } : b.align && !a.causal && !a.tri ? { align: b.align, sizes: b.sizes } : {}),
    ...(join ? { join } : {}),
    ...bound,
  };
}

/**
 * Two masks from lengths over the same axis, one of them reversed along it (`sequence_mask(start, T) |
 * sequence_mask(T - width - start, T)[:, ::-1]`, True before a window and after it): no batch is padded at both ends, so
 * the join marks a window's edges (Tacotron's windowed attention), not padding, and its meaning is not known.
 */
function windowEdges(a: MaskInfo, b: MaskInfo): boolean {
  if (!a.reversed === !b.reversed || !a.padding || !b.padding || a.tri || b.tri || a.causal || b.causal) return false;
  return (a.padAxes ?? []).join() === (b.padAxes ?? []).join();
}

/**
 * The bound names of a mask from lengths that count each example's tokens (`lengths`, `src_lens`, `seq_len`): a
 * prefix's or a window's length (`prefix_len`) builds the same comparison over columns that are no padding.
 */
const TOKEN_LENGTHS = /^(?:(?:src|tgt|seq|input|text|token|valid|x|y|enc|dec|batch)_?)?(?:lens?|lengths?|seq_?lens?|seqlens?|n_tokens|num_tokens|ntokens)$/i;

/** A part whose meaning the code shows (not a name or prose), not itself an additive mask or a count. */
function shownByCode(m: MaskInfo): boolean {
  return !!m.polarity && !m.byName && !m.documented && !m.additive && !m.count && !m.negated && !m.scaledPositive && !m.join;
}

/** A causal triangle (or a causal mask built from positions) with no padding in it. */
function causalPart(m: MaskInfo): boolean {
  return shownByCode(m) && (!!m.tri || !!m.causal) && !m.padding;
}

/**
 * A padding mask of the keys built from padding: a comparison of token ids with the padding id, a tokenizer's mask,
 * lengths that count tokens. Not a mask of a prefix's columns (`arange(S) < prefix_len`), which a prefix LM joins with its causal
 * mask by or on purpose.
 */
function paddingPart(m: MaskInfo): boolean {
  if (!shownByCode(m) || !m.padding || m.causal || m.tri) return false;
  // Padding of the keys only: a causal mask joined with a mask of the real queries (`future & real_q[:, :, None]`)
  // leaves the padding queries' rows unmasked on purpose (no row of -inf), and their outputs are dropped.
  if (m.padAxes?.length !== 1 || m.padAxes[0] !== -1) return false;
  if (m.lengthBound !== undefined) return TOKEN_LENGTHS.test(m.lengthBound.slice(m.lengthBound.lastIndexOf('.') + 1));
  return true;
}

/**
 * Keep masks combine with and, ignore masks with or: a causal and a padding part joined otherwise (keep with or,
 * ignore with and, or one of each) is the join ATT002 reports, with both parts.
 */
function wrongJoin(a: MaskInfo, b: MaskInfo, op: 'and' | 'or'): MaskJoin | undefined {
  const [causal, pad] = causalPart(a) && paddingPart(b) ? [a, b] : causalPart(b) && paddingPart(a) ? [b, a] : [undefined, undefined];
  if (!causal || !pad) return undefined;
  if (causal.polarity !== pad.polarity) return { kind: 'mixed', causal, pad };
  if (causal.polarity === 'keep' && op === 'or') return { kind: 'keepUnion', causal, pad };
  if (causal.polarity === 'ignore' && op === 'and') return { kind: 'ignoreIntersection', causal, pad };
  return undefined;
}

/**
 * One mask is padding spread over the query axis only and the other padding spread over the key axis only
 * (`pad.unsqueeze(2)` and its transpose, `mask_d.eq(0).unsqueeze(2)` and `mask_e.eq(0).unsqueeze(1)`): their
 * elementwise combination is a pair mask (MaskInfo.pairJoin).
 */
function queryKeyPair(a: MaskInfo, b: MaskInfo): boolean {
  const only = (m: MaskInfo, axis: number): boolean => !m.tri && !m.causal && m.padAxes?.length === 1 && m.padAxes[0] === axis;
  return (only(a, -2) && only(b, -1)) || (only(a, -1) && only(b, -2));
}

/**
 * A pair mask combined with a mask that pads no query (a causal triangle, `(pad & pad.T) | future`, or key padding)
 * keeps the pair's record: the query side of the result is still the pair's query term joined with its key term, so
 * whether a fill of it can empty a padded query's row is still read from how the pair was joined (emptyRowReason); the
 * other part adds its own reasons (a triangle hiding the diagonal, causal with left padding). Dropped when both parts
 * are pairs or the other part pads the queries or has padding on axes the code does not show.
 */
function carriedPair(a: MaskInfo, b: MaskInfo): { pairJoin?: 'and' | 'or' } {
  const padsNoQuery = (m: MaskInfo): boolean =>
    !m.pairJoin && !hidesDiagonal(m) && (m.padding ? m.padAxes?.length === 1 && m.padAxes[0] === -1 : !!m.tri || !!m.causal);
  if (a.pairJoin && padsNoQuery(b)) return { pairJoin: a.pairJoin };
  if (b.pairJoin && padsNoQuery(a)) return { pairJoin: b.pairJoin };
  return {};
}

/**
 * A triangle whose region a fill of its polarity covers includes the diagonal (`triu(ones)` used as "ignore",
 * `tril(ones, -1)` as "keep"): the first row is emptied whatever it is combined with. The combination drops the
 * triangle, so a pair's record is not carried past it (the row is then reported as padding of the queries, as before).
 */
function hidesDiagonal(m: MaskInfo): boolean {
  if (!m.tri || !m.polarity) return false;
  const filled: TriRegion =
    m.polarity === 'ignore' ? m.tri : m.tri.region === 'upper' ? { region: 'lower', k: m.tri.k - 1 } : { region: 'upper', k: m.tri.k + 1 };
  return filled.region === 'upper' && filled.k <= 0;
}

/**
 * A wrongly joined mask combined further with a mask of the same meaning (`(causal | pad) & valid_rows`, `rows &
 * (causal | pad)`): the and of a union of keep masks keeps every future key the union let through where the other
 * part allows it, so the record stays, pointing at the inner combination. Not when the other part is itself causal
 * and padding at once (it could be the correct combination, which and-ed in repairs the union).
 */
function furtherJoined(a: MaskInfo, b: MaskInfo): MaskJoin | undefined {
  const [joined, other] = a.join ? [a, b] : b.join ? [b, a] : [undefined, undefined];
  if (!joined || !other) return undefined;
  if ((other.causal || other.tri) && other.padding && !other.join) return undefined;
  return carriedJoin(joined);
}

/** The join record of `m`, placed at the combination that made it (its first one, if it was carried before). */
function carriedJoin(m: MaskInfo): MaskJoin | undefined {
  const j = m.join;
  if (!j) return undefined;
  const at = j.at ?? m.origin;
  return at ? { ...j, at } : j;
}

/** The mask lattice as the rules name it: what a 1/True entry means, and for causal masks where the diagonal starts. */
export interface MaskMeaning {
  readonly polarity: 'keep' | 'ignore' | 'additive' | 'unknown';
  /** 'causal' when triangular but the alignment is not shown by the construction. */
  readonly causal?: 'causal-top-left' | 'causal-bottom-right' | 'causal';
}

export function maskMeaning(m: MaskInfo | undefined): MaskMeaning {
  if (!m) return { polarity: 'unknown' };
  const polarity = m.additive ? 'additive' : m.polarity && !m.byName ? m.polarity : 'unknown';
  if (!m.causal && !m.tri) return { polarity };
  return { polarity, causal: m.align === 'top-left' ? 'causal-top-left' : m.align === 'bottom-right' ? 'causal-bottom-right' : 'causal' };
}

/** The sides (L, S) of a causal mask that is top-left aligned over a rectangle whose two sides are written differently. */
export function topLeftRectangleSizes(m: MaskInfo | undefined): readonly [string, string] | undefined {
  return m?.align === 'top-left' && m.sizes && m.sizes[0] !== m.sizes[1] ? m.sizes : undefined;
}

/**
 * The width of the cache's columns a square causal triangle was joined with on its right (values.ts: cachedColumns),
 * quoted; undefined for every other mask.
 */
export function cacheColumnsAfter(m: MaskInfo | undefined): string | undefined {
  return m?.cachedColumns?.side === 'right' ? `\`${m.cachedColumns.width}\`` : undefined;
}

/** A causal mask that is top-left aligned over a rectangle whose two sides are written differently (L×S). */
export function topLeftRectangle(m: MaskInfo | undefined): boolean {
  return topLeftRectangleSizes(m) !== undefined;
}

/**
 * Whether a row of the mask can have every key masked: a causal mask that also masks the diagonal
 * (`triu(ones)` used as "ignore", `tril(ones, -1)` used as "keep"), or padding that varies along the
 * query axis (`pad_mask.unsqueeze(-1)`, an outer product of padding masks).
 *
 * `axes` is what the masked scores say about their layout (negative indices): the key axis (the one the softmax
 * normalises) and the query axis. The usual layout is (..., queries, keys); scores laid out otherwise
 * (`einsum("bhd,bthd->bth")` softmaxed over dim=1: (batch, keys, heads)) have no query axis at -2, so padding that
 * varies along -2 there hides keys, not queries. With the key axis known and not last, padding counts as query
 * padding only along a query axis the scores state.
 */
export function emptyRowReason(
  m: MaskInfo,
  axes: { readonly keyAxis?: number; readonly queryAxis?: number } | undefined,
  fills: 'true' | 'false',
): MessageParts | undefined {
  if (m.tri) {
    // The op says which region it fills (masked_fill fills where the mask is True, `where(m, scores, -inf)` where it
    // is False), whatever the mask's polarity is thought to be: the first query row is all filled only when the
    // filled region is an upper triangle from the diagonal or below it (j - i >= k with k <= 0). Used the wrong way
    // round (`triu(ones) == 0` filled: the strict lower triangle), a triangle empties no row (ATT002's finding).
    const filled: TriRegion = fills === 'true' ? m.tri : m.tri.region === 'upper' ? { region: 'lower', k: m.tri.k - 1 } : { region: 'upper', k: m.tri.k + 1 };
    if (filled.region === 'upper' && filled.k <= 0) return msg(PHRASES.hidesDiagonal);
  }
  const key = axes?.keyAxis;
  const queryAxis = axes?.queryAxis ?? (key === undefined || key === -1 ? -2 : undefined);
  // A pair mask whose filled region is where both its query-side and key-side terms hold (`pad_q & pad_k` filled where
  // True, `where(keep_q | keep_k, s, -inf)`) hides a key of a padded query row only where the key term does too: the
  // query side alone empties no row (the row of a padded query keeps every real key).
  const filledWhereBoth = !m.additive && queryAxis === -2 && !!m.pairJoin && (m.pairJoin === 'and') === (fills === 'true');
  if (queryAxis !== undefined && queryAxis !== key && m.padAxes?.includes(queryAxis) && !filledWhereBoth) return msg(PHRASES.padsQueryAxis);
  if (causalWithPaddingOnly(m)) return msg(PHRASES.causalWithPadding);
  return undefined;
}

/**
 * The mask combines a causal part with a padding part and no triangle of its own: rows empty only when the padding is
 * on the left (emptyRowReason's last case; the caller asks the code whether it pads there, leftPaddingShown).
 */
export function causalWithPaddingOnly(m: MaskInfo): boolean {
  return !!m.causal && !!m.padding && !m.tri;
}

export function describePolarity(p: 'keep' | 'ignore'): MessageParts {
  return msg(p === 'keep' ? PHRASES.keepPolarity : PHRASES.ignorePolarity);
}
