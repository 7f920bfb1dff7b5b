// Shape transfer functions: what reshapes, transposes, permutes, squeezes, splits, indexing, broadcasting,
// reductions and contractions (matmul, einsum) do to a tensor's rank, its per-axis facts (labels, sizes of 1)
// and the facts kept as negative axis indices (the key and query axes of attention scores, the softmax axis, a
// mask's padding axes). ops.ts dispatches the torch / NumPy / TF / JAX spellings here; each function returns
// what the code proves and drops what it cannot follow.
import { intLiteral, operatorText, stringLiteral } from '../syntax/python';
import { childByField, namedChildren, unparen, type PyNode } from '../syntax/tree';
import { intOf, isStarred, mutable, rootName, tensorish, type Call, type Mutable } from './call';
import type { Evaluator } from './evaluator';
import {
  einopsAxisMap,
  einopsLabels,
  labelOfAxisName,
  negIndexInTerm,
  normalisePerm,
  parseEinopsPattern,
  parseEinsum,
  isPermutation,
  posAxis,
  swapNegative,
} from './layout';
import { transposeMask } from './masks';
import { msg, type MessageArg } from '../message';
import { PHRASES } from './phrases';
import { axisLabelOfName, dimOfName, isContextName, isHeadCountName, roleOfName, weightRole } from './names';
import {
  UNKNOWN,
  addOp,
  axesOf,
  axisAt,
  crossOps,
  negAxis,
  number,
  tensor,
  withRank,
  type AValue,
  type AttnInfo,
  type AxisInfo,
  type AxisLabel,
  type DimInfo,
  type MaskInfo,
  type ProjectionInfo,
  type Role,
} from './values';

/**
 * The dimension an axis of a tensor stands for, as a number value (`k.size(-1)`, `q.shape[-1]`). `rank` is the
 * tensor's rank where the code states it otherwise (the names of `B, T, C = x.shape`); it only marks the other axes.
 */
export function dimOfShape(t: AValue, index: number, rank?: number): AValue {
  const ax = axisAt(t, index);
  // An axis known to have length 1 (`x.unsqueeze(2).size(2)`) is the number 1.
  if (ax?.size1) return number({ num: 1 });
  const ndim = t.ndim;
  const isLast = index === -1 || (ndim !== undefined && index === ndim - 1);
  const text = `${t.roleText ?? 'x'}.shape[${index}]`;
  if (ax?.sizeText) {
    const byName = dimOfName(ax.sizeText);
    // A width named like the model's (`D`, `C`) on the last axis of a tensor split into heads is each head's width.
    const perHead = byName?.which === 'model' && isLast && (t.multiHead || !!t.axes?.some((a) => a.label === 'head'));
    if (byName) return number({ dimPow: { dim: { ...byName, ...(perHead ? { which: 'head' as const } : {}), ofTensor: t }, power: 1 } });
  }
  // A last axis labelled as heads by its name while an earlier axis is the head axis (`view(b, n, self.n_head, self.head)`):
  // a tensor has one head axis, and the size after it is each head's width, whatever it is called.
  const headAgain = isLast && ax?.label === 'head' && (t.axes ?? []).slice(0, -1).some((a) => a.label === 'head');
  if (ax?.label === 'head' && !headAgain) return number({ headCount: true, headCountAxis: true, ...(isLast ? { headCountOf: t } : {}) });
  if (ax?.label === 'feat' || isLast) {
    const which: DimInfo['which'] = t.multiHead
      ? 'head'
      : t.featLast && t.projectedWidth
        ? 'model'
        : t.role === 'query' || t.role === 'key'
          ? 'head'
          : 'unknown';
    return number({ dimPow: { dim: { which, text, ofTensor: t, ...(isLast ? { lastAxisOf: true } : {}) }, power: 1 } });
  }
  // An axis known not to be the last (`x.shape[0]` of `rows, cols, batch, embed = x.shape`, `x.shape[-2]`): a length or a count.
  const n = ndim ?? rank;
  const otherAxis = index < -1 || (n !== undefined && index >= 0 && index < n - 1);
  return number({ dimPow: { dim: { which: 'unknown', text, ofTensor: t, ...(otherAxis ? { otherAxis: true } : {}) }, power: 1 } });
}

export function dropFirstAxis(v: AValue): AValue {
  if (v.kind !== 'tensor') return UNKNOWN;
  const axes = axesOf(v);
  const out = mutable(v);
  delete out.mask;
  delete out.attn;
  if (v.ndim !== undefined) {
    out.ndim = v.ndim - 1;
    out.axes = axes ? axes.slice(1) : undefined;
  }
  return out;
}

/**
 * An elementwise result of two operands (a product, a sum, a comparison of tensors): the ranks broadcast from
 * the right, and each axis is the operand's that is not of length 1 there (labels kept where they agree).
 */
export function broadcastResult(a: AValue, b: AValue): AValue {
  if (a.kind === 'tensor' && b.kind !== 'tensor') return b.kind === 'unknown' ? withoutSize1(stripFacts(a)) : stripFacts(a);
  if (b.kind === 'tensor' && a.kind !== 'tensor') return a.kind === 'unknown' ? withoutSize1(stripFacts(b)) : stripFacts(b);
  if (a.kind === 'tensor' && b.kind === 'tensor') {
    // Two floating tensors combined (`wte(ids) + wpe(pos)`) are floating; any other dtype is left unknown.
    const floating = FLOATING.has(String(a.dtype)) && FLOATING.has(String(b.dtype));
    return tensor({ ...broadcastLayout(a, b), ...(floating ? { dtype: a.dtype === b.dtype ? a.dtype : 'float' } : {}) });
  }
  return UNKNOWN;
}

const FLOATING: ReadonlySet<string> = new Set(['float', 'float16', 'bfloat16', 'float32', 'float64']);

/**
 * q * k (or q' + k', `how: 'sum'`) broadcast against each other (`q.unsqueeze(2) * k.unsqueeze(1)`): where q has length 1 and k does not is
 * the key axis, and the other way round the query axis. Summed over the features (see reduction) it is the
 * attention scores. Undefined unless each of those axes is unique and the ranks are known.
 */
export function pairwiseProduct(
  ev: Evaluator,
  a: AValue,
  b: AValue,
  aNode: PyNode | undefined,
  bNode: PyNode | undefined,
  node: PyNode,
  how: 'product' | 'sum' = 'product',
): AValue | undefined {
  const ra = roleOf(ev, a, aNode);
  const rb = roleOf(ev, b, bNode);
  const [q, k, qNode, kNode] =
    ra === 'query' && (rb === 'key' || rb === 'context')
      ? [a, b, aNode, bNode]
      : rb === 'query' && (ra === 'key' || ra === 'context')
        ? [b, a, bNode, aNode]
        : [];
  if (!q || !k || q.ndim === undefined || q.ndim !== k.ndim) return undefined;
  const qx = axesOf(q);
  const kx = axesOf(k);
  if (!qx || !kx) return undefined;
  const n = q.ndim;
  const keyAxes = qx.map((x, i) => (x.size1 && !kx[i]?.size1 ? i : -1)).filter((i) => i >= 0);
  const queryAxes = kx.map((x, i) => (x.size1 && !qx[i]?.size1 ? i : -1)).filter((i) => i >= 0);
  const [keyAxis] = keyAxes;
  const [queryAxis] = queryAxes;
  // No query axis: each query meets keys of its own along the key axis, the other axes aligned (a local window of
  // keys unfolded around each query position, SASA's `(q * k).sum(dim=2)`), when q and k are otherwise the same shape
  // as stated (every other axis of the same size text). Products only: a sum (additive attention) stays unread.
  const local = how === 'product' && queryAxes.length === 0 && keyAxis !== undefined && keyAxes.length === 1 && alignedBesides(qx, kx, keyAxis);
  if (keyAxes.length !== 1 || keyAxis === undefined || (!local && (queryAxes.length !== 1 || queryAxis === undefined))) return undefined;
  return tensor({
    ...broadcastLayout(q, k),
    // A sum (additive attention, then tanh and a projection) has no 1/sqrt(d) convention: its scale is opaque.
    ops: how === 'sum' ? [[{ kind: 'opaque', node }]] : crossOps(q, k),
    ...(q.multiHead || k.multiHead ? { multiHead: true } : {}),
    pairwise: {
      formedAt: node,
      ...(queryAxis !== undefined && !local ? { queryAxis: queryAxis - n } : {}),
      keyAxis: keyAxis - n,
      queryText: describe(ev, qNode, q),
      keyText: describe(ev, kNode, k),
      ...(roleOf(ev, k, kNode) === 'key' ? { keyIsKey: true } : {}),
      ...(how === 'sum' ? { additive: true } : {}),
      ...(q.proj ? { queryProj: q.proj } : {}),
    },
  });
}

/** Every axis but `except` has a size the code states (a name or a number), the same text in both operands. */
function alignedBesides(qx: readonly AxisInfo[], kx: readonly AxisInfo[], except: number): boolean {
  if (qx.length !== kx.length || qx.length < 3) return false;
  return qx.every((a, i) => i === except || (!!a.sizeText && a.sizeText === kx[i]?.sizeText && !a.size1 === !kx[i]?.size1));
}

/**
 * A tensor broadcast against a value of unknown shape (a parameter, an attribute: possibly a tensor) or of no
 * known layout: its length-1 axes may be stretched by the other operand (`Wq(q.unsqueeze(1)) + keys`, (B, 1, A) + (B, T, A)), so none is
 * known to have length 1 any more; the rank and axis labels stay.
 */
export function withoutSize1(t: AValue): AValue {
  if (!t.lastSize1 && !t.axes?.some((a) => a.size1)) return t;
  const out = mutable(t);
  delete out.lastSize1;
  if (t.axes)
    out.axes = t.axes.map((a) => {
      const { size1: _, ...rest } = a;
      return rest;
    });
  return out;
}

/**
 * `t` (attention scores) with a tensor added to it (a bias, `scores + other`): the sum keeps the scores' facts, but a
 * length-1 axis of theirs that the other operand has longer (or may have: its axis there is not known to be 1, or its
 * rank is unknown) is stretched by broadcasting, so it is no longer known to have length 1. The scores' rank stays.
 */
export function stretchedBy(t: AValue, other: AValue): AValue {
  if (other.kind !== 'tensor' || (!t.lastSize1 && !t.axes?.some((a) => a.size1))) return t;
  if (other.ndim === undefined || t.ndim === undefined) return withoutSize1(t);
  const n = t.ndim;
  const on = other.ndim;
  const ox = axesOf(other);
  const out = mutable(t);
  if (t.axes)
    out.axes = t.axes.map((a, i) => {
      // aligned from the right, as broadcasting aligns them
      const j = i - (n - on);
      const o = j >= 0 ? ox?.[j] : undefined;
      if (!a.size1 || j < 0 || o?.size1) return a;
      const { size1: _, ...rest } = a;
      return rest;
    });
  if (t.lastSize1 && on > 0 && !axisAt(other, -1)?.size1) delete out.lastSize1;
  return out;
}

/**
 * The layout two tensors broadcast to (see broadcastResult). Against a tensor of unknown rank (a parameter, an
 * attribute, `w * h`), the known operand's axes stay, aligned from the right as broadcasting aligns them, with its
 * length-1 axes no longer known to be 1 (the other operand may stretch them; its last axis only when that is not
 * known to be 1 too): the rank is the known one's, as the other operand is not known to have more axes.
 */
export function broadcastLayout(a: AValue, b: AValue): Pick<AValue, 'ndim' | 'axes' | 'lastSize1'> {
  if ((a.ndim === undefined) !== (b.ndim === undefined)) {
    const [known, other] = a.ndim !== undefined ? [a, b] : [b, a];
    if (!other.reversedUnknownRank && known.ndim !== undefined) return againstUnknownRank(known, other);
  }
  if (a.ndim === undefined || b.ndim === undefined) {
    const last1 = (t: AValue): boolean => t.lastSize1 === true || (t.ndim !== undefined && t.ndim > 0 && axisAt(t, -1)?.size1 === true);
    return last1(a) && last1(b) ? { lastSize1: true } : {};
  }
  const ndim = Math.max(a.ndim, b.ndim);
  const ax: readonly AxisInfo[] = axesOf(a) ?? Array.from({ length: a.ndim }, () => ({}));
  const bx: readonly AxisInfo[] = axesOf(b) ?? Array.from({ length: b.ndim }, () => ({}));
  const axes = Array.from({ length: ndim }, (_, i): AxisInfo => {
    const x = ax[i - (ndim - ax.length)] as AxisInfo | undefined;
    const y = bx[i - (ndim - bx.length)] as AxisInfo | undefined;
    if (!x || !y) return { ...(x ?? y) };
    if (x.size1 && !y.size1) return { ...y };
    if (y.size1 && !x.size1) return { ...x };
    const out: { -readonly [K in keyof AxisInfo]: AxisInfo[K] } = {};
    if (x.label && (x.label === y.label || !y.label)) out.label = x.label;
    else if (y.label && !x.label) out.label = y.label;
    if (x.size1 && y.size1) out.size1 = true;
    if (x.sizeText && x.sizeText === y.sizeText) out.sizeText = x.sizeText;
    return out;
  });
  return { ndim, axes };
}

/** `known` (of known rank) broadcast against `other` (a tensor of unknown rank): see broadcastLayout. */
function againstUnknownRank(known: AValue, other: AValue): Pick<AValue, 'ndim' | 'axes'> {
  const n = known.ndim ?? 0; // known rank (checked by the caller)
  const axes = axesOf(known) ?? Array.from({ length: n }, (): AxisInfo => ({}));
  return {
    ndim: n,
    axes: axes.map((x, i): AxisInfo => {
      if (!x.size1 || (i === n - 1 && other.lastSize1)) return { ...x };
      return x.label ? { label: x.label } : {};
    }),
  };
}

/**
 * `q[rows]` with an index tensor (or any index not known): the entries selected are q's own, so a scale folded into
 * q (its operations, and its role) is still on them; the shape, and a mask's or the scores' layout, are not known.
 */
function gatheredEntries(v: AValue): AValue {
  // (A learned parameter's operations are those of its initial value, not of the data: `randn(...) * 0.1`.)
  if (v.mask || v.attn || v.pairwise || v.learned) return tensor();
  return tensor({ ...(v.ops ? { ops: v.ops } : {}), ...(v.role ? { role: v.role } : {}), ...(v.roleText ? { roleText: v.roleText } : {}) });
}

/** Functions that draw a vector of row indices (`idx = torch.randint(0, N, (B,))`), as training loops sample a batch. */
const ROW_SAMPLERS =
  /^(?:torch|np|numpy|jnp|jax\.numpy|random|np\.random|numpy\.random|torch\.random)\.(?:randint|randperm|permutation|choice|arange|argsort)$/;

/**
 * A mask's rows gathered by an index along its first axis (`keep[idx]` with `idx = torch.randint(0, N, (B,))`,
 * `keep[idx, :cut]`, `keep[rows]` of a 1-D selection): each row is still an example's mask, so the meaning (and what
 * its last axes mean) stays; only the number of rows changes. The index must be the first item, every other one a
 * slice, and either a slice follows it (a 2-D boolean index, which flattens, cannot be followed by one) or the index is
 * drawn by a row sampler. Undefined for anything else.
 */
function gatheredRows(ev: Evaluator, v: AValue, items: readonly string[], subs: readonly PyNode[]): AValue | undefined {
  if (!v.mask || v.attn || v.mask.tri || items[0] !== 'unknown' || !items.slice(1).every((i) => i === 'keep')) return undefined;
  const head = subs[0];
  if (!head || (items.length === 1 && !sampledRows(ev, unparen(head)))) return undefined;
  const { align: _align, sizes: _sizes, ...mask } = v.mask;
  return tensor({
    ...(v.dtype ? { dtype: v.dtype } : {}),
    ...(v.ndim !== undefined && v.axes ? { ndim: v.ndim, axes: v.axes.map((a) => ({ ...a, size1: undefined })) } : {}),
    mask,
  });
}

/** A name bound once to a row sampler's call (`idx = torch.randint(0, len(seq), (batch_size,))`), or that call itself. */
function sampledRows(ev: Evaluator, node: PyNode): boolean {
  let n = node;
  if (n.type === 'identifier') {
    const defs = ev.resolve(n, ev.text(n)) ?? [];
    const [d] = defs;
    if (defs.length !== 1 || !d || d.kind !== 'assign' || d.path.length > 0 || !d.value) return false;
    n = unparen(d.value);
  }
  const fn = n.type === 'call' ? childByField(n, 'function') : undefined;
  return !!fn && ROW_SAMPLERS.test(ev.text(fn).replace(/\s+/g, ''));
}

/** A name bound only as the counter of `for i in range(...)`: an integer, so `x[i]` drops the axis it indexes. */
function rangeCounter(ev: Evaluator, u: PyNode): boolean {
  if (u.type !== 'identifier') return false;
  const defs = ev.resolve(u, ev.text(u)) ?? [];
  return (
    defs.length > 0 &&
    defs.every((d) => {
      if (d.kind !== 'for' || d.path.length > 0 || !d.value) return false;
      const it = unparen(d.value);
      const fn = it.type === 'call' ? childByField(it, 'function') : undefined;
      return !!fn && ev.text(fn) === 'range';
    })
  );
}

export function stripFacts(t: AValue): AValue {
  return tensor({ ndim: t.ndim, axes: t.axes, multiHead: t.multiHead });
}

/** x[a, None, ..., b:c]: rank and axis bookkeeping; keeps mask and attention facts when the last axes stay. */
export function indexTensor(ev: Evaluator, v: AValue, subs: PyNode[], scalarIndex?: (node: PyNode) => boolean): AValue {
  const out = indexTensorAxes(ev, v, subs, scalarIndex);
  // A slice that is not the whole axis (`q[..., i * d:(i + 1) * d]`) may cut a projection's width into a head's.
  const cuts = v.projectedWidth && out.kind === 'tensor' && subs.some((s) => unparen(s).type === 'slice' && ev.text(unparen(s)).trim() !== ':');
  return cuts ? { ...out, widthCut: true } : out;
}

function indexTensorAxes(ev: Evaluator, v: AValue, subs: PyNode[], scalarIndex?: (node: PyNode) => boolean): AValue {
  type Item = 'keep' | 'drop' | 'new' | 'ellipsis' | 'unknown';
  let byName = false;
  const items: Item[] = subs.map((s) => {
    const u = unparen(s);
    if (u.type === 'slice') return 'keep';
    if (u.type === 'none') return 'new';
    if (u.type === 'attribute' && /^(tf|np|jnp|numpy|tensorflow|torch)\.newaxis$/.test(ev.text(u))) return 'new';
    if (u.type === 'ellipsis') return 'ellipsis';
    if (intLiteral(ev.tree, u) !== undefined) return 'drop';
    // A name the code says holds one integer (`destination: int`, a size): it picks one entry of that axis, as a
    // literal does (`self.queries[destination]`, one row of a learned table).
    if ((u.type === 'identifier' || u.type === 'attribute') && scalarIndex?.(u)) {
      byName = true;
      return 'drop';
    }
    if (rangeCounter(ev, u)) return 'drop';
    return 'unknown';
  });
  if (items.includes('unknown')) return gatheredRows(ev, v, items, subs) ?? gatheredEntries(v);
  // Map each old negative axis index to the new one (undefined = dropped/unknown).
  const ell = items.indexOf('ellipsis');
  const out = mutable(v);
  // One entry of a learned table picked by a name (`self.w_q[layer]`): its operations are those of its initial value
  // (`randn(...) * 0.02`), not of the data, as for any other index not known (gatheredEntries).
  if (byName && v.learned) delete out.ops;
  const ndim = v.ndim;
  let mapNeg: (axis: number) => number | undefined;
  let newNdim: number | undefined;
  const consumed = items.filter((i) => i === 'keep' || i === 'drop').length;
  const added = items.filter((i) => i === 'new').length;
  const dropped = items.filter((i) => i === 'drop').length;
  if (ndim !== undefined) {
    if (consumed > ndim) return tensor();
    newNdim = ndim - dropped + added;
    // Expand the ellipsis (or append it) to get a full list over old axes.
    const full: Item[] = [];
    const fill = ndim - consumed;
    const list = ell >= 0 ? items : [...items, 'ellipsis' as Item];
    for (const it of list) {
      if (it === 'ellipsis') for (let i = 0; i < fill; i++) full.push('keep');
      else full.push(it);
    }
    const oldToNew = new Map<number, number>();
    let oldPos = 0;
    let newPos = 0;
    for (const it of full) {
      if (it === 'new') newPos++;
      else if (it === 'drop') oldPos++;
      else {
        oldToNew.set(oldPos, newPos);
        oldPos++;
        newPos++;
      }
    }
    const nn = newNdim;
    mapNeg = (axis) => {
      const p = oldToNew.get(axis + ndim);
      return p === undefined ? undefined : p - nn;
    };
    const axes = axesOf(v);
    const newAxes: AxisInfo[] = Array.from({ length: newNdim }, () => ({ size1: true })); // None adds a length-1 axis
    if (axes) for (const [o, n] of oldToNew) newAxes[n] = axes[o] ?? {}; // o is an old axis: axes has it
    out.ndim = newNdim;
    out.axes = newAxes;
  } else {
    // Unknown rank: only items after an ellipsis, or trailing slices, tell where the last axes go.
    const tail = ell >= 0 ? items.slice(ell + 1) : items;
    if (ell < 0) {
      // Trailing slices after the last non-slice item keep the last axes in place.
      let k = 0;
      for (let i = items.length - 1; i >= 0 && items[i] === 'keep'; i--) k++;
      mapNeg = (axis) => (-axis <= k ? axis : undefined);
    } else {
      // After the ellipsis: walk backwards.
      mapNeg = (axis) => {
        let oldNeg = -1;
        let newNeg = -1;
        for (let i = tail.length - 1; i >= 0; i--) {
          const it = tail[i];
          if (it === 'new') {
            newNeg--;
            continue;
          }
          if (oldNeg === axis) return it === 'keep' ? newNeg : undefined;
          oldNeg--;
          if (it === 'keep') newNeg--;
        }
        // Axes covered by the ellipsis shift by the number of axes added after it.
        const addedAfter = tail.filter((t) => t === 'new').length;
        const consumedAfter = tail.filter((t) => t !== 'new').length;
        const droppedAfter = tail.filter((t) => t === 'drop').length;
        if (-axis > consumedAfter) return axis - addedAfter + droppedAfter;
        return undefined;
      };
    }
    delete out.ndim;
    delete out.axes;
  }
  remapFacts(out, v, mapNeg);
  // Unknown rank ending in a new axis (`has[..., None]`): the last axis has length 1.
  if (ndim === undefined && items[items.length - 1] === 'new') out.lastSize1 = true;
  return out;
}

/** A key-axis explanation without its last "then axis N after a layout change" (a new move replaces it). */
function afterLayoutChangeBase(why: MessageArg): MessageArg {
  return typeof why === 'object' && why.template === PHRASES.thenAfterLayoutChange ? (why.args[0] ?? why) : why;
}

/** Moves negative-index facts (key axis, softmax axis, padding axes, triangular masks) through an axis map. */
export function remapFacts(out: Mutable<AValue>, v: AValue, mapNeg: (axis: number) => number | undefined): void {
  if (v.attn) {
    const a: Mutable<AttnInfo> = { ...v.attn };
    if (a.keyAxis !== undefined) {
      const moved = mapNeg(a.keyAxis);
      if (moved !== undefined && moved !== a.keyAxis && a.keyAxisWhy)
        a.keyAxisWhy = msg(PHRASES.thenAfterLayoutChange, afterLayoutChangeBase(a.keyAxisWhy), moved);
      a.keyAxis = moved;
    }
    if (a.queryAxis !== undefined) a.queryAxis = mapNeg(a.queryAxis);
    if (a.softmax) a.softmax = { ...a.softmax, axis: a.softmax.axis !== undefined ? mapNeg(a.softmax.axis) : undefined };
    if (a.renormAxis !== undefined) a.renormAxis = mapNeg(a.renormAxis);
    out.attn = a;
  }
  if (v.mask) {
    const m: Mutable<MaskInfo> = { ...v.mask };
    delete m.spread; // placed again by the op that spreads it (see mask-ops.ts spreadMask)
    if (m.padAxes) {
      const mapped = m.padAxes.map(mapNeg);
      if (mapped.some((x) => x === undefined)) delete m.padAxes;
      else m.padAxes = mapped as number[];
    }
    if (m.tri && (mapNeg(-1) !== -1 || mapNeg(-2) !== -2)) {
      if (mapNeg(-1) === -2 && mapNeg(-2) === -1) Object.assign(m, transposeMask(v.mask));
      else delete m.tri;
    }
    out.mask = m;
  }
  if (v.pairwise) {
    const local = v.pairwise.queryAxis === undefined;
    const queryAxis = local ? undefined : mapNeg(v.pairwise.queryAxis);
    const keyAxis = mapNeg(v.pairwise.keyAxis);
    if ((!local && queryAxis === undefined) || keyAxis === undefined) delete out.pairwise;
    else out.pairwise = { ...v.pairwise, ...(queryAxis !== undefined ? { queryAxis } : {}), keyAxis };
  }
  if (v.featLast && mapNeg(-1) !== -1) delete out.featLast;
  if (v.lastSize1 && mapNeg(-1) !== -1) delete out.lastSize1;
  if (v.index) {
    const ax = mapNeg(v.index.axis);
    if (ax === undefined) delete out.index;
    else out.index = { axis: ax, offset: v.index.offset };
  }
}

// ================================================================================================ shape ops

/**
 * The width of a projection's output still whole: projected (`self.w_k(x)`, a Linear to `d_model`), with no head
 * axis and no reshape of its feature axis since (a view that splits or merges heads names another size there).
 */
function unsplitWidth(v: AValue): string | undefined {
  const out = v.proj?.outText;
  if (!v.projectedWidth || v.widthCut || v.multiHead || !out) return undefined;
  const axes = axesOf(v);
  if (axes) {
    if (axes.some((a) => a.label === 'head')) return undefined;
    const feat = axes.find((a) => a.label === 'feat') ?? axisAt(v, v.featAt ?? -1);
    if (feat?.sizeText !== undefined && feat.sizeText.replace(/^self\./, '') !== out.replace(/^self\./, '') && feat.wholeWidth !== out) return undefined;
  }
  return out;
}

/**
 * Queries (…, H, hd) and keys turned to (…, hd, H), both laid out so by the code (not by a comment): the product
 * pairs heads with heads (AttnInfo.headsPaired), and whether the keys were turned by a swap of two axes.
 */
function headsPaired(ev: Evaluator, q: AValue, k: AValue, kNode: PyNode | undefined): Pick<AttnInfo, 'headsPaired' | 'headsPairedBySwap'> {
  const by = (v: AValue, i: number, label: AxisLabel): AxisInfo | undefined => {
    const x = axisAt(v, i);
    return x?.label === label && !x.stated ? x : undefined;
  };
  const heads = by(q, -2, 'head');
  if (!heads || !by(q, -1, 'feat') || !by(k, -1, 'head') || !by(k, -2, 'feat') || q.ndim === undefined || q.ndim !== k.ndim) return {};
  const n = kNode && unparen(kNode);
  const fn = n?.type === 'call' ? childByField(n, 'function') : undefined;
  const method = fn?.type === 'attribute' ? childByField(fn, 'attribute') : undefined;
  const args = n?.type === 'call' ? namedChildren(childByField(n, 'arguments') ?? n).length : 0;
  const name = method ? ev.text(method) : n?.type === 'attribute' ? ev.text(childByField(n, 'attribute') ?? n) : '';
  // `k.transpose(-2, -1)` (two axes), `torch.transpose(k, -2, -1)` (the tensor and two axes), `k.mT`.
  const obj = fn?.type === 'attribute' ? childByField(fn, 'object') : undefined;
  const moduleForm = !!obj && /^(torch|np|numpy|jnp|jax\.numpy)$/.test(ev.text(obj));
  const swap = name === 'mT' || (n?.type === 'call' && ['transpose', 'swapaxes', 'swapdims'].includes(name) && args === (moduleForm ? 3 : 2));
  return { headsPaired: heads.sizeText ?? 'heads', ...(swap ? { headsPairedBySwap: true } : {}) };
}

/** Queries and keys both whole projections to the same width: that width (see AttnInfo.unsplitWidth). */
function sameUnsplitWidth(q: AValue, k: AValue): string | undefined {
  const wq = unsplitWidth(q);
  return wq !== undefined && wq === unsplitWidth(k) ? wq : undefined;
}

export function reverseAxes(v: AValue): AValue {
  const t = tensorish(v);
  if (t.ndim === 2) return transposeLastTwo(t);
  if (t.ndim === undefined) {
    const out = mutable(t);
    delete out.attn;
    delete out.mask;
    delete out.featLast;
    out.reversedUnknownRank = true;
    return out;
  }
  const perm = Array.from({ length: t.ndim }, (_, i) => t.ndim! - 1 - i);
  return permuteValue(t, perm);
}

export function transposeLastTwo(v: AValue): AValue {
  const t = tensorish(v);
  if (t.ndim !== undefined && t.ndim >= 2) {
    const perm = Array.from({ length: t.ndim }, (_, i) => i);
    perm[t.ndim - 1] = t.ndim - 2;
    perm[t.ndim - 2] = t.ndim - 1;
    return permuteValue(t, perm);
  }
  return swapUnknownRank(t, -2, -1);
}

function swapUnknownRank(t: AValue, a: number, b: number): AValue {
  const out = mutable(t);
  if (a !== b) delete out.expOfScores;
  const map = (axis: number): number | undefined => swapNegative(axis, a, b);
  remapFacts(out, t, map);
  if (t.featLast && (a === -1 || b === -1)) {
    delete out.featLast;
    out.featAt = a === -1 ? b : a;
  } else if (t.featAt !== undefined && (t.featAt === a || t.featAt === b)) {
    const to = t.featAt === a ? b : a;
    if (to === -1) {
      out.featLast = true;
      delete out.featAt;
    } else out.featAt = to;
  }
  return out;
}

export function permuteValue(t: AValue, permIn: readonly number[]): AValue {
  if (!isPermutation(permIn)) return tensor();
  const perm = normalisePerm(permIn);
  const n = perm.length;
  if (t.ndim !== undefined && t.ndim !== n) return tensor();
  const out = mutable(t);
  out.ndim = n;
  const axes = axesOf(t);
  out.axes = perm.map((p) => axes?.[p] ?? {}); // p is an axis of t
  // new position of old axis p is perm.indexOf(p)
  const mapNeg = (axis: number): number | undefined => {
    const old = axis + n;
    const np = perm.indexOf(old);
    return np < 0 ? undefined : np - n;
  };
  remapFacts(out, t, mapNeg);
  if (t.featLast) {
    const to = mapNeg(-1);
    if (to !== -1) {
      delete out.featLast;
      if (to !== undefined) out.featAt = to;
    }
  } else if (t.featAt !== undefined) {
    const to = mapNeg(t.featAt);
    if (to === -1) {
      out.featLast = true;
      delete out.featAt;
    } else out.featAt = to;
  }
  if (t.channelFirst && perm[1] !== 1) delete out.channelFirst;
  if (out.axes.some((a) => a.label === 'head')) out.multiHead = true;
  // exp(scores) moved to another layout is no numerator of a hand-written softmax over the scores' axes:
  // `(np.exp(x).T / np.exp(x).sum(-1)).T` divides along another axis than the sum took.
  if (perm.some((p, i) => p !== i)) delete out.expOfScores;
  return out;
}

export function transposeValue(t0: AValue, a: number | undefined, b: number | undefined): AValue {
  const t = tensorish(t0);
  if (a === undefined || b === undefined) return stripFacts(t);
  if (t.ndim !== undefined) {
    const pa = posAxis(a, t.ndim);
    const pb = posAxis(b, t.ndim);
    if (pa === undefined || pb === undefined) return tensor();
    const perm = Array.from({ length: t.ndim }, (_, i) => i);
    perm[pa] = pb;
    perm[pb] = pa;
    return permuteValue(t, perm);
  }
  if (a < 0 && b < 0) return swapUnknownRank(t, a, b);
  // Positive dims on an unknown rank: only leading axes are known to move.
  const out = mutable(t);
  if (t.attn) out.attn = { ...t.attn, keyAxis: undefined, queryAxis: undefined, softmax: t.attn.softmax ? { ...t.attn.softmax, axis: undefined } : undefined };
  if (t.mask) {
    const m = { ...t.mask };
    delete (m as Mutable<MaskInfo>).tri;
    delete (m as Mutable<MaskInfo>).padAxes;
    out.mask = m;
  }
  if (Math.min(a, b) >= 0 && Math.max(a, b) <= 1 && t.featLast) {
    // swapping two leading axes keeps the last one where it is only if rank > 2: unknown.
    delete out.featLast;
  } else delete out.featLast;
  // Likewise a last axis of length 1 (`self.energy(h).transpose(1, 2)`, a Linear(..., 1) turned into a row of
  // scores): with the rank unknown, the swap may have moved it away from the last place.
  delete out.lastSize1;
  return out;
}

export function unsqueezeValue(t0: AValue, d: number | undefined): AValue {
  const t = tensorish(t0);
  if (d === undefined) return stripFacts(t);
  const out = mutable(t);
  if (t.ndim !== undefined) {
    const n = t.ndim;
    const p = d < 0 ? d + n + 1 : d;
    if (p < 0 || p > n) return tensor();
    const axes = axesOf(t) ?? Array.from({ length: n }, () => ({}));
    out.ndim = n + 1;
    out.axes = [...axes.slice(0, p), { size1: true }, ...axes.slice(p)];
    remapFacts(out, t, (axis) => (axis + n < p ? axis - 1 : axis));
    return out;
  }
  if (d < 0) {
    remapFacts(out, t, (axis) => (axis <= d ? axis - 1 : axis));
    // `x.unsqueeze(-1)` / `expand_dims(x, -1)` / `x[..., None]` of any rank: the new last axis has length 1.
    if (d === -1) out.lastSize1 = true;
    return out;
  }
  // Positive dim on unknown rank: leading insert keeps the last axes (assume it is not an append).
  remapFacts(out, t, (axis) => (axis >= -1 ? axis : undefined));
  if (out.mask?.padAxes?.length === 0) delete (out.mask as Mutable<MaskInfo>).padAxes;
  return out;
}

export function squeezeValue(t0: AValue, d: number | undefined): AValue {
  const t = tensorish(t0);
  // squeeze() of a layout with exactly one axis the code made of length 1 (a bmm with a column, an unsqueeze): the
  // code squeezes that axis (the others hold its data; a batch of one is not the layout it is written for).
  if (d === undefined && t.ndim !== undefined && t.axes) {
    const ones = t.axes.flatMap((a, i) => (a.size1 ? [i] : []));
    const [only] = ones;
    if (ones.length === 1 && only !== undefined) return squeezeValue(t, only - t.ndim);
  }
  if (d !== undefined && d < 0 && t.ndim === undefined) {
    // Unknown rank, negative dim: the axes right of d keep their negative index, those left of it move one
    // place right; the features are no longer last when the last axis goes.
    const out = mutable(t);
    remapFacts(out, t, (axis) => (axis === d ? undefined : axis > d ? axis : axis + 1));
    if (d === -1) {
      delete out.featLast;
      delete out.lastSize1;
      delete out.projectedWidth;
    }
    if (out.featAt !== undefined) {
      if (out.featAt === d) delete out.featAt;
      else if (out.featAt < d) out.featAt += 1;
    }
    return out;
  }
  if (d === undefined || t.ndim === undefined) {
    const out = mutable(stripFacts(t));
    delete out.ndim;
    delete out.axes;
    return out;
  }
  const p = posAxis(d, t.ndim);
  if (p === undefined) return tensor();
  const n = t.ndim;
  const out = mutable(t);
  const axes = axesOf(t) ?? Array.from({ length: n }, () => ({}));
  out.ndim = n - 1;
  out.axes = [...axes.slice(0, p), ...axes.slice(p + 1)];
  remapFacts(out, t, (axis) => (axis + n === p ? undefined : axis + n < p ? axis + 1 : axis));
  // A pairwise q/k combination projected to one feature (`v(tanh(q' + k')).squeeze(-1)`) is the scores.
  const scores = t.pairwise && (axes[p] as AxisInfo).size1 ? scoresOfPairwise(t, d, false) : undefined;
  if (scores) {
    delete out.pairwise;
    delete out.role;
    delete out.roleText;
    return { ...out, ...scores };
  }
  return out;
}

/** view/reshape: rank and axis labels from the size arguments; attention facts survive when the last axis does. */
function firstNamedChildOf(node: PyNode): PyNode | undefined {
  return node.children.find((ch) => ch.named);
}

export function reshapeValue(ev: Evaluator, c: Call, t0: AValue, sizeNodes: PyNode[]): AValue {
  const t = tensorish(t0);
  let nodes = sizeNodes;
  // view(*output_size), or view(output_size) (the tuple itself as the one argument): with `output_size = (a, b, c, d)`
  // assigned once in this function, its elements are the sizes. The splat is not a positional argument: take it when
  // it is the only argument.
  const namedTuple = (name: PyNode | undefined): PyNode[] | undefined => {
    const defs = name && name.type === 'identifier' ? ev.resolve(name, ev.text(name)) : undefined;
    const def = defs && defs.length === 1 ? defs[0] : undefined;
    const value = def?.kind === 'assign' && def.path.length === 0 ? def.value : undefined;
    const tuple = value ? unparen(value) : undefined;
    return tuple && (tuple.type === 'tuple' || tuple.type === 'list') && !namedChildren(tuple).some((e) => e.type === 'list_splat')
      ? namedChildren(tuple)
      : undefined;
  };
  if (nodes.length === 0 && c.args.hasSplat && c.args.list) {
    const all = namedChildren(c.args.list);
    const only = all.length === 1 ? all[0] : undefined;
    const inner = only?.type === 'list_splat' ? firstNamedChildOf(only) : undefined;
    nodes = namedTuple(inner) ?? nodes;
  }
  // view(*x.size()[:3], -1): a splatted shape among the sizes spreads its elements, each an axis.
  let splatAxes: AxisInfo[] | undefined;
  if (c.args.list && nodes === sizeNodes) {
    const all = namedChildren(c.args.list);
    if (c.args.hasSplat || all.some(isStarred)) {
      splatAxes = splatReshapeAxes(ev, c, all);
      if (!splatAxes) return stripRank(t);
      nodes = all;
    }
  }
  // (A lone starred argument whose elements are known, `view(*shape)` with `shape` bound to a tuple, is read above.)
  if (!splatAxes && nodes.length === 1 && nodes[0]) {
    const u = unparen(nodes[0]);
    if (u.type === 'tuple' || u.type === 'list') nodes = namedChildren(u);
    else {
      const v = ev.eval(u, c.ctx);
      const named = v.kind === 'tuple' && !v.shapeOf ? namedTuple(u) : undefined;
      if (v.kind === 'tuple' && v.shapeOf && v.shapeOf.ndim !== undefined)
        return { ...t, ndim: v.shapeOf.ndim, axes: v.shapeOf.axes, attn: t.attn, mask: t.mask };
      if (named) nodes = named;
      else if (v.kind === 'tuple' && v.elements) nodes = [];
      else if (v.kind !== 'number') return stripRank(t);
    }
  }
  const last = nodes.at(-1);
  if (nodes.length === 0 || !last) return stripRank(t);
  if (!splatAxes && nodes.some((n) => n.type === 'list_splat')) return stripRank(t);
  const axes: AxisInfo[] = splatAxes ?? oneHeadAxis(nodes.map((node, i) => reshapeAxis(ev, c, node, i, nodes)));
  const n = axes.length;
  if (!splatAxes) markWholeWidth(ev, c, t, axes, last);
  const out = mutable(t);
  delete out.pairwise;
  out.ndim = n;
  out.axes = axes;
  const lastNode = unparen(last);
  // A starred last size (`view(-1, *x.shape[2:])`) may merge or split anything: not the same last axis.
  const lastIsProduct = (splatAxes !== undefined && isStarred(last)) || last.type === 'list_splat' || isProduct(ev, lastNode) || namesProduct(ev, lastNode);
  // The sizes place the feature axis before the last (`view(B, H, hd, -1)`, `reshape(b, h, d, n)`), or name another
  // axis last where the features were (`view(B, H, hd, T)` of a token-major tensor): the layout is the one the sizes
  // give, not the input's, so its last axis is not the one that was last before.
  const lastLabel = axes[n - 1]?.label;
  const featBefore = lastLabel === 'feat' ? -1 : axes.findIndex((a) => a.label === 'feat');
  const relaid = featBefore >= 0 || (!!t.featLast && lastLabel !== undefined && lastLabel !== 'feat');
  // `w.view(n, 1)` of a vector: the literal 1 appends a unit axis, and what was last is now second to last.
  const lastIsUnit = axes[n - 1]?.size1 === true && !t.lastSize1;
  const lastSameAsBefore = !lastIsProduct && !relaid && !lastIsUnit;
  // Which size is the second to last axis is not known when a starred shape spreads among the sizes.
  const secondProduct = splatAxes !== undefined || secondIsProduct(ev, nodes);
  delete out.lastSize1;
  if (axes.some((a) => a.label === 'head')) out.multiHead = true;
  delete out.featAt;
  if (lastLabel === 'feat') out.featLast = true;
  else if (!(t.featLast && lastSameAsBefore)) delete out.featLast;
  // `qkv(x).view(B, N, 3, 4, -1)`: a view that adds axes and ends in -1 may have split the projection's width (a
  // literal head count, the packed q/k/v), so its last axis is no longer known to be that whole width.
  if (out.projectedWidth && lastLabel !== 'feat' && intLiteral(ev.tree, lastNode) === -1 && (t.ndim !== undefined ? n > t.ndim : n >= 4))
    delete out.projectedWidth;
  if (featBefore >= 0 && axes.filter((a) => a.label === 'feat').length === 1) out.featAt = featBefore - n;
  // The whole width of a projection (`Dense(d_k)(x)`) split into heads, the last size -1 or that width over the head
  // count: its `outText` is then the width of all heads together, not one head's.
  if (t.proj?.outText && t.projectedWidth && lastLabel === 'feat' && axes.at(-2)?.label === 'head' && splitsWidth(ev, lastNode, t.proj.outText))
    out.proj = { ...t.proj, splitIntoHeads: true };
  if (t.attn) {
    const a: Mutable<AttnInfo> = { ...t.attn };
    if (!(lastSameAsBefore && a.keyAxis === -1)) delete a.keyAxis;
    if (!(lastSameAsBefore && !secondProduct && a.queryAxis === -2 && n >= 2)) delete a.queryAxis;
    if (a.softmax) a.softmax = { ...a.softmax, axis: lastSameAsBefore && a.softmax.axis === -1 ? -1 : undefined };
    if (a.renormAxis !== -1 || !lastSameAsBefore) delete a.renormAxis;
    // At most two axes from three or more, the size before the last a single one (no `B * H`), the last one -1 or a
    // product: the last axis takes the input's last two (and any between), the scores' rows and columns merged into one
    // (`logits.view(B, -1)`). (`view(BH, T, -1)` may have merged leading axes under a name: not asked.)
    const lastMerges = intLiteral(ev.tree, lastNode) === -1 || isProduct(ev, lastNode) || namesProduct(ev, lastNode);
    const leadingSingle = !splatAxes && nodes.slice(0, -1).every((node) => !isProduct(ev, unparen(node)) && !namesProduct(ev, unparen(node)));
    if (t.ndim !== undefined && t.ndim >= 3 && n <= 2 && lastMerges && leadingSingle) a.pairsMerged = true;
    else if (t.ndim === undefined || n > t.ndim || lastIsUnit) delete a.pairsMerged;
    out.attn = a;
  }
  if (t.mask) {
    const m: Mutable<MaskInfo> = { ...t.mask };
    if (!lastSameAsBefore || secondProduct) delete m.tri;
    if (m.padAxes) {
      const kept = m.padAxes.filter((x) => x === -1 && lastSameAsBefore);
      if (kept.length > 0) m.padAxes = kept;
      else delete m.padAxes;
    }
    out.mask = m;
  }
  if (t.index) delete out.index;
  const placed = t.index ? indexAsRowOrColumn(ev, t, splatAxes ? undefined : nodes) : undefined;
  if (placed) out.index = placed;
  if (t.channelFirst) delete out.channelFirst;
  return out;
}

/**
 * A 1-D position index (`arange(W)`) viewed as a row or a column (`view(1, W)`, `reshape(-1, 1)`, `view(1, 1, 1, -1)`):
 * every size but one is a literal 1, so the positions run along that one axis, as `arange(W)[None, :]` places them.
 */
function indexAsRowOrColumn(ev: Evaluator, t: AValue, nodes: readonly PyNode[] | undefined): AValue['index'] {
  if (!t.index || t.ndim !== 1 || !nodes || nodes.length < 2) return undefined;
  const free = nodes.flatMap((node, i) => (intLiteral(ev.tree, unparen(node)) === 1 ? [] : [i]));
  const only = free.length === 1 ? free[0] : undefined;
  return only === undefined ? undefined : { axis: only - nodes.length, offset: t.index.offset };
}

/**
 * The axes of a reshape whose sizes mix starred shapes and single sizes (`view(*x.shape[:2], -1)`): each element of
 * a starred tuple of known length is an axis (of length 1 when it is the number 1). Undefined when a starred value's
 * length is not known.
 */
function splatReshapeAxes(ev: Evaluator, c: Call, all: readonly PyNode[]): AxisInfo[] | undefined {
  const axes: AxisInfo[] = [];
  for (const [i, node] of all.entries()) {
    const spread = ev.splatted(node, c.ctx);
    if (spread) {
      if (spread.kind !== 'tuple' || !spread.elements) return undefined;
      for (const e of spread.elements) axes.push(e.kind === 'number' && e.num === 1 ? { size1: true } : {});
    } else if (node.type === 'keyword_argument' || node.type === 'dictionary_splat') return undefined;
    else axes.push(reshapeAxis(ev, c, node, i, [...all]));
  }
  return axes;
}

/** The last size of a head split is -1 or the projection's width over the head count (`d_k // self.heads`). */
function splitsWidth(ev: Evaluator, last: PyNode, outText: string): boolean {
  if (intLiteral(ev.tree, last) === -1) return true;
  if (last.type !== 'binary_operator' || !/^\/\/?$/.test(operatorText(ev.tree, last) ?? '')) return false;
  const l = childByField(last, 'left');
  const bare = (x: string): string => x.replace(/^self\./, '').replace(/\s+/g, '');
  return !!l && bare(ev.text(l)) === bare(outText);
}

function isProduct(ev: Evaluator, node: PyNode): boolean {
  return node.type === 'binary_operator' && operatorText(ev.tree, node) === '*';
}

/** A size held in a name bound once to a product (`N = H * W`): a flattened grid, not the axis that was last before. */
function namesProduct(ev: Evaluator, node: PyNode): boolean {
  if (node.type !== 'identifier') return false;
  const defs = ev.resolve(node, ev.text(node));
  const def = defs && defs.length === 1 ? defs[0] : undefined;
  return def?.kind === 'assign' && def.path.length === 0 && !!def.value && isProduct(ev, unparen(def.value));
}

/** The second-last size of a view/reshape is a product (`B * T`): the axis before the last is not the same. */
function secondIsProduct(ev: Evaluator, nodes: readonly PyNode[]): boolean {
  const secondNode = nodes.length >= 2 ? nodes[nodes.length - 2] : undefined;
  const second = secondNode && unparen(secondNode);
  return !!second && second.type === 'binary_operator' && operatorText(ev.tree, second) === '*';
}

export function stripRank(t: AValue): AValue {
  const out = mutable(t);
  // Axes no longer known: nor is it known that the last one is still a projection's whole width (the op may have
  // split it into heads: an einops pattern held in a variable, a reshape to sizes the code does not show).
  delete out.projectedWidth;
  delete out.pairwise;
  delete out.lastSize1;
  delete out.ndim;
  delete out.axes;
  delete out.featLast;
  if (out.attn)
    out.attn = { ...out.attn, keyAxis: undefined, queryAxis: undefined, softmax: out.attn.softmax ? { ...out.attn.softmax, axis: undefined } : undefined };
  return out;
}

/**
 * One reshape splits a width into heads once. When several of its sizes are named like a head count (`reshape(B * W,
 * heads, dh, H)` of a `(B, C, H, W)` feature map, H its height) and the code shows which one splits the width (another
 * size of the same reshape is the width over it, `dh = C // heads`), that one is the heads axis and the others are
 * sizes of unknown meaning: a name does not outrank the split the code writes. Unchanged when the code shows no such
 * split, or shows several.
 */
function oneHeadAxis(axes: AxisInfo[]): AxisInfo[] {
  const heads = axes.flatMap((a, i) => (a.label === 'head' ? [i] : []));
  if (heads.length < 2) return axes;
  const bare = (t: string): string => t.replace(/^self\./, '');
  const quotients = axes.filter((a) => a.label === 'feat').map((a) => (a.sizeValue ?? a.sizeText ?? '').replace(/\s+/g, ''));
  const splits = (i: number): boolean => {
    const name = bare(axes[i]?.sizeText ?? '');
    return (
      /^\w+$/.test(name) &&
      quotients.some((q) => q.endsWith(`//${name}`) || q.endsWith(`//self.${name}`) || q.endsWith(`/${name}`) || q.endsWith(`/self.${name}`))
    );
  };
  const shown = heads.filter(splits);
  if (shown.length !== 1) return axes;
  return axes.map((a, i) => {
    if (a.label !== 'head' || i === shown[0]) return a;
    const { label: _label, ...rest } = a;
    return rest;
  });
}

/** The axes a list of creation sizes gives (`torch.randn(d, 1)`): length 1 where the size is the literal 1. */
export function sizeAxes(ev: Evaluator, nodes: readonly PyNode[]): AxisInfo[] {
  return nodes.map((n) => (intLiteral(ev.tree, unparen(n)) === 1 ? { size1: true } : {}));
}

/** The label of one view/reshape size argument. */
function reshapeAxis(ev: Evaluator, c: Call, node: PyNode, i: number, all: PyNode[]): AxisInfo {
  const u = unparen(node);
  const lit = intLiteral(ev.tree, u);
  if (lit === 1) return { size1: true, sizeText: ev.text(u) };
  const sizeText = ev.text(u);
  // `x.size(2)` of an axis known to have length 1; a name this context binds to 1 (`num_heads` a caller passes as 1),
  // not a parameter's default that no call in view settles (`self.kernel_size` of `kernel_size=1`: callers set it).
  if (lit === undefined && (u.type === 'call' || u.type === 'subscript' || u.type === 'identifier' || u.type === 'attribute')) {
    const v = ev.eval(u, c.ctx);
    if (v.kind === 'number' && v.num === 1 && !v.unbound) return { size1: true, sizeText };
    // A name or attribute holding one width (a caller's `dim` bound to `self.dim_key`): kept beside the text written here.
    const held = v.kind === 'number' && v.dimPow?.power === 1 && v.dimPow.dim.which !== 'heads' ? v.dimPow.dim.text : undefined;
    if (held !== undefined && held !== sizeText && (u.type === 'identifier' || u.type === 'attribute'))
      return withValue(reshapeAxisOf(ev, c, u, i, all, sizeText, lit), held);
  }
  return reshapeAxisOf(ev, c, u, i, all, sizeText, lit);
}

/**
 * The last size of a view of a projection's output is the last axis of that projection's input, read off the tensor
 * (`B, T, D = x.shape` then `self.wq(x).view(B, n, L, D)`), and the projection keeps the width (`nn.Linear(d, d)`): the
 * features are that projection's whole output, not a head's part of it (AxisInfo.wholeWidth).
 */
function markWholeWidth(ev: Evaluator, c: Call, t: AValue, axes: AxisInfo[], last: PyNode): void {
  const proj = t.proj;
  const lastAxis = axes.at(-1);
  if (!proj?.inText || !proj.outText || !t.projectedWidth || t.widthCut || t.multiHead || !lastAxis) return;
  if (proj.inText.replace(/^self\./, '') !== proj.outText.replace(/^self\./, '')) return;
  const u = unparen(last);
  if (u.type !== 'identifier' && u.type !== 'attribute' && u.type !== 'subscript' && u.type !== 'call') return;
  const v = ev.eval(u, c.ctx);
  const dim = v.kind === 'number' && v.dimPow?.power === 1 ? v.dimPow.dim : undefined;
  if (!dim?.lastAxisOf || !dim.ofTensor || dim.ofTensor !== proj.input) return;
  axes[axes.length - 1] = { ...lastAxis, wholeWidth: proj.outText };
}

function withValue(a: AxisInfo, sizeValue: string): AxisInfo {
  return { ...a, sizeValue };
}

/** reshapeAxis past its length-1 cases. */
function reshapeAxisOf(ev: Evaluator, c: Call, u: PyNode, i: number, all: PyNode[], sizeText: string, lit: number | undefined): AxisInfo {
  if (lit === -1) {
    // -1 after a head count is the per-head feature axis (`view(B, T, nh, -1)`).
    const before = all[i - 1];
    if (i === all.length - 1 && i > 0 && before && reshapeAxis(ev, c, before, i - 1, all).label === 'head') return { label: 'feat', sizeText };
    return { sizeText };
  }
  if (u.type === 'binary_operator') {
    const op = operatorText(ev.tree, u);
    const l = childByField(u, 'left');
    const r = childByField(u, 'right');
    if ((op === '//' || op === '/') && r && isHeadCountName(rootName(ev, r) ?? ev.text(r))) {
      if (l) ev.modelDimTexts.add(ev.text(l));
      return { label: 'feat', sizeText };
    }
    // A head count floor-divided by a group size (`self.num_heads // self.n_rep`, grouped-query attention's key/value
    // heads): still a count of heads.
    if (op === '//' && l && r && isHeadCountName(rootName(ev, l) ?? ev.text(l))) return { label: 'head', sizeText };
    if (op === '*' && l && r) {
      const ll = labelOfSize(ev, c, l);
      const rl = labelOfSize(ev, c, r);
      if ((ll === 'batch' && rl === 'head') || (ll === 'head' && rl === 'batch')) return { label: 'batch', sizeText };
      if ((ll === 'head' && rl === 'feat') || (ll === 'feat' && rl === 'head')) return { label: 'feat', sizeText };
      if (ll === 'seq' && rl === 'seq') return { label: 'seq', sizeText };
      return { sizeText };
    }
  }
  const label = labelOfSize(ev, c, u);
  return label ? { label, sizeText } : { sizeText };
}

function labelOfSize(ev: Evaluator, c: Call, node: PyNode): AxisInfo['label'] {
  const u = unparen(node);
  const name = u.type === 'identifier' || u.type === 'attribute' ? ev.text(u) : undefined;
  if (name) {
    const byName = axisLabelOfName(name);
    // A size named like a head count (`h`, `head`) whose value the code computes as one head's width (`h = d //
    // self.n_head`, `self.head = dim // heads`): the code, not the name, says what the axis is.
    if (byName === 'head') {
      const v = ev.eval(u, c.ctx);
      if (!v.headCount && v.dimPow?.power === 1 && v.dimPow.dim.which === 'head') return 'feat';
    }
    if (byName) return byName;
  }
  const v = ev.eval(u, c.ctx);
  if (v.headCount) return 'head';
  if (v.dimPow && v.dimPow.power === 1 && v.dimPow.dim.which === 'head') return 'feat';
  return undefined;
}

/**
 * split / chunk / unbind: a tuple of pieces. chunk and split keep the rank (the split axis changes size);
 * unbind drops the axis, one piece per entry (as many as its literal size says, else 3, the packed-qkv case).
 * The pieces lose the packed tensor's role, attention and mask facts.
 */
export function splitValue(
  ev: Evaluator,
  c: Call,
  t0: AValue,
  countNode: PyNode | undefined,
  dimNode: PyNode | undefined,
  mode: 'split' | 'sections' | 'chunk' | 'unbind',
  indices = false,
): AValue {
  const t = tensorish(t0);
  const dim = dimNode ? intOf(ev, c, dimNode) : 0;
  if (mode === 'unbind') {
    const d = dim ?? 0;
    const size = Number(axisAt(t, d)?.sizeText);
    // Scores with a known key axis unbound along another axis (a group or branch axis, `s.unbind(dim=1)`) stay
    // scores; anything else (a packed q/k/v) loses its role, attention and mask facts.
    const squeezed = squeezeValue(t, d);
    const keepsScores = squeezed.attn?.stage === 'scores' && squeezed.attn.keyAxis !== undefined && t.attn?.keyAxis !== undefined;
    const elem = keepsScores ? squeezed : clearPackedRole(squeezed);
    const n = Number.isInteger(size) && size > 0 && size <= 16 ? size : 3;
    return { kind: 'tuple', elements: Array.from({ length: n }, () => elem) };
  }
  let count: number | undefined;
  const listed = countNode ? ['list', 'tuple'].includes(unparen(countNode).type) : false;
  if (mode === 'chunk' || (mode === 'sections' && !listed)) count = intOf(ev, c, countNode);
  else {
    const u = countNode ? unparen(countNode) : undefined;
    // split([a, b, c], dim): one piece per size (NumPy's and JAX's split points: one more piece than points); split(size,
    // dim): as many as the unpacking takes (3 assumed).
    if (u && (u.type === 'list' || u.type === 'tuple')) count = namedChildren(u).length + (indices ? 1 : 0);
  }
  const elem = mutable(clearPackedRole(t));
  const axes = axesOf(t);
  if (axes && dim !== undefined) {
    const p = posAxis(dim, axes.length);
    // chunk(n) of an axis stated as `n * X` (`view(B, T, h, 3 * self.head_dim)` then `chunk(3, dim=-1)`): each piece is X
    // wide; so for a count of sections (`tf.split(x, K, axis=-1)` of an axis `K * d`: d wide). torch's split takes
    // each piece's width (`torch.split(x, self._d, dim=-1)`: d wide), whatever the axis was.
    const piece = (a: AxisInfo): string | undefined =>
      countNode && !listed && (mode === 'chunk' || mode === 'sections')
        ? chunkPieceSize(a.sizeText, count ?? ev.text(unparen(countNode)))
        : mode === 'split' && countNode && !listed
          ? ev.text(unparen(countNode))
          : undefined;
    if (p !== undefined)
      elem.axes = axes.map((a, i) => {
        if (i !== p) return a;
        const size = piece(a);
        return { ...(a.label ? { label: a.label } : {}), ...(size ? { sizeText: size } : {}) };
      });
  } else if (axes) elem.axes = axes.map((a) => ({ ...(a.label ? { label: a.label } : {}) }));
  if (dim === -1 || (t.ndim !== undefined && dim === t.ndim - 1)) delete elem.lastSize1;
  // Pieces along the last axis (or an axis not known) of a projection's output: no longer its whole width.
  if (t.projectedWidth && (dim === undefined || dim === -1 || (t.ndim !== undefined && dim === t.ndim - 1) || t.ndim === undefined)) elem.widthCut = true;
  // Equal pieces of the whole width (`tf.split(q, num_heads, axis=2)`, `torch.split(q, d_head, dim=-1)`; not a list of
  // sizes, nor a literal 1): joined back along the batch axis, the heads (ops.ts: headsOnBatch).
  // A positive axis of a tensor whose rank is not known (`Q.split(self.d_head, dim=2)`, `tf.split(Q, num_heads, axis=2)`
  // of a projection applied to a parameter) is the features when the pieces are one head's width (torch's split size)
  // or as many as the heads (a count of sections): the size, not the axis number, says which axis is cut.
  const byHeads =
    t.ndim === undefined && dim !== undefined && dim > 0 && countNode !== undefined && !listed
      ? labelOfSize(ev, c, countNode) === (mode === 'split' ? 'feat' : mode === 'sections' ? 'head' : undefined)
      : false;
  const lastAxis = dim === -1 || (t.ndim !== undefined && dim === t.ndim - 1) || byHeads;
  const equal =
    (mode === 'split' || mode === 'sections') &&
    countNode !== undefined &&
    !['list', 'tuple'].includes(unparen(countNode).type) &&
    intLiteral(ev.tree, unparen(countNode)) !== 1;
  if (t.projectedWidth && t.proj?.outText && !t.widthCut && !t.multiHead && lastAxis && equal) elem.widthPiece = true;
  const n = count ?? 3;
  return { kind: 'tuple', elements: Array.from({ length: n }, () => elem) };
}

/**
 * The size of each of `count` pieces of an axis stated as `count * X` or `X * count` (X a name or `self.` attribute;
 * the count a number, or a name written as it is in the size, `K` of `K * d`).
 */
function chunkPieceSize(sizeText: string | undefined, count: number | string): string | undefined {
  const name = /^(?:self\.)?[A-Za-z_]\w*$/;
  const m = /^\s*([\w.]+)\s*\*\s*([\w.]+)\s*$/.exec(sizeText ?? '');
  if (!m) return undefined;
  const [l, r] = [String(m[1]), String(m[2])];
  if (typeof count === 'number') {
    const [n, x] = /^\d+$/.test(l) ? [l, r] : [r, l];
    return /^\d+$/.test(n) && Number(n) === count && name.test(x) ? x : undefined;
  }
  if (!name.test(l) || !name.test(r) || l === r) return undefined;
  return l === count ? r : r === count ? l : undefined;
}

function clearPackedRole(t: AValue): AValue {
  const out = mutable(t);
  delete out.role;
  delete out.roleText;
  delete out.attn;
  delete out.mask;
  delete out.pairwise;
  return out;
}

export function einopsRearrange(ev: Evaluator, _c: Call, t0: AValue, patternNode: PyNode | undefined, reduce: boolean): AValue {
  const t = tensorish(t0);
  const pattern = stringLiteral(ev.tree, patternNode);
  if (!pattern) return stripRank(t);
  const parsed = parseEinopsPattern(pattern);
  if (!parsed) return stripRank(t);
  const { lhs, rhs } = parsed;
  const out = mutable(t);
  const rhsAxes = einopsLabels(rhs);
  if (!rhs.hasEllipsis) {
    out.ndim = rhs.groups.length;
    out.axes = rhsAxes;
  } else {
    delete out.ndim;
    delete out.axes;
  }
  if (
    rhsAxes.some((a) => a.label === 'head') ||
    rhs.groups.some((g) => g.length > 1 && g.some((x) => labelOfAxisName(x) === 'head') && g.some((x) => labelOfAxisName(x) === 'batch'))
  )
    out.multiHead = true;
  // Each axis named alone on both sides takes its facts (key and query axes, softmax axis, padding axes) along.
  const map = einopsAxisMap(lhs, rhs);
  remapFacts(out, t, map);
  if (rhsAxes[rhsAxes.length - 1]?.label === 'feat') out.featLast = true;
  else if (map(-1) !== -1) delete out.featLast;
  void reduce;
  return out;
}

// ================================================================================================ matmul

/**
 * Ranks of a query–key product read from the product itself: keys transposed with positive indices
 * (`k.transpose(2, 3)`, the last two axes of a 4-D tensor) have rank one more than the larger index, and the
 * query and the keys of a batched product share their rank ((B, H, L, d) @ (B, H, d, S)) when only one is known.
 */
function pairRanks(ev: Evaluator, a: AValue, b: AValue, aNode: PyNode | undefined, bNode: PyNode | undefined): [AValue, AValue] {
  const ra = roleOf(ev, a, aNode);
  const rb = roleOf(ev, b, bNode);
  if (!((ra === 'query' && rb === 'key') || (ra === 'key' && rb === 'query'))) return [a, b];
  if (b.ndim === undefined && bNode) {
    const n = lastTwoSwapRank(ev, unparen(bNode));
    if (n !== undefined) b = withRank(b, n);
  }
  const known = a.ndim ?? b.ndim;
  if (known !== undefined && known >= 3 && (a.ndim === undefined) !== (b.ndim === undefined)) {
    if (a.ndim === undefined) a = withRank(a, known);
    else b = withRank(b, known);
  }
  return [a, b];
}

/** `x.transpose(i, i + 1)` / `x.swapaxes(...)` with literal non-negative adjacent indices: read as the last two axes, rank i + 2. */
function lastTwoSwapRank(ev: Evaluator, n: PyNode): number | undefined {
  if (n.type !== 'call') return undefined;
  const fn = childByField(n, 'function');
  if (fn?.type !== 'attribute') return undefined;
  const name = ev.text(childByField(fn, 'attribute') ?? fn);
  if (name !== 'transpose' && name !== 'swapaxes' && name !== 'swapdims') return undefined;
  const args = namedChildren(childByField(n, 'arguments') ?? n);
  if (args.length !== 2) return undefined;
  const [i, j] = args.map((x) => intLiteral(ev.tree, x));
  if (i === undefined || j === undefined || i < 0 || j < 0 || Math.abs(i - j) !== 1) return undefined;
  return Math.max(i, j) + 1;
}

function roleOf(ev: Evaluator, v: AValue, node: PyNode | undefined): 'query' | 'key' | 'value' | 'context' | undefined {
  if (v.role) return v.role;
  const name = rootName(ev, node);
  if (name) {
    const r = roleOfName(name);
    if (r) return r;
    if (isContextName(name)) return 'context';
  }
  return undefined;
}

/**
 * How a message names an operand: its text, cut to 40 characters when longer (`self.key_layer(input_key).transpose(-2,
 * …`), so that a long operand written inline is still named (and the product still known as q·kᵀ) as its name would
 * be; the role's text when there is no node.
 */
function describe(ev: Evaluator, node: PyNode | undefined, v: AValue): string | undefined {
  if (node) {
    const t = ev.text(node);
    if (t.length <= 40) return t;
    return v.roleText ?? `${t.slice(0, 39).trimEnd()}…`;
  }
  return v.roleText;
}

/**
 * The layout of a @ b: (…, n, k) @ (…, k, m) → (…, n, m). The rows come from a, the columns from b (so a
 * length-1 column, `x @ w` with w of shape (d, 1), stays one), the leading axes broadcast (keeping the batch and
 * head labels an operand of full rank gives them); a 1-D operand loses its axis.
 */
export function matmulLayout(a: AValue, b: AValue): { ndim?: number; axes?: AxisInfo[]; lastSize1?: true } {
  const colSize1 = (b.ndim !== undefined && b.ndim >= 2 && axisAt(b, -1)?.size1 === true) || (b.ndim === undefined && b.lastSize1 === true);
  if (a.ndim === undefined || b.ndim === undefined) return colSize1 ? { lastSize1: true } : {};
  const ax: readonly AxisInfo[] = axesOf(a) ?? Array.from({ length: a.ndim }, () => ({}));
  const bx: readonly AxisInfo[] = axesOf(b) ?? Array.from({ length: b.ndim }, () => ({}));
  if (a.ndim === 1 && b.ndim === 1) return { ndim: 0, axes: [] };
  if (b.ndim === 1) return { ndim: a.ndim - 1, axes: ax.slice(0, -1) };
  if (a.ndim === 1) return { ndim: b.ndim - 1, axes: [...bx.slice(0, -2), ...bx.slice(-1)] };
  const ndim = Math.max(a.ndim, b.ndim);
  // The leading (broadcast) axes keep the batch/head labels an operand of full rank gives them.
  const leading = (i: number): AxisInfo => {
    for (const t of [ax, bx]) {
      const l = t.length === ndim ? t[i]?.label : undefined;
      if (l === 'batch' || l === 'head') return { label: l };
    }
    return {};
  };
  // A batch or head label on b's last axis only comes from a transpose that reversed every axis (ATT005's
  // finding): the column keeps its length and size, not that label.
  const col = bx.at(-1) ?? {}; // b has two axes or more here
  const colAxis: AxisInfo = col.label === 'batch' || col.label === 'head' ? { ...(col.size1 ? { size1: true } : {}) } : { ...col };
  const axes = Array.from({ length: ndim }, (_, i) => (i < ndim - 2 ? leading(i) : i === ndim - 2 ? { ...ax[ax.length - 2] } : colAxis));
  return { ndim, axes };
}

/**
 * Where the keys' axis lands in `keys @ query` (keys on the left). Many queries ((…, d, L) on the right): the
 * product's rows, -2 ('rows'). One query, a learned pooling query of shape (d,) or (d, 1) (`keys @ self.query`):
 * - a vector loses its axis, so the rows are the last axis and there is no query axis;
 * - a length-1 column keeps the rows at -2 only when the layout says they are the keys: keys of rank 2 or
 *   unknown, rows labelled as a sequence, or every leading axis a batch or head axis. Rows labelled batch (keys
 *   sequence-first, (S, B, d) @ (d, 1)) put the keys on the one sequence axis before them; otherwise, as for
 *   unlabelled (X, Y, d) keys, matmul's broadcast leaves the key axis unknown (the length-1 query axis stays known).
 */
export function singleQueryKeyAxis(
  a: AValue,
  b: AValue,
  layout: { ndim?: number; axes?: AxisInfo[]; lastSize1?: true },
): 'rows' | { keyAxis?: number; queryAxis?: number; vector?: true } {
  if (b.ndim === 1) return { keyAxis: a.ndim === 1 ? undefined : -1, vector: true };
  const column = b.ndim !== undefined && b.ndim >= 2 && axisAt(b, -1)?.size1 === true;
  const axes = axesOf(a) ?? layout.axes;
  if (!column || a.ndim === undefined || a.ndim <= 2 || !axes) return 'rows';
  const rows = axes.length - 2;
  const row = axes[rows];
  if (row?.label === 'seq' || axes.slice(0, rows).every((x) => x.label === 'batch' || x.label === 'head')) return 'rows';
  if (row?.label === 'batch' || row?.label === 'head') {
    const seqs = axes.slice(0, rows).flatMap((x, i) => (x.label === 'seq' ? [i - axes.length] : []));
    return { keyAxis: seqs.length === 1 ? seqs[0] : undefined, queryAxis: -1 };
  }
  return { queryAxis: -1 };
}

/**
 * Data times a weight: a projection, read as `nn.Linear` and `self.q_proj(x)` are. Its widths when the weight is learned
 * and 2-D and its creation writes its sizes as names (`self.w_q = nn.Parameter(torch.randn(d_in, d_out))`,
 * `tf.Variable(tf.random.truncated_normal([d_in, d_out]))`, used as `x @ self.w_q`, `tf.matmul(x, self.w_q)`;
 * `(d_out, d_in)` used as `x @ self.w_q.T`): from the width the product sums over to the other one. Its role when the
 * data have none and the weight's name says it is a projection's (`x_t @ W_q`, `x @ self.key_proj`: a role with a
 * layer-ish word, not `self.query` alone), as a layer's name gives its output one. Undefined for anything else: a
 * weight of unwritten or equal sizes and no such name, a weight with an axis of length 1 or a vector (a learned query
 * column, attention pooling), a learned weight on the left, data that are already scores or a mask, and queries against
 * learned keys or memory slots (`q @ self.keys`, `q @ self.memory`), which are scores.
 */
function weightOperand(
  ev: Evaluator,
  a: AValue,
  b: AValue,
  aNode: PyNode | undefined,
  bNode: PyNode | undefined,
): { readonly proj?: ProjectionInfo; readonly role?: Role } | undefined {
  if (a.kind !== 'tensor' || a.learned || a.attn || a.mask || a.pairwise) return undefined;
  if (b.attn || b.mask || b.pairwise || b.ndim === 1 || b.lastSize1 || axisAt(b, -1)?.size1) return undefined;
  const ra = roleOf(ev, a, aNode);
  const rb = roleOf(ev, b, bNode);
  if (rb === 'context' || (rb === 'key' && ra === 'query')) return undefined;
  let proj: ProjectionInfo | undefined;
  if (b.learned && b.ndim === 2) {
    const [inAxis, outAxis] = axesOf(b) ?? [];
    const named = /^[A-Za-z_][\w.]*$/;
    const inText = inAxis?.sizeText;
    const outText = outAxis?.sizeText;
    if (inText && outText && !inAxis.size1 && named.test(inText) && named.test(outText) && inText !== outText) proj = { input: a, inText, outText };
  }
  const bName = ra === undefined ? rootName(ev, bNode) : undefined;
  const role = bName !== undefined && (b.ndim === undefined || b.ndim === 2) ? weightRole(bName) : undefined;
  if (!proj && !role) return undefined;
  return { ...(proj ? { proj } : {}), ...(role ? { role } : {}) };
}

/**
 * a @ b. Forms attention scores when the operands are a query and keys (by name or role), records
 * the contraction when attention weights meet the values, and keeps ranks.
 */
export function matmul(
  ev: Evaluator,
  c: Call,
  a0: AValue,
  b0: AValue,
  aNode: PyNode | undefined,
  bNode: PyNode | undefined,
  display: string,
  opts: { transA?: boolean; transB?: boolean; rank?: number } = {},
): AValue {
  let a = tensorish(a0);
  let b = tensorish(b0);
  if (opts.rank !== undefined) {
    if (a.ndim === undefined) a = withRank(a, opts.rank);
    if (b.ndim === undefined) b = withRank(b, opts.rank);
  }
  if (opts.transA) a = transposeLastTwo(a);
  if (opts.transB) b = transposeLastTwo(b);
  [a, b] = pairRanks(ev, a, b, aNode, bNode);
  const layout = matmulLayout(a, b);
  const ndim = layout.ndim;
  // Both operands cast to one wide float dtype (`q.float() @ k.float().T`): the product has it too.
  const dtype = a.dtype === b.dtype && (a.dtype === 'float32' || a.dtype === 'float64') ? { dtype: a.dtype } : {};
  const result = (fields: Omit<AValue, 'kind'>): AValue => {
    const r = tensor({ ...layout, ...dtype, ...fields });
    ev.facts.matmul.push({
      node: c.node,
      ctx: c.ctx,
      display,
      a,
      b,
      aNode,
      bNode,
      contractA: -1,
      contractB: b.ndim === 1 ? -1 : -2,
      result: r,
      ...(opts.transA ? { transA: true } : {}),
      ...(opts.transB ? { transB: true } : {}),
    });
    return r;
  };
  const weight = weightOperand(ev, a, b, aNode, bNode);
  if (weight)
    return result({
      featLast: true,
      ...weight,
      ops: crossOps(a, b, { weightInit: true }),
      ...(a.multiHead ? { multiHead: true } : {}),
      ...(a.fromCache ? { fromCache: true } : {}),
    });
  if (a.attn?.stage === 'weights' || b.attn?.stage === 'weights') {
    // weights · V: the attention output (B, ..., L, hd).
    const w = a.attn?.stage === 'weights' ? a : b;
    return result({ multiHead: w.multiHead || a.multiHead || b.multiHead, featLast: true });
  }
  const ra = roleOf(ev, a, aNode);
  const rb = roleOf(ev, b, bNode);
  let keyAxis: number | undefined;
  let keyAxisWhy: MessageArg | undefined;
  let qNode: PyNode | undefined;
  let queryAxis: number | undefined;
  /** Keys against one query whose key axis the layout leaves unknown: still scores with named roles. */
  let keysOfOneQuery = false;
  if (ra === 'query' && (rb === 'key' || rb === 'context')) {
    keyAxis = -1;
    queryAxis = -2;
    keyAxisWhy = msg(PHRASES.keysRightOperand, `\`${describe(ev, bNode, b) ?? 'k'}\``);
    qNode = aNode;
  } else if ((ra === 'key' || ra === 'context') && rb === 'query') {
    const keys = `\`${describe(ev, aNode, a) ?? 'k'}\``;
    const one = singleQueryKeyAxis(a, b, layout);
    if (one === 'rows') {
      keyAxis = -2;
      queryAxis = -1;
      keyAxisWhy = msg(PHRASES.keysLeftOperand, keys);
    } else {
      keysOfOneQuery = true;
      keyAxis = one.keyAxis;
      queryAxis = one.queryAxis;
      if (keyAxis !== undefined) keyAxisWhy = msg(one.vector ? PHRASES.keysLeftOfVectorQuery : PHRASES.keysOnlySeqAxis, keys, keyAxis);
    }
  }
  // A query vector on the left ((d,) @ (…, d, S) → (…, S)) loses its row: the scores have no query axis.
  if (ra === 'query' && keyAxis === -1 && a.ndim === 1) queryAxis = undefined;
  if (keyAxis === undefined && !keysOfOneQuery && !(ra === 'query' || rb === 'key')) {
    // No roles: an unnamed product. It can still be attention (judged later by a ·V contraction).
    if (a.kind === 'tensor' && b.kind === 'tensor' && !a.mask && !b.mask) {
      const scores = result({
        attn: { stage: 'scores', formedAt: c.node },
        ops: crossOps(a, b, { weightInit: true }),
        multiHead: a.multiHead || b.multiHead || ndim === 4 || undefined,
      });
      return scores;
    }
    return result({});
  }
  const qa = ra === 'query' ? a : b;
  // One learned query: a vector, or the length-1 axis that is the query's own row (left) or column (right).
  const oneQueryAxis = ra === 'query' ? -2 : -1;
  // Leading axes (a batch the parameter was expanded to, the heads of one query per head) are not queries.
  const learnedPoolingQuery =
    qa.learned === true &&
    (qa.ndim === 1 || (qa.ndim !== undefined && qa.ndim >= 2 && (axisAt(qa, oneQueryAxis)?.size1 === true || (oneQueryAxis === -1 && qa.lastSize1 === true))));
  const attn: AttnInfo = {
    stage: 'scores',
    formedAt: c.node,
    keyAxis,
    keyAxisWhy,
    queryAxis,
    queryText: describe(ev, ra === 'query' ? aNode : bNode, qa),
    keyText: describe(ev, ra === 'query' ? bNode : aNode, ra === 'query' ? b : a),
    keyIsKey: (ra === 'query' ? rb : ra) === 'key' || undefined,
    ...(learnedPoolingQuery ? { learnedPoolingQuery: true } : {}),
    queryProj: qa.proj,
    unsplitWidth: sameUnsplitWidth(qa, ra === 'query' ? b : a),
    queryUnsplit: unsplitWidth(qa),
    ...headsPaired(ev, qa, ra === 'query' ? b : a, ra === 'query' ? bNode : aNode),
    queryAxes: axesOf(qa),
    queryNode: qNode && unparen(qNode).type === 'identifier' ? unparen(qNode) : undefined,
  };
  // Cosine attention (F.normalize'd q and k): bounded logits, temperature instead of 1/sqrt(d).
  const ops = a.normalized || b.normalized ? crossOps(addOp(a, { kind: 'opaque', node: c.node }), b) : crossOps(a, b);
  return result({
    attn,
    ops,
    multiHead: a.multiHead || b.multiHead || ndim === 4 || undefined,
    ...(a.fromCache || b.fromCache ? { fromCache: true } : {}),
    ...(a.fromConv || b.fromConv ? { fromConv: true } : {}),
  });
}

/**
 * One learned query in an einsum (per head, it may be): a parameter every index of which is summed away or shared with
 * the keys (`'bsd,d->bs'`, keys against a vector; `'bhsd,hd->bhs'`, one query per head). An index of the parameter's
 * own that reaches the output (`'nd,bsd->bns'`) counts several queries: a matrix of seed queries.
 */
function learnedQueryContracted(q: AValue, term: readonly string[], keys: readonly string[], out: readonly string[]): boolean {
  return q.learned === true && term.length > 0 && term.every((x) => x !== '...' && (!out.includes(x) || keys.includes(x)));
}

/** A string literal, or an f-string without placeholders (`f"b h i d, b h j d -> b h i j"`, lucidrains' style). */
export function constantString(ev: Evaluator, node: PyNode | undefined): string | undefined {
  const plain = stringLiteral(ev.tree, node);
  if (plain !== undefined || !node) return plain;
  const n = unparen(node);
  if (n.type !== 'string' || n.children.some((ch) => ch.type === 'interpolation' || ch.type === 'escape_sequence')) return undefined;
  let out = '';
  for (const ch of n.children) if (ch.type === 'string_content') out += ev.text(ch);
  return out;
}

export function einsum(ev: Evaluator, c: Call, spec: string | undefined, style: 'letters' | 'words', operandNodes: PyNode[]): AValue {
  const vals = operandNodes.map((n) => tensorish(ev.eval(n, c.ctx)));
  if (!spec) return tensor();
  const parsed = parseEinsum(spec, style);
  if (!parsed || parsed.inputs.length !== vals.length) return tensor();
  const out = parsed.output;
  const hasEll = out.includes('...');
  const shape = hasEll ? {} : { ndim: out.length, axes: out.map((x) => ({ ...(labelOfAxisName(x) ? { label: labelOfAxisName(x) } : {}) })) };
  const [a, b] = vals;
  const [ta, tb] = parsed.inputs;
  const [aNode, bNode] = operandNodes; // as many as vals
  if (vals.length !== 2 || !a || !b || !ta || !tb || !aNode || !bNode) return tensor(shape);
  // The batch axes of the product: in both operands and in the output (each output element keeps them apart).
  const kept = (term: readonly string[]): number[] => {
    const shared = term.filter((x) => x !== '...' && ta.includes(x) && tb.includes(x) && out.includes(x));
    return shared.map((x) => negIndexInTerm(term, x)).filter((i): i is number => i !== undefined);
  };
  const record = (r0: AValue, contractA?: number, contractB?: number): AValue => {
    // Both operands cast to one wide float dtype: the product has it too.
    const r = a.dtype === b.dtype && (a.dtype === 'float32' || a.dtype === 'float64') ? { ...r0, dtype: a.dtype } : r0;
    ev.facts.matmul.push({
      node: c.node,
      ctx: c.ctx,
      display: 'einsum',
      a,
      b,
      aNode,
      bNode,
      contractA,
      contractB,
      keptA: kept(ta),
      keptB: kept(tb),
      summedAxes: ta.filter((x) => x !== '...' && tb.includes(x) && !out.includes(x)).length,
      result: r,
    });
    return r;
  };
  const contracted = ta.filter((x) => x !== '...' && tb.includes(x) && !out.includes(x));
  const summedOver = contracted.length === 1 ? contracted[0] : undefined; // the one letter contracted
  if (a.attn?.stage === 'weights' || b.attn?.stage === 'weights') {
    const contractA = summedOver !== undefined ? negIndexInTerm(ta, summedOver) : undefined;
    const contractB = summedOver !== undefined ? negIndexInTerm(tb, summedOver) : undefined;
    return record(
      tensor({ ...shape, featLast: true, multiHead: a.multiHead || b.multiHead || out.some((x) => labelOfAxisName(x) === 'head') || undefined }),
      contractA,
      contractB,
    );
  }
  const ra = roleOf(ev, a, aNode);
  const rb = roleOf(ev, b, bNode);
  let qTerm: string[] | undefined;
  let kTerm: string[] | undefined;
  if (ra === 'query' && (rb === 'key' || rb === 'context')) [qTerm, kTerm] = [ta, tb];
  else if ((ra === 'key' || ra === 'context') && rb === 'query') [qTerm, kTerm] = [tb, ta];
  let keyAxis: number | undefined;
  let keyAxisWhy: MessageArg | undefined;
  let queryAxis: number | undefined;
  if (qTerm && kTerm) {
    const keyLetters = kTerm.filter((x) => x !== '...' && !qTerm.includes(x) && out.includes(x));
    const [keyLetter] = keyLetters;
    if (keyLetters.length === 1 && keyLetter !== undefined) {
      keyAxis = negIndexInTerm(out, keyLetter);
      keyAxisWhy = msg(PHRASES.einsumKeyIndex, spec, keyLetter, String(keyAxis !== undefined && !hasEll ? keyAxis + out.length : keyAxis));
    }
    const queryLetters = qTerm.filter((x) => x !== '...' && !kTerm.includes(x) && out.includes(x));
    const [queryLetter] = queryLetters;
    if (queryLetters.length === 1 && queryLetter !== undefined) queryAxis = negIndexInTerm(out, queryLetter);
  } else if (!(a.kind === 'tensor' && b.kind === 'tensor')) return record(tensor(shape));
  const attn: AttnInfo = {
    stage: 'scores',
    formedAt: c.node,
    keyAxis,
    keyAxisWhy,
    queryAxis,
    queryText: qTerm ? describe(ev, qTerm === ta ? aNode : bNode, qTerm === ta ? a : b) : undefined,
    keyText: kTerm ? describe(ev, kTerm === ta ? aNode : bNode, kTerm === ta ? a : b) : undefined,
    keyIsKey: kTerm ? (kTerm === ta ? ra : rb) === 'key' || undefined : undefined,
    ...(qTerm && kTerm && learnedQueryContracted(qTerm === ta ? a : b, qTerm, kTerm, out) ? { learnedPoolingQuery: true } : {}),
    queryProj: qTerm ? (qTerm === ta ? a : b).proj : undefined,
    queryNode: qTerm === ta && unparen(aNode).type === 'identifier' ? unparen(aNode) : undefined,
    // The queries' own axes, as a matmul's scores keep them, where the einsum sums over their last axis (features last).
    ...(qTerm && summedOver !== undefined && qTerm.at(-1) === summedOver && !qTerm.includes('...')
      ? { queryAxes: axesOf(qTerm === ta ? a : b), queryUnsplit: unsplitWidth(qTerm === ta ? a : b) }
      : {}),
  };
  const multiHead = a.multiHead || b.multiHead || out.some((x) => labelOfAxisName(x) === 'head') || undefined;
  return record(
    // Convolution features stay so through an einsum as through a matmul (a non-local block's, a point cloud's).
    tensor({ ...shape, attn, ops: crossOps(a, b), multiHead, ...(a.fromConv || b.fromConv ? { fromConv: true } : {}) }),
    summedOver !== undefined ? negIndexInTerm(ta, summedOver) : undefined,
    summedOver !== undefined ? negIndexInTerm(tb, summedOver) : undefined,
  );
}

/**
 * A reduction (sum, max, mean, norm, ...) over `axis`. Its layout follows keepdim (torch), keepdims (NumPy, JAX,
 * TF 2) or keep_dims (TF 1): the axis is kept with length 1 or dropped. `keepdimPos` is keepdim's positional
 * index; `tupleResult` marks torch's max/min over a dim, which return (values, indices).
 */
export function reduction(
  ev: Evaluator,
  c: Call,
  t0: AValue,
  kind: 'sum' | 'max' | 'norm' | 'other',
  axisNode: PyNode | undefined,
  axisValueNode: PyNode | undefined,
  opts: { keepdimPos?: number; tupleResult?: boolean; mean?: boolean } = {},
): AValue {
  const t = tensorish(t0);
  let axis: number | 'all' | undefined;
  if (!axisValueNode) axis = 'all';
  else {
    const lit = intLiteral(ev.tree, axisValueNode);
    if (lit !== undefined) axis = lit;
    else {
      const v = ev.eval(axisValueNode, c.ctx);
      axis = v.kind === 'number' && v.num !== undefined ? v.num : v.kind === 'none' ? 'all' : undefined;
    }
  }
  const reduced = tensor({ reduced: { kind, of: t, axis, node: c.node, axisNode, axisValueNode } });
  if (kind === 'sum') massOfMaskedWeights(ev, c, t, axis);
  if (opts.tupleResult && axis !== 'all') return reduced;
  const keepdim = keepdimOf(ev, c, opts.keepdimPos);
  const layout = reducedLayout(t, axis, keepdim);
  const scores = kind === 'sum' && typeof axis === 'number' && keepdim !== undefined ? scoresOfPairwise(t, axis, keepdim) : undefined;
  const out: AValue = { ...reduced, ...layout, ...(scores ?? {}), ...(opts.mean ? pooledTokens(t, axis) : {}) };
  // Factors applied to the pairwise product before the sum are factors on these scores: judged as such (ATT004).
  if (scores && t.pairwise) {
    // The size summed over, as the code states it (`view(B, T, 3, 8, 64)`): a literal width on the scores is read against it.
    const size = typeof axis === 'number' ? axisAt(t, axis)?.sizeText : undefined;
    if (size) ev.facts.pairwiseContracted.set(t.pairwise.formedAt, size);
    for (const s of t.pairwise.scaled ?? []) ev.facts.scale.push({ ctx: s.ctx, op: s.op, target: out });
  }
  return out;
}

/**
 * The mean of queries or keys over a token axis (Nyström landmarks: `q.reshape(b, h, m, n // m, d).mean(dim=-2)`) is
 * still queries or keys, scaled as they were: a mean is linear, so a 1/sqrt(d) folded into q before it stays folded
 * into the pooled q. Over the feature (last) axis, or an unknown one, it is something else.
 */
function pooledTokens(t: AValue, axis: number | 'all' | undefined): Pick<AValue, 'role' | 'roleText' | 'ops' | 'multiHead'> | undefined {
  if ((t.role !== 'query' && t.role !== 'key') || typeof axis !== 'number' || t.ndim === undefined) return undefined;
  const d = negAxis(axis, t.ndim);
  if (d === undefined || d === -1) return undefined;
  return { role: t.role, ...(t.roleText ? { roleText: t.roleText } : {}), ...(t.ops ? { ops: t.ops } : {}), ...(t.multiHead ? { multiHead: true } : {}) };
}

/**
 * `A.sum(-1)` of weights masked after their softmax, over the softmax's axis: the code measures the share of each
 * row the mask removed (top-k / remainder splits of one distribution), so the rows not summing to 1 is known to it.
 */
function massOfMaskedWeights(ev: Evaluator, c: Call, t: AValue, axis: number | 'all' | undefined): void {
  const attn = t.attn;
  if (attn?.stage !== 'weights' || !attn.postMask || attn.postMask.length === 0 || typeof axis !== 'number') return;
  if (attn.softmax?.axis === undefined || negAxis(axis, t.ndim) !== attn.softmax.axis) return;
  const operand = c.recvNode ?? c.args.positional[0];
  if (!operand || unparen(operand).type !== 'identifier') return;
  for (const pm of attn.postMask) ev.facts.postMaskRenormalised.add(pm.id);
}

/** A pairwise q * k product summed over an axis that is neither its query nor its key axis: the scores q·kᵀ. */
function scoresOfPairwise(t: AValue, axis: number, keepdim: boolean): Pick<AValue, 'attn' | 'ops' | 'multiHead'> | undefined {
  const p = t.pairwise;
  const d = p ? negAxis(axis, t.ndim) : undefined;
  if (!p || d === undefined || d === p.queryAxis || d === p.keyAxis) return undefined;
  const map = (a: number): number => (keepdim || a > d ? a : a + 1);
  const keyAxis = map(p.keyAxis);
  const attn: AttnInfo = {
    stage: 'scores',
    formedAt: p.formedAt,
    keyAxis,
    keyAxisWhy: msg(PHRASES.keysVaryInBroadcast, `\`${p.keyText ?? 'k'}\``, keyAxis),
    ...(p.queryAxis !== undefined ? { queryAxis: map(p.queryAxis) } : { local: true as const }),
    queryText: p.queryText,
    keyText: p.keyText,
    keyIsKey: p.keyIsKey,
    ...(p.queryProj ? { queryProj: p.queryProj } : {}),
  };
  // Additive scores (tanh, then a projection) follow no 1/sqrt(d) convention: their scale is opaque.
  const ops = p.additive ? [[{ kind: 'opaque' as const, node: p.formedAt }]] : t.ops;
  return { attn, ...(ops ? { ops } : {}), ...(t.multiHead ? { multiHead: true } : {}) };
}

/** keepdim / keepdims / keep_dims as a literal: true, false (also when absent), undefined when not a literal. */
export function keepdimOf(ev: Evaluator, c: Call, pos?: number): boolean | undefined {
  const kw = c.args.keywords.get('keepdim') ?? c.args.keywords.get('keepdims') ?? c.args.keywords.get('keep_dims');
  const node = kw ? kw.value : pos !== undefined ? c.args.positional[pos] : undefined;
  if (!node) return false;
  const text = ev.text(unparen(node));
  return text === 'True' ? true : text === 'False' ? false : undefined;
}

/** The layout left by reducing `axis` of t: the axis dropped, or kept with length 1 (keepdim). Empty when unknown. */
export function reducedLayout(
  t: AValue,
  axis: number | 'all' | undefined,
  keepdim: boolean | undefined,
): Pick<AValue, 'ndim' | 'axes' | 'lastSize1' | 'featLast'> {
  if (axis === undefined || keepdim === undefined) return {};
  const n = t.ndim;
  if (axis === 'all') {
    if (!keepdim) return { ndim: 0, axes: [] };
    return n === undefined ? {} : { ndim: n, axes: Array.from({ length: n }, () => ({ size1: true })) };
  }
  const lastStays = axis !== -1 && (n === undefined ? axis < 0 : posAxis(axis, n) !== n - 1);
  const featLast = t.featLast && lastStays ? { featLast: true as const } : {};
  if (n === undefined) {
    if (keepdim && axis === -1) return { lastSize1: true };
    return featLast;
  }
  const p = posAxis(axis, n);
  if (p === undefined) return {};
  const axes: readonly AxisInfo[] = axesOf(t) ?? Array.from({ length: n }, () => ({}));
  if (keepdim) return { ndim: n, axes: axes.map((a, i) => (i === p ? { size1: true } : a)), ...featLast };
  return { ndim: n - 1, axes: axes.filter((_, i) => i !== p), ...featLast };
}

export function permFromArgs(ev: Evaluator, c: Call, nodes: PyNode[]): number[] | undefined {
  let items = nodes;
  if (items.length === 1 && items[0]) {
    const u = unparen(items[0]);
    if (u.type === 'tuple' || u.type === 'list') items = namedChildren(u);
  }
  const perm: number[] = [];
  for (const n of items) {
    const i = intOf(ev, c, n);
    if (i === undefined) return undefined;
    perm.push(i);
  }
  return perm.length > 0 ? perm : undefined;
}

// ------------------------------------------------------------------------------------------------ flatten, unflatten, movedim, expand

/**
 * flatten(start, end): the axes start..end become one. Facts on the other axes move with them (negative
 * indices right of end are unchanged); facts on a merged axis are lost. At unknown rank only negative bounds
 * say where the axes go.
 */
export function flattenValue(t0: AValue, start: number, end: number): AValue {
  const t = tensorish(t0);
  const out = mutable(t);
  const n = t.ndim;
  if (n === undefined) {
    if (start < 0 && end < 0 && start <= end) {
      remapFacts(out, t, (a) => (a > end ? a : a < start ? a + (end - start) : undefined));
      return out;
    }
    if (start === 0 && end === -1) return tensor({ ndim: 1, axes: [{}] });
    return stripRank(t);
  }
  if (n === 0) return t;
  const s = posAxis(start, n);
  const e = posAxis(end, n);
  if (s === undefined || e === undefined || s > e) return tensor();
  if (s === e) return t;
  const axes: readonly AxisInfo[] = axesOf(t) ?? Array.from({ length: n }, () => ({}));
  const merged = axes.slice(s, e + 1);
  const mergedAxis: AxisInfo = merged.every((a) => a.size1)
    ? { size1: true }
    : merged.every((a) => a.label === 'batch' || a.label === 'head')
      ? { label: 'batch' }
      : {};
  const newN = n - (e - s);
  out.ndim = newN;
  out.axes = [...axes.slice(0, s), mergedAxis, ...axes.slice(e + 1)];
  remapFacts(out, t, (a) => {
    const p = a + n;
    return p < s ? p - newN : p > e ? a : undefined;
  });
  // The last axis merged with the one before it: the scores' rows and columns in one axis.
  if (out.attn && e === n - 1) out.attn = { ...out.attn, pairsMerged: true };
  moveFeatAt(out, t, (a) => {
    const p = a + n;
    return p < s ? p - newN : p > e ? a : undefined;
  });
  return out;
}

/** unflatten(dim, sizes): axis dim becomes one axis per size (labelled as view/reshape labels them). */
export function unflattenValue(ev: Evaluator, c: Call, t0: AValue, dim: number | undefined, sizeNodes: readonly PyNode[]): AValue {
  const t = tensorish(t0);
  const k = sizeNodes.length;
  if (dim === undefined || k === 0 || sizeNodes.some((s) => s.type === 'list_splat')) return stripRank(t);
  const parts = sizeNodes.map((node, i) => reshapeAxis(ev, c, node, i, [...sizeNodes]));
  const out = mutable(t);
  const n = t.ndim;
  if (n === undefined) {
    if (dim >= 0) return stripRank(t);
    const map = (a: number): number | undefined => (a > dim ? a : a < dim ? a - (k - 1) : k === 1 ? a : undefined);
    remapFacts(out, t, map);
    moveFeatAt(out, t, map);
    if (dim === -1 && parts[k - 1]?.label === 'feat') out.featLast = true;
    if (parts.some((a) => a.label === 'head')) out.multiHead = true;
    // The last axis cut into several (`unflatten(-1, (heads, -1))`): no longer a projection's whole width.
    if (dim === -1 && k > 1) delete out.projectedWidth;
    return out;
  }
  const p = posAxis(dim, n);
  if (p === undefined) return tensor();
  const axes: readonly AxisInfo[] = axesOf(t) ?? Array.from({ length: n }, () => ({}));
  const newN = n + k - 1;
  out.ndim = newN;
  out.axes = [...axes.slice(0, p), ...parts, ...axes.slice(p + 1)];
  const map = (a: number): number | undefined => {
    const q = a + n;
    return q < p ? q - newN : q > p ? a : k === 1 ? a : undefined;
  };
  remapFacts(out, t, map);
  moveFeatAt(out, t, map);
  if (p === n - 1 && parts[k - 1]?.label === 'feat') out.featLast = true;
  if (parts.some((a) => a.label === 'head')) out.multiHead = true;
  if (p === n - 1 && k > 1) delete out.projectedWidth;
  return out;
}

/** movedim(source, destination) with integer dims: a permutation when the rank is known. */
export function movedimValue(t0: AValue, source: number | undefined, destination: number | undefined): AValue {
  const t = tensorish(t0);
  const n = t.ndim;
  if (n === undefined || source === undefined || destination === undefined) return stripRank(t);
  const s = posAxis(source, n);
  const d = posAxis(destination, n);
  if (s === undefined || d === undefined) return tensor();
  const rest = Array.from({ length: n }, (_, i) => i).filter((i) => i !== s);
  rest.splice(d, 0, s);
  return permuteValue(t, rest);
}

/**
 * expand / repeat / broadcast_to / tile to `sizeNodes` (`keep` is the size that leaves an axis as it is: -1 for
 * expand, 1 for repeat). New axes are added on the left, so facts kept as negative indices do not move; an axis
 * whose size changes keeps its label but no longer has length 1.
 */
export function expandValue(ev: Evaluator, c: Call, t0: AValue, sizeNodes: readonly PyNode[], keep: number): AValue {
  const t = tensorish(t0);
  const count = sizeNodes.length;
  if (count === 0) return t;
  const out = mutable(t);
  if (t.ndim !== undefined && count < t.ndim) return out;
  const axes = axesOf(t);
  const base: AxisInfo[] =
    axes && t.ndim !== undefined
      ? [...Array.from({ length: count - t.ndim }, () => ({})), ...axes]
      : Array.from({ length: count }, (_, i) => (i === count - 1 && t.lastSize1 ? { size1: true } : {}));
  out.ndim = count;
  // An axis of length 1 (or a new one, on the left) brought to another length holds copies of the same values.
  const added = t.ndim !== undefined ? count - t.ndim : 0;
  out.axes = base.map((ax, i) =>
    intOf(ev, c, sizeNodes[i]) === keep
      ? ax
      : { ...(ax.label ? { label: ax.label } : {}), ...(ax.size1 || ax.repeated || i < added ? { repeated: true } : {}) },
  );
  delete out.lastSize1;
  return out;
}

/** x.expand_as(other): other's rank; each axis is x's (right-aligned) unless x has length 1 there or lacks it. */
export function expandAsValue(t0: AValue, other: AValue): AValue {
  const t = tensorish(t0);
  const out = mutable(t);
  delete out.lastSize1;
  const n = other.ndim;
  if (n === undefined) {
    delete out.ndim;
    delete out.axes;
    return out;
  }
  const ox: readonly AxisInfo[] = axesOf(other) ?? Array.from({ length: n }, () => ({}));
  const tx = axesOf(t);
  const offset = n - (t.ndim ?? 0);
  out.ndim = n;
  out.axes = ox.map((o, i) => {
    const mine = tx && i - offset >= 0 ? tx[i - offset] : undefined;
    if (mine && !mine.size1) return mine;
    // x's length-1 axis (or one it lacks, its rank known) takes other's length: copies of the same values along it.
    const copied = mine ? !!mine.size1 : t.ndim !== undefined && i - offset < 0;
    return copied ? { ...o, repeated: true } : { ...o };
  });
  return out;
}

/** Moves `featAt` (the feature axis when it is not last) through an axis map. */
function moveFeatAt(out: Mutable<AValue>, t: AValue, map: (axis: number) => number | undefined): void {
  if (t.featAt === undefined) return;
  const to = map(t.featAt);
  if (to === undefined) delete out.featAt;
  else if (to === -1) {
    out.featLast = true;
    delete out.featAt;
  } else out.featAt = to;
}
