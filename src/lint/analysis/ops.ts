// What operations do to abstract values: operators, tensor methods, library functions and layers.
// Each handler takes evaluated operands and returns the result's AValue, recording sites on the way.
import { argument, argumentNode, intLiteral, numberLiteral, operatorText, stringLiteral, type CallArgs } from '../syntax/python';
import { childByField, childrenByField, namedChildren, unparen, type PyNode } from '../syntax/tree';
import {
  CONV_LAYERS,
  LINEAR_LAYERS,
  MASK_FUNCTIONS,
  MASK_LAYERS,
  PASS_THROUGH_LAYERS,
  SDPA_FUNCTIONS,
  SHAPE_KEEPING_LAYERS,
  SOFTMAX_FUNCTIONS,
  SOFTMAX_LAYERS,
  SOFTMAX_METHOD,
  displayName,
  frameworkOf,
  type SoftmaxApi,
} from './apis';
import type { Evaluator } from './evaluator';
import type { Ctx } from './facts';
import { einopsLabels, labelOfAxisName, negIndexInTerm, normalisePerm, parseEinopsPattern, parseEinsum, isPermutation, posAxis, swapNegative } from './layout';
import { cacheMethod } from './kv-cache';
import { causalAdditive, isHeadMask, isMaskingFill, isMaskLike, maskConsumerArgs, maskFunction, maskLogic, maskMethod, sliceCausalMask, tokenizerAttentionMask } from './mask-ops';
import { flipMask, transposeMask, withMaskDtype } from './masks';
import {
  axisLabelOfName,
  dimOfName,
  isCacheName,
  isContextName,
  isHeadCountName,
  isPackedProjection,
  isProjectionName,
  isScaleName,
  nameTokens,
  projectionRole,
  roleOfName,
} from './names';
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
  type DType,
  type DimInfo,
  type MaskInfo,
  type PathOp,
  type ScaleOp,
} from './values';

export interface Call {
  readonly node: PyNode;
  readonly ctx: Ctx;
  readonly args: CallArgs;
  /** Method name, or the qualified name for module functions. */
  readonly name: string;
  readonly recv?: AValue;
  readonly recvNode?: PyNode;
  readonly calleeNode?: PyNode;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

// ================================================================================================ helpers

function arg(c: Call, name: string, pos?: number): PyNode | undefined {
  return argument(c.args, name, pos);
}

function val(ev: Evaluator, c: Call, node: PyNode | undefined): AValue {
  return node ? ev.eval(node, c.ctx) : UNKNOWN;
}

/** Integer value of an argument node: a literal, or a name bound to one. */
function intOf(ev: Evaluator, c: Call, node: PyNode | undefined): number | undefined {
  if (!node) return undefined;
  const lit = intLiteral(ev.tree, node);
  if (lit !== undefined) return lit;
  const v = ev.eval(node, c.ctx);
  return v.kind === 'number' && v.num !== undefined && Number.isInteger(v.num) ? v.num : undefined;
}

/** Base identifier of an expression: `k.transpose(-2, -1)` → k, `self.key(x)` → key, `ctx[0]` → ctx. */
export function rootName(ev: Evaluator, node: PyNode | undefined): string | undefined {
  let n = node ? unparen(node) : undefined;
  while (n) {
    if (n.type === 'identifier') return ev.text(n);
    if (n.type === 'attribute') {
      const obj = childByField(n, 'object');
      const attr = childByField(n, 'attribute');
      if (obj && unparen(obj).type === 'identifier' && ev.text(unparen(obj)) === 'self' && attr) return ev.text(attr);
      n = obj ? unparen(obj) : undefined;
      continue;
    }
    if (n.type === 'call') {
      const f = childByField(n, 'function');
      if (f && f.type === 'attribute') {
        const obj = childByField(f, 'object');
        const objU = obj ? unparen(obj) : undefined;
        if (objU && objU.type === 'identifier' && ev.text(objU) === 'self') return ev.text(childByField(f, 'attribute')!);
        n = objU;
        continue;
      }
      return undefined;
    }
    if (n.type === 'subscript') {
      const v = childByField(n, 'value');
      n = v ? unparen(v) : undefined;
      continue;
    }
    return undefined;
  }
  return undefined;
}

/** A small constant added for numerical safety: `1e-6`, `eps`, `self.eps`. */
function isEpsilon(ev: Evaluator, v: AValue, node: PyNode | undefined): boolean {
  if (v.kind === 'number' && v.num !== undefined) return Math.abs(v.num) < 1e-2;
  const name = node ? rootName(ev, node) : undefined;
  return !!name && /(^|_)(eps|epsilon|tiny)($|_)/i.test(name);
}

function isZero(v: AValue): boolean {
  return v.kind === 'number' && v.num === 0;
}

function isNumberLike(v: AValue): boolean {
  return v.kind === 'number' || v.kind === 'bool';
}

function mutable(v: AValue): Mutable<AValue> {
  return { ...v };
}

function dtypeOfValue(v: AValue): DType | undefined {
  if (v.kind === 'dtype') return v.dtypeName;
  if (v.kind === 'module' && v.qname) return dtypeOfQname(v.qname);
  if (v.kind === 'string' && v.str) return dtypeOfQname(v.str);
  return undefined;
}

function dtypeOfQname(q: string): DType | undefined {
  const last = q.split('.').pop() ?? q;
  switch (last) {
    case 'bool':
    case 'bool_':
      return 'bool';
    case 'float16':
    case 'half':
      return 'float16';
    case 'bfloat16':
      return 'bfloat16';
    case 'float32':
    case 'float':
      return 'float32';
    case 'float64':
    case 'double':
      return 'float64';
    case 'int64':
    case 'int32':
    case 'long':
    case 'int':
    case 'uint8':
    case 'int8':
    case 'int16':
      return 'int';
    default:
      return undefined;
  }
}

function dtypeKwarg(ev: Evaluator, c: Call): DType | undefined {
  const d = arg(c, 'dtype');
  return d ? dtypeOfValue(val(ev, c, d)) : undefined;
}

// ================================================================================================ dims & scales

/** The dimension an axis of a tensor stands for, as a number value (`k.size(-1)`, `q.shape[-1]`). */
export function dimOfShape(t: AValue, index: number): AValue {
  const ax = axisAt(t, index);
  const ndim = t.ndim;
  const isLast = index === -1 || (ndim !== undefined && index === ndim - 1);
  const text = `${t.roleText ?? 'x'}.shape[${index}]`;
  if (ax?.sizeText) {
    const byName = dimOfName(ax.sizeText);
    if (byName) return number({ dimPow: { dim: { ...byName, ofTensor: t }, power: 1 } });
  }
  if (ax?.label === 'head') return number({ headCount: true });
  if (ax?.label === 'feat' || isLast) {
    const which: DimInfo['which'] = t.multiHead ? 'head' : t.featLast && t.projectedWidth ? 'model' : t.role === 'query' || t.role === 'key' ? 'head' : 'unknown';
    return number({ dimPow: { dim: { which, text, ofTensor: t, ...(isLast ? { lastAxisOf: true } : {}) }, power: 1 } });
  }
  return number({ dimPow: { dim: { which: 'unknown', text, ofTensor: t }, power: 1 } });
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

/** Multiplier classification of a number used to scale: dim^power, a named scale, or unknown. */
function scaleOp(ev: Evaluator, factor: AValue, factorNode: PyNode, opNode: PyNode, divide: boolean, on: ScaleOp['on']): ScaleOp {
  const name = rootName(ev, factorNode);
  const named = factor.scaleName ?? (name && isScaleName(name) ? name : undefined);
  const op: Mutable<ScaleOp> = { kind: 'scale', node: opNode, factorNode, on };
  const bareFactor = unparen(factorNode);
  const byName = !factor.dimPow && (bareFactor.type === 'identifier' || bareFactor.type === 'attribute') && name ? dimOfName(name) : undefined;
  if (factor.dimPow) {
    op.power = divide ? -factor.dimPow.power : factor.dimPow.power;
    op.dim = factor.dimPow.dim;
  } else if (byName && factor.kind !== 'number') {
    // `scores / dk` where dk's value is opaque (a framework constant) but its name says it is a dimension.
    op.power = divide ? -1 : 1;
    op.dim = { ...byName, text: ev.text(bareFactor) };
  }
  if (named) op.named = named;
  if (factor.kind === 'number' && factor.num !== undefined && !factor.dimPow) op.constant = factor.num;
  return op;
}

function scaleTarget(v: AValue): ScaleOp['on'] | undefined {
  if (v.attn) return v.attn.stage === 'scores' ? 'scores' : 'weights';
  if (v.role === 'query') return 'query';
  if (v.role === 'key') return 'key';
  return undefined;
}

/** tensor * number or tensor / number. */
function scaleTensor(ev: Evaluator, t: AValue, factor: AValue, factorNode: PyNode, opNode: PyNode, divide: boolean, ctx: Ctx, tNode?: PyNode): AValue {
  const on = scaleTarget(t);
  let out = t;
  // A mask times a large negative constant is an additive mask built from it.
  if (t.mask && !t.mask.additive && !divide && isMaskingFill(factor)) {
    const m = t.mask;
    ev.facts.fill.push({ node: opNode, ctx, how: 'add', target: t, targetNode: tNode, fillNode: factorNode, fill: factor, mask: t, maskNode: tNode, maskSelectsFill: true });
    if (tNode) ev.facts.mask.push({ node: opNode, ctx, display: 'additive mask', param: 'mask', expects: 'ignore', convention: 'fill', maskNode: tNode, mask: t });
    return tensor({ ndim: t.ndim, axes: t.axes, mask: { ...m, additive: true, polarity: undefined, dtype: 'float', why: `${m.why} times a large negative number`, builtFrom: m.polarity } });
  }
  // A mask times a large positive constant, to be subtracted from the scores (`scores - 1e30 * mask`).
  if (t.mask && !t.mask.additive && !divide && factor.kind === 'number' && factor.num !== undefined && factor.num >= 1e4) {
    // Judged as a fill of -factor (what the subtraction writes into the masked scores).
    ev.facts.fill.push({ node: opNode, ctx, how: 'add', target: t, targetNode: tNode, fillNode: factorNode, fill: number({ num: -factor.num }), mask: t, maskNode: tNode, maskSelectsFill: true, subtracted: true });
    return tensor({ ndim: t.ndim, axes: t.axes, mask: { ...t.mask, scaledPositive: true, why: `${t.mask.why} times a large positive number` } });
  }
  // normalize(x) * sqrt(d) * gamma is an RMS norm's rescaling, not an attention scale.
  if (on && t.normalized && on !== 'scores' && on !== 'weights') return addOp(t, { kind: 'opaque', node: opNode });
  if (on) {
    const op = scaleOp(ev, factor, factorNode, opNode, divide, on);
    ev.facts.scale.push({ ctx, op, target: t });
    out = addOp(t, op);
  } else if (t.kind === 'tensor' && !t.mask && !t.attn) {
    // `q, k, v = qkv[0] * self.scale, qkv[1], qkv[2]`: scaled before it is named. Keep the op (it may become
    // q or k) without reporting it as a site.
    out = addOp(t, scaleOp(ev, factor, factorNode, opNode, divide, 'query'));
  }
  if (out.mask && (out.mask.additive || factor.num === 1)) return out;
  if (out.mask) {
    const o = mutable(out);
    delete o.mask;
    return o;
  }
  return out;
}

// ================================================================================================ operators

export function evalBinary(ev: Evaluator, node: PyNode, ctx: Ctx): AValue {
  const l = childByField(node, 'left');
  const r = childByField(node, 'right');
  const op = operatorText(ev.tree, node) ?? '';
  const lv = ev.eval(l, ctx);
  const rv = ev.eval(r, ctx);
  return callOperator(ev, op, lv, rv, l, r, node, ctx);
}

/** Shared by binary operators and augmented assignment (`scores /= math.sqrt(d)`). */
export function callOperator(ev: Evaluator, op: string, lv: AValue, rv: AValue, l: PyNode | undefined, r: PyNode | undefined, node: PyNode, ctx: Ctx): AValue {
  switch (op) {
    case '@':
      return matmul(ev, { node, ctx, args: emptyArgs(), name: '@' }, lv, rv, l, r, '@');
    case '*':
      return multiply(ev, lv, rv, l, r, node, ctx);
    case '/':
      return divide(ev, lv, rv, l, r, node, ctx);
    case '//':
      return floorDivide(ev, lv, rv, l, r);
    case '+':
    case '-':
      return addSub(ev, op, lv, rv, l, r, node, ctx);
    case '**':
      return power(ev, lv, rv);
    case '&':
    case '|':
      return maskLogic(lv, rv, op === '&' ? 'and' : 'or');
    default:
      return lv.kind === 'number' && rv.kind === 'number' ? number() : UNKNOWN;
  }
}

function emptyArgs(): CallArgs {
  return { positional: [], keywords: new Map(), hasSplat: false, list: undefined };
}

function multiply(ev: Evaluator, lv: AValue, rv: AValue, l: PyNode | undefined, r: PyNode | undefined, node: PyNode, ctx: Ctx): AValue {
  if (lv.kind === 'number' && rv.kind === 'number') return numberTimes(lv, rv);
  if (isNumberLike(rv) && l && r) return scaleTensor(ev, tensorish(lv), rv, r, node, false, ctx, l);
  if (isNumberLike(lv) && l && r) return scaleTensor(ev, tensorish(rv), lv, l, node, false, ctx, r);
  // tensor * tensor
  if (lv.mask && rv.mask) return maskLogic(lv, rv, 'and');
  if (lv.mask?.additive === undefined && rv.kind === 'tensor' && rv.fillValue !== undefined && lv.mask) return scaleTensor(ev, lv, number({ num: rv.fillValue }), r!, node, false, ctx);
  const [t, other, otherNode] = lv.attn ? [lv, rv, r] : rv.attn ? [rv, lv, l] : [undefined, undefined, undefined];
  if (t && other && otherNode) {
    if (isMaskLike(ev, other, otherNode)) {
      if (t.attn!.stage === 'scores') return addOp(t, { kind: 'mask', node, how: 'mul', maskNode: otherNode });
      if (!isHeadMask(ev, otherNode)) {
        ev.facts.weightsMask.push({ node, ctx, weights: t, maskNode: otherNode });
        return { ...t, attn: { ...t.attn!, postMask: [...(t.attn!.postMask ?? []), node] } };
      }
      return t;
    }
    // Scores times a tensor-valued scale (logit_scale.exp(), a temperature tensor).
    const name = rootName(ev, otherNode);
    if (other.kind === 'number' || (name && isScaleName(name)) || other.scaleName) return scaleTensor(ev, t, other, otherNode, node, false, ctx);
    return { ...t, attn: t.attn!.stage === 'weights' ? t.attn : undefined, ops: t.ops };
  }
  // logits * mask before any softmax (attention pooling logits, not q·kᵀ): a multiplicative mask.
  if (lv.kind === 'tensor' && !lv.mask && r && rv.kind === 'tensor' && isMaskLike(ev, rv, r) && !isHeadMask(ev, r)) return addOp(lv, { kind: 'mask', node, how: 'mul', maskNode: r });
  if (rv.kind === 'tensor' && !rv.mask && l && lv.kind === 'tensor' && isMaskLike(ev, lv, l) && !isHeadMask(ev, l)) return addOp(rv, { kind: 'mask', node, how: 'mul', maskNode: l });
  // q * scale where scale is a tensor (e.g. torch.tensor(d).rsqrt())
  if ((lv.role === 'query' || lv.role === 'key') && r && (rv.dimPow || rv.scaleName || isScaleName(rootName(ev, r) ?? ''))) return scaleTensor(ev, lv, rv, r, node, false, ctx);
  if ((rv.role === 'query' || rv.role === 'key') && l && (lv.dimPow || lv.scaleName || isScaleName(rootName(ev, l) ?? ''))) return scaleTensor(ev, rv, lv, l, node, false, ctx);
  // q * gamma (a learned per-channel weight): same tensor, scaled by something unknown.
  if ((lv.role || lv.normalized) && rv.kind !== 'number' && !rv.mask && !rv.role) return addOp({ ...lv }, { kind: 'opaque', node });
  if ((rv.role || rv.normalized) && lv.kind !== 'number' && !lv.mask && !lv.role) return addOp({ ...rv }, { kind: 'opaque', node });
  return broadcastResult(lv, rv);
}

function tensorish(v: AValue): AValue {
  return v.kind === 'unknown' ? tensor() : v;
}

function numberTimes(a: AValue, b: AValue): AValue {
  const out: Mutable<AValue> = { kind: 'number' };
  if (a.num !== undefined && b.num !== undefined) out.num = a.num * b.num;
  if (a.dimPow && b.num !== undefined) out.scaleName = a.scaleName;
  if (a.scaleName || b.scaleName) out.scaleName = a.scaleName ?? b.scaleName;
  // A finfo min times a positive constant is still a masking fill.
  if ((a.finfo || b.finfo) && ((a.num ?? 1) > 0 || (b.num ?? 1) > 0)) out.finfo = a.finfo ?? b.finfo;
  if (a.dimPow && b.dimPow && a.dimPow.dim.text === b.dimPow.dim.text) out.dimPow = { dim: a.dimPow.dim, power: a.dimPow.power + b.dimPow.power };
  return out;
}

function divide(ev: Evaluator, lv: AValue, rv: AValue, _l: PyNode | undefined, r: PyNode | undefined, node: PyNode, ctx: Ctx): AValue {
  if (lv.kind === 'number' && rv.kind === 'number') {
    const out: Mutable<AValue> = { kind: 'number' };
    if (lv.num !== undefined && rv.num !== undefined && rv.num !== 0) out.num = lv.num / rv.num;
    if (rv.dimPow && lv.num !== undefined && lv.num > 0) out.dimPow = { dim: rv.dimPow.dim, power: -rv.dimPow.power };
    else if (lv.dimPow && rv.headCount) out.dimPow = { dim: { which: 'head', text: `${lv.dimPow.dim.text} / heads` }, power: 1 };
    else if (lv.dimPow && rv.num !== undefined) out.dimPow = undefined;
    if (rv.scaleName || lv.scaleName) out.scaleName = rv.scaleName ?? lv.scaleName;
    return out;
  }
  if (isNumberLike(rv) && r) return scaleTensor(ev, tensorish(lv), rv, r, node, true, ctx);
  // Renormalisation: w / w.sum(dim, keepdim=True)
  if (rv.reduced && rv.reduced.kind === 'sum') {
    const of = rv.reduced.of;
    if (lv.expOfScores && of.expOfScores === lv.expOfScores) return handSoftmax(ev, lv, rv, node, ctx);
    if (lv.attn && lv.attn.stage === 'weights' && of.attn?.softmax?.site === lv.attn.softmax?.site) {
      return renormalise(ev, lv, typeof rv.reduced.axis === 'number' ? negAxis(rv.reduced.axis, lv.ndim) : undefined, ctx);
    }
    if (of === lv || (of.role && of.role === lv.role)) return { ...lv, normalized: true };
  }
  if (rv.reduced && rv.reduced.kind === 'norm') return { ...lv, normalized: true };
  // Scores divided by a tensor-valued scale (torch.sqrt(torch.tensor(d)), a temperature parameter).
  if ((lv.attn || lv.role === 'query' || lv.role === 'key') && r && (rv.dimPow || rv.scaleName || (rootName(ev, r) && isScaleName(rootName(ev, r)!)))) return scaleTensor(ev, lv, rv, r, node, true, ctx);
  if (lv.attn && r) return scaleTensor(ev, lv, rv, r, node, true, ctx);
  return broadcastResult(lv, rv);
}

/** Weights divided by their own sum along `axis` (negative index): they now sum to 1 along that axis. */
function renormalise(ev: Evaluator, w: AValue, axis: number | undefined, ctx: Ctx): AValue {
  const attn = w.attn!;
  const site = attn.softmax?.site;
  if (site) {
    const list = ev.facts.renormalised.get(site.id) ?? [];
    list.push(ctx.id);
    ev.facts.renormalised.set(site.id, list);
  }
  for (const pm of attn.postMask ?? []) ev.facts.postMaskRenormalised.add(pm.id);
  return { ...w, attn: { ...attn, postMask: undefined, renormAxis: axis, softmax: attn.softmax ? { ...attn.softmax, axis } : undefined } };
}

function floorDivide(ev: Evaluator, lv: AValue, rv: AValue, l: PyNode | undefined, r: PyNode | undefined): AValue {
  if (rv.headCount || (r && isHeadCountName(rootName(ev, r) ?? ''))) {
    if (l) ev.modelDimTexts.add(ev.text(l));
    return number({ dimPow: { dim: { which: 'head', text: l ? `${ev.text(l)} // ${r ? ev.text(r) : 'heads'}` : 'head_dim' }, power: 1 } });
  }
  if (lv.num !== undefined && rv.num !== undefined && rv.num !== 0) return number({ num: Math.floor(lv.num / rv.num) });
  return number();
}

function power(ev: Evaluator, lv: AValue, rv: AValue): AValue {
  void ev;
  if (lv.kind !== 'number' && lv.kind !== 'tensor') return UNKNOWN;
  const p = rv.num;
  if (p === undefined) return number();
  const out: Mutable<AValue> = { kind: 'number' };
  if (lv.num !== undefined) out.num = lv.num ** p;
  if (lv.dimPow) out.dimPow = { dim: lv.dimPow.dim, power: lv.dimPow.power * p };
  else if (lv.headCount) out.dimPow = { dim: { which: 'heads', text: 'num_heads' }, power: p };
  if (lv.scaleName) out.scaleName = lv.scaleName;
  return out;
}

function addSub(ev: Evaluator, op: string, lv: AValue, rv: AValue, l: PyNode | undefined, r: PyNode | undefined, node: PyNode, _ctx: Ctx): AValue {
  if (lv.kind === 'number' && rv.kind === 'number') {
    if (lv.num !== undefined && rv.num !== undefined) return number({ num: op === '+' ? lv.num + rv.num : lv.num - rv.num });
    return number({ ...(lv.finfo || rv.finfo ? { finfo: lv.finfo ?? rv.finfo } : {}) });
  }
  // `x.sum(dim) + eps`: still that sum (a renormalisation keeps its meaning with a small epsilon).
  if (op === '+' && rv.reduced && isEpsilon(ev, lv, l)) return rv;
  if (op === '+' && lv.reduced && isEpsilon(ev, rv, r)) return lv;
  // `scores - 1e30 * mask`: subtracting a mask times a large positive number masks.
  if (op === '-' && lv.attn?.stage === 'scores' && rv.mask?.scaledPositive && r) return addOp(lv, { kind: 'mask', node, how: 'add', maskNode: r });
  // 1 - mask flips a 0/1 mask.
  if (op === '-' && lv.kind === 'number' && lv.num === 1 && rv.mask && r) {
    const flipped = flipMask(rv.mask, `\`1 - ${ev.text(r)}\``, 'float');
    return flipped ? { ...rv, mask: flipped } : tensor({ ndim: rv.ndim, axes: rv.axes });
  }
  // Scores + mask: an additive mask (or scores - large * mask).
  if (lv.attn && lv.attn.stage === 'scores' && r) {
    if (op === '+' && rv.mask && !rv.mask.additive && rv.mask.polarity && rv.mask.dtype === 'bool') {
      // A boolean mask added to the scores adds 0/1, not -inf.
      return addOp(lv, { kind: 'mask', node, how: 'add01', maskNode: r });
    }
    if (isMaskLike(ev, rv, r) || rv.mask?.additive) {
      return addOp(lv, { kind: 'mask', node, how: 'add', maskNode: r });
    }
    // Subtracting the row max (numerical stability) or adding a position bias keeps the scores.
    return lv;
  }
  if (rv.attn && rv.attn.stage === 'scores' && l && op === '+') {
    if (isMaskLike(ev, lv, l) || lv.mask?.additive) return addOp(rv, { kind: 'mask', node, how: 'add', maskNode: l });
    return rv;
  }
  if (lv.attn && lv.attn.stage === 'weights') return lv; // weights + eps (slot attention)
  // additive mask + additive mask
  if (lv.mask?.additive && rv.mask?.additive) return { ...lv, mask: { ...lv.mask, why: `${lv.mask.why} + ${rv.mask.why}`, padAxes: [...new Set([...(lv.mask.padAxes ?? []), ...(rv.mask.padAxes ?? [])])] } };
  // arange offsets: i + 1
  if (lv.index && rv.kind === 'number' && rv.num !== undefined) return { ...lv, index: { axis: lv.index.axis, offset: lv.index.offset + (op === '+' ? rv.num : -rv.num) } };
  if (lv.kind === 'number' && rv.kind === 'tensor' && (rv.role || rv.attn)) return rv;
  // q + u_bias (Transformer-XL), x + pos: a tensor with a role keeps it when the other side has none.
  if (lv.kind === 'tensor' && lv.role && !rv.role && !rv.mask && rv.kind !== 'number') return { ...lv, ops: lv.ops };
  if (rv.kind === 'tensor' && rv.role && !lv.role && !lv.mask && lv.kind !== 'number' && op === '+') return rv;
  if (rv.kind === 'number' && lv.kind === 'tensor') {
    const o = mutable(lv);
    delete o.mask;
    return o;
  }
  return broadcastResult(lv, rv);
}

export function broadcastResult(a: AValue, b: AValue): AValue {
  if (a.kind === 'tensor' && b.kind !== 'tensor') return stripFacts(a);
  if (b.kind === 'tensor' && a.kind !== 'tensor') return stripFacts(b);
  if (a.kind === 'tensor' && b.kind === 'tensor') {
    const ndim = a.ndim !== undefined && b.ndim !== undefined ? Math.max(a.ndim, b.ndim) : undefined;
    return tensor(ndim !== undefined ? { ndim, axes: Array.from({ length: ndim }, () => ({})) } : {});
  }
  return UNKNOWN;
}

function stripFacts(t: AValue): AValue {
  return tensor({ ndim: t.ndim, axes: t.axes, multiHead: t.multiHead });
}

export function evalUnary(ev: Evaluator, node: PyNode, ctx: Ctx): AValue {
  const op = operatorText(ev.tree, node);
  const argNode = childByField(node, 'argument');
  const v = ev.eval(argNode, ctx);
  if (op === '-') {
    if (v.kind === 'number') {
      const out: Mutable<AValue> = { kind: 'number' };
      if (v.num !== undefined) out.num = -v.num;
      if (v.finfo) {
        out.finfo = v.finfo;
        if (!v.finfoMax) out.finfoMax = true;
      }
      return out;
    }
    return v.kind === 'tensor' ? stripFacts(v) : UNKNOWN;
  }
  if (op === '+') return v;
  if (op === '~') {
    if (v.mask && argNode) {
      const f = flipMask(v.mask, `\`~${ev.text(argNode)}\``);
      return f ? { ...v, mask: f } : stripFacts(v);
    }
    if (v.index) return UNKNOWN;
    return v.kind === 'tensor' ? tensor({ ndim: v.ndim, axes: v.axes, dtype: 'bool' }) : UNKNOWN;
  }
  return UNKNOWN;
}

// ================================================================================================ comparisons

// ================================================================================================ subscripts & attributes

export function evalSubscript(ev: Evaluator, node: PyNode, ctx: Ctx): AValue {
  const valueNode = childByField(node, 'value');
  const subs = childrenByField(node, 'subscript');
  const v = ev.eval(valueNode, ctx);
  if (subs.length === 1) {
    const key = stringLiteral(ev.tree, subs[0]);
    if (key !== undefined) return dictItem(ev, v, key, valueNode);
  }
  if (v.kind === 'tuple') {
    if (subs.length === 1) {
      const i = intLiteral(ev.tree, subs[0]);
      if (v.shapeOf && i !== undefined) return dimOfShape(v.shapeOf, i);
      if (v.elements && i !== undefined) {
        const idx = i < 0 ? v.elements.length + i : i;
        return idx >= 0 && idx < v.elements.length ? v.elements[idx] : UNKNOWN;
      }
      if (v.elements && v.elements.length > 0 && subs[0].type === 'slice') return v;
    }
    return UNKNOWN;
  }
  if (v.kind !== 'tensor' && v.kind !== 'unknown') return UNKNOWN;
  const cacheRead = valueNode && isCacheName(rootName(ev, valueNode) ?? '');
  const out = sliceCausalMask(ev, indexTensor(ev, tensorish(v), subs), subs);
  return cacheRead ? { ...out, fromCache: true } : out;
}

function dictItem(ev: Evaluator, v: AValue, key: string, valueNode: PyNode | undefined): AValue {
  void valueNode;
  void ev;
  if (key === 'attention_mask') return tokenizerAttentionMask(`\`["attention_mask"]\``);
  if (key === 'input_ids') return tensor({ tokenIds: true, ndim: 2, axes: [{ label: 'batch' }, { label: 'seq' }] });
  if (v.kind === 'object') return UNKNOWN;
  return UNKNOWN;
}

/** x[a, None, ..., b:c]: rank and axis bookkeeping; keeps mask and attention facts when the last axes stay. */
function indexTensor(ev: Evaluator, v: AValue, subs: PyNode[]): AValue {
  type Item = 'keep' | 'drop' | 'new' | 'ellipsis' | 'unknown';
  const items: Item[] = subs.map((s) => {
    const u = unparen(s);
    if (u.type === 'slice') return 'keep';
    if (u.type === 'none') return 'new';
    if (u.type === 'attribute' && /^(tf|np|jnp|numpy|tensorflow|torch)\.newaxis$/.test(ev.text(u))) return 'new';
    if (u.type === 'ellipsis') return 'ellipsis';
    if (intLiteral(ev.tree, u) !== undefined) return 'drop';
    return 'unknown';
  });
  if (items.includes('unknown')) return tensor({ mask: undefined });
  // Map each old negative axis index to the new one (undefined = dropped/unknown).
  const ell = items.indexOf('ellipsis');
  const out = mutable(v);
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
    const newAxes: AxisInfo[] = Array.from({ length: newNdim }, () => ({}));
    if (axes) for (const [o, n] of oldToNew) newAxes[n] = axes[o];
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
  return out;
}

/** Moves negative-index facts (key axis, softmax axis, padding axes, triangular masks) through an axis map. */
function remapFacts(out: Mutable<AValue>, v: AValue, mapNeg: (axis: number) => number | undefined): void {
  if (v.attn) {
    const a: Mutable<AttnInfo> = { ...v.attn };
    if (a.keyAxis !== undefined) a.keyAxis = mapNeg(a.keyAxis);
    if (a.softmax) a.softmax = { ...a.softmax, axis: a.softmax.axis !== undefined ? mapNeg(a.softmax.axis) : undefined };
    if (a.renormAxis !== undefined) a.renormAxis = mapNeg(a.renormAxis);
    out.attn = a;
  }
  if (v.mask) {
    const m: Mutable<MaskInfo> = { ...v.mask };
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
  if (v.featLast && mapNeg(-1) !== -1) delete out.featLast;
  if (v.lastSize1 && mapNeg(-1) !== -1) delete out.lastSize1;
  if (v.index) {
    const ax = mapNeg(v.index.axis);
    if (ax === undefined) delete out.index;
    else out.index = { axis: ax, offset: v.index.offset };
  }
}

export function evalAttributeOf(ev: Evaluator, obj: AValue, attr: string, node: PyNode, ctx: Ctx): AValue {
  void ctx;
  if (obj.kind === 'module' && obj.qname) {
    const q = `${obj.qname}.${attr}`;
    const dt = dtypeOfQname(q);
    if (dt && /^(torch|numpy|jax\.numpy|tensorflow)\.[a-z0-9_]+$/.test(q)) return { kind: 'dtype', dtypeName: dt };
    if (/^(torch|numpy|math|jax\.numpy)\.inf$/.test(q)) return number({ num: Infinity });
    if (/^(numpy)\.(NINF)$/.test(q)) return number({ num: -Infinity });
    if (/^(math|numpy|torch)\.pi$/.test(q)) return number({ num: Math.PI });
    return { kind: 'module', qname: q };
  }
  if (obj.kind === 'object') {
    const a = ev.attributeOfObject(obj, attr);
    if (a) return a;
    const field = obj.object ? ev.classField(obj.object.cls, attr) : undefined;
    if (field) return field;
    const dim = dimOfName(attr);
    if (dim) return number({ dimPow: { dim: { ...dim, text: `self.${attr}` }, power: 1 } });
    if (isScaleName(attr)) return number({ scaleName: `self.${attr}` });
    if (isHeadCountName(attr)) return number({ headCount: true });
    return ev.nameRole(UNKNOWN, attr);
  }
  if (obj.kind === 'finfo') {
    if (attr === 'min' || attr === 'max') return number({ finfo: obj.finfoOf ?? 'of-tensor', ...(attr === 'max' ? { finfoMax: true } : {}) });
    return number();
  }
  if (obj.kind === 'tensor' || obj.kind === 'unknown') {
    switch (attr) {
      case 'T':
        return reverseAxes(obj);
      case 'mT':
        return transposeLastTwo(obj);
      case 'shape':
        return { kind: 'tuple', shapeOf: obj, ...(obj.ndim !== undefined ? { elements: Array.from({ length: obj.ndim }, (_, i) => dimOfShape(obj, i)) } : {}) };
      case 'dtype':
        return obj.dtype ? { kind: 'dtype', dtypeName: obj.dtype } : { kind: 'dtype' };
      case 'ndim':
        return obj.ndim !== undefined ? number({ num: obj.ndim }) : number();
      case 'attention_mask':
        return tokenizerAttentionMask(`\`.attention_mask\``);
      case 'input_ids':
        return tensor({ tokenIds: true, ndim: 2, axes: [{ label: 'batch' }, { label: 'seq' }] });
      case 'data':
        return obj;
      default: {
        const dim = dimOfName(attr);
        if (dim && obj.kind === 'unknown') return number({ dimPow: { dim: { ...dim, text: ev.text(node) }, power: 1 } });
        if (isScaleName(attr) && obj.kind === 'unknown') return number({ scaleName: ev.text(node) });
        if (isHeadCountName(attr) && obj.kind === 'unknown') return number({ headCount: true });
        return obj.kind === 'unknown' ? ev.nameRole(UNKNOWN, attr) : UNKNOWN;
      }
    }
  }
  if (obj.kind === 'layer' && obj.layer) {
    if (attr === 'weight' || attr === 'bias') return tensor();
    return UNKNOWN;
  }
  return UNKNOWN;
}

// ================================================================================================ shape ops

function reverseAxes(v: AValue): AValue {
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

function permuteValue(t: AValue, permIn: readonly number[]): AValue {
  if (!isPermutation(permIn)) return tensor();
  const perm = normalisePerm(permIn);
  const n = perm.length;
  if (t.ndim !== undefined && t.ndim !== n) return tensor();
  const out = mutable(t);
  out.ndim = n;
  const axes = axesOf(t);
  out.axes = perm.map((p) => (axes ? axes[p] : {}));
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
  return out;
}

function transposeValue(ev: Evaluator, t0: AValue, a: number | undefined, b: number | undefined): AValue {
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
  void ev;
  if (a < 0 && b < 0) return swapUnknownRank(t, a, b);
  // Positive dims on an unknown rank: only leading axes are known to move.
  const out = mutable(t);
  if (t.attn) out.attn = { ...t.attn, keyAxis: undefined, softmax: t.attn.softmax ? { ...t.attn.softmax, axis: undefined } : undefined };
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
  return out;
}

function unsqueezeValue(t0: AValue, d: number | undefined): AValue {
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
    return out;
  }
  // Positive dim on unknown rank: leading insert keeps the last axes (assume it is not an append).
  remapFacts(out, t, (axis) => (axis >= -1 ? axis : undefined));
  if (out.mask?.padAxes?.length === 0) delete (out.mask as Mutable<MaskInfo>).padAxes;
  return out;
}

function squeezeValue(t0: AValue, d: number | undefined): AValue {
  const t = tensorish(t0);
  if (d === undefined || t.ndim === undefined) {
    const out = mutable(stripFacts(t));
    delete out.ndim;
    delete out.axes;
    if (t.attn && d !== undefined && d < 0 && t.attn.keyAxis !== undefined && t.attn.keyAxis > d) out.attn = t.attn;
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
  return out;
}

/** view/reshape: rank and axis labels from the size arguments; attention facts survive when the last axis does. */
function firstNamedChildOf(node: PyNode): PyNode | undefined {
  return node.children.find((ch) => ch.named);
}

function reshapeValue(ev: Evaluator, c: Call, t0: AValue, sizeNodes: PyNode[]): AValue {
  const t = tensorish(t0);
  let nodes = sizeNodes;
  // view(*output_size): the splat is not a positional argument; take it when it is the only argument.
  // With `output_size = (a, b, c, d)` assigned once in this function, its elements are the sizes.
  if (nodes.length === 0 && c.args.hasSplat && c.args.list) {
    const all = namedChildren(c.args.list);
    const inner = all.length === 1 && all[0].type === 'list_splat' ? firstNamedChildOf(all[0]) : undefined;
    const defs = inner && inner.type === 'identifier' ? ev.resolve(inner, ev.text(inner)) : undefined;
    const value = defs && defs.length === 1 && defs[0].kind === 'assign' && defs[0].path.length === 0 ? defs[0].value : undefined;
    const tuple = value ? unparen(value) : undefined;
    if (tuple && (tuple.type === 'tuple' || tuple.type === 'list') && !namedChildren(tuple).some((e) => e.type === 'list_splat')) nodes = namedChildren(tuple);
  }
  if (nodes.length === 1) {
    const u = unparen(nodes[0]);
    if (u.type === 'tuple' || u.type === 'list') nodes = namedChildren(u);
    else {
      const v = ev.eval(u, c.ctx);
      if (v.kind === 'tuple' && v.shapeOf && v.shapeOf.ndim !== undefined) return { ...t, ndim: v.shapeOf.ndim, axes: v.shapeOf.axes, attn: t.attn, mask: t.mask };
      if (v.kind === 'tuple' && v.elements) nodes = [];
      else if (v.kind !== 'number') return stripRank(t);
    }
  }
  if (nodes.length === 0) return stripRank(t);
  if (nodes.some((n) => n.type === 'list_splat')) return stripRank(t);
  const n = nodes.length;
  const axes: AxisInfo[] = nodes.map((node, i) => reshapeAxis(ev, c, node, i, nodes));
  const out = mutable(t);
  out.ndim = n;
  out.axes = axes;
  const lastNode = unparen(nodes[n - 1]);
  const lastIsProduct = lastNode.type === 'binary_operator' && operatorText(ev.tree, lastNode) === '*';
  const lastSameAsBefore = !lastIsProduct;
  delete out.lastSize1;
  if (axes.some((a) => a.label === 'head')) out.multiHead = true;
  if (axes[n - 1]?.label === 'feat') out.featLast = true;
  else if (!(t.featLast && lastSameAsBefore)) delete out.featLast;
  delete out.featAt;
  if (t.attn) {
    const a: Mutable<AttnInfo> = { ...t.attn };
    if (!(lastSameAsBefore && a.keyAxis === -1)) delete a.keyAxis;
    if (a.softmax) a.softmax = { ...a.softmax, axis: lastSameAsBefore && a.softmax.axis === -1 ? -1 : undefined };
    if (a.renormAxis !== -1 || !lastSameAsBefore) delete a.renormAxis;
    out.attn = a;
  }
  if (t.mask) {
    const m: Mutable<MaskInfo> = { ...t.mask };
    const secondLast = n >= 2 ? unparen(nodes[n - 2]) : undefined;
    const secondIsProduct = secondLast && secondLast.type === 'binary_operator' && operatorText(ev.tree, secondLast) === '*';
    if (!lastSameAsBefore || secondIsProduct) delete m.tri;
    if (m.padAxes) {
      const kept = m.padAxes.filter((x) => x === -1 && lastSameAsBefore);
      if (kept.length > 0) m.padAxes = kept;
      else delete m.padAxes;
    }
    out.mask = m;
  }
  if (t.index) delete out.index;
  if (t.channelFirst) delete out.channelFirst;
  return out;
}

function stripRank(t: AValue): AValue {
  const out = mutable(t);
  delete out.lastSize1;
  delete out.ndim;
  delete out.axes;
  delete out.featLast;
  if (out.attn) out.attn = { ...out.attn, keyAxis: undefined, softmax: out.attn.softmax ? { ...out.attn.softmax, axis: undefined } : undefined };
  return out;
}

/** The label of one view/reshape size argument. */
function reshapeAxis(ev: Evaluator, c: Call, node: PyNode, i: number, all: PyNode[]): AxisInfo {
  const u = unparen(node);
  const lit = intLiteral(ev.tree, u);
  const sizeText = ev.text(u);
  if (lit === 1) return { size1: true, sizeText };
  if (lit === -1) {
    // -1 after a head count is the per-head feature axis (`view(B, T, nh, -1)`).
    if (i === all.length - 1 && i > 0 && reshapeAxis(ev, c, all[i - 1], i - 1, all).label === 'head') return { label: 'feat', sizeText };
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
    if (byName) return byName;
  }
  const v = ev.eval(u, c.ctx);
  if (v.headCount) return 'head';
  if (v.dimPow && v.dimPow.power === 1 && v.dimPow.dim.which === 'head') return 'feat';
  return undefined;
}

function splitValue(ev: Evaluator, c: Call, t0: AValue, countNode: PyNode | undefined, dimNode: PyNode | undefined, mode: 'split' | 'chunk' | 'unbind'): AValue {
  const t = tensorish(t0);
  let count: number | undefined;
  if (mode === 'chunk') count = intOf(ev, c, countNode);
  else if (mode === 'split') {
    const u = countNode ? unparen(countNode) : undefined;
    if (u && (u.type === 'list' || u.type === 'tuple')) count = namedChildren(u).length;
    else {
      // split(size, dim): the count comes from the unpacking; assume 3 for packed qkv, else unknown
      count = undefined;
    }
  } else if (mode === 'unbind') {
    const d = intOf(ev, c, dimNode) ?? 0;
    const ax = t.ndim !== undefined ? axisAt(t, d) : undefined;
    void ax;
    const elem = squeezeValue(t, d);
    const n = 3;
    return { kind: 'tuple', elements: Array.from({ length: n }, () => clearPackedRole(elem)) };
  }
  const elem = clearPackedRole(t);
  const n = count ?? 3;
  return { kind: 'tuple', elements: Array.from({ length: n }, () => elem) };
}

function clearPackedRole(t: AValue): AValue {
  const out = mutable(t);
  delete out.role;
  delete out.roleText;
  delete out.attn;
  delete out.mask;
  return out;
}

function einopsRearrange(ev: Evaluator, _c: Call, t0: AValue, patternNode: PyNode | undefined, reduce: boolean): AValue {
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
  if (rhsAxes.some((a) => a.label === 'head') || rhs.groups.some((g) => g.length > 1 && g.some((x) => labelOfAxisName(x) === 'head') && g.some((x) => labelOfAxisName(x) === 'batch'))) out.multiHead = true;
  const last = rhs.groups[rhs.groups.length - 1];
  const lastLhs = lhs.groups[lhs.groups.length - 1];
  const lastSame = !!last && !!lastLhs && last.length === lastLhs.length && last.every((x, i) => x === lastLhs[i]);
  if (rhsAxes[rhsAxes.length - 1]?.label === 'feat') out.featLast = true;
  else if (!lastSame) delete out.featLast;
  // Masks: keep padding on the last axis if it stays last.
  if (t.mask) {
    const m: Mutable<MaskInfo> = { ...t.mask };
    if (!lastSame) {
      delete m.padAxes;
      delete m.tri;
    }
    out.mask = m;
  }
  if (t.attn) out.attn = { ...t.attn, keyAxis: lastSame && t.attn.keyAxis === -1 ? -1 : undefined };
  void reduce;
  return out;
}

// ================================================================================================ matmul

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

function describe(ev: Evaluator, node: PyNode | undefined, v: AValue): string | undefined {
  if (node) {
    const t = ev.text(node);
    if (t.length <= 40) return t;
  }
  return v.roleText;
}

/**
 * a @ b. Forms attention scores when the operands are a query and keys (by name or role), records
 * the contraction when attention weights meet the values, and keeps ranks.
 */
export function matmul(ev: Evaluator, c: Call, a0: AValue, b0: AValue, aNode: PyNode | undefined, bNode: PyNode | undefined, display: string, opts: { transA?: boolean; transB?: boolean; rank?: number } = {}): AValue {
  let a = tensorish(a0);
  let b = tensorish(b0);
  if (opts.rank !== undefined) {
    if (a.ndim === undefined) a = withRank(a, opts.rank);
    if (b.ndim === undefined) b = withRank(b, opts.rank);
  }
  if (opts.transA) a = transposeLastTwo(a);
  if (opts.transB) b = transposeLastTwo(b);
  const ndim = a.ndim !== undefined && b.ndim !== undefined ? Math.max(a.ndim, b.ndim) : undefined;
  // The leading (broadcast) axes keep the batch/head labels an operand of full rank gives them.
  const leadingLabel = (i: number): AxisInfo => {
    for (const t of [a, b]) {
      const l = t.ndim === ndim ? t.axes?.[i]?.label : undefined;
      if (l === 'batch' || l === 'head') return { label: l };
    }
    return {};
  };
  const result = (fields: Omit<AValue, 'kind'>): AValue => {
    const r = tensor({ ...(ndim !== undefined ? { ndim, axes: Array.from({ length: ndim }, (_, i) => (i < ndim - 2 ? leadingLabel(i) : {})) } : {}), ...fields });
    ev.facts.matmul.push({ node: c.node, ctx: c.ctx, display, a, b, aNode, bNode, contractA: -1, contractB: -2, result: r });
    return r;
  };
  if (a.attn?.stage === 'weights' || b.attn?.stage === 'weights') {
    // weights · V: the attention output (B, ..., L, hd).
    const w = a.attn?.stage === 'weights' ? a : b;
    return result({ multiHead: w.multiHead || a.multiHead || b.multiHead, featLast: true });
  }
  const ra = roleOf(ev, a, aNode);
  const rb = roleOf(ev, b, bNode);
  let keyAxis: number | undefined;
  let keyAxisWhy: string | undefined;
  let qNode: PyNode | undefined;
  if (ra === 'query' && (rb === 'key' || rb === 'context')) {
    keyAxis = -1;
    keyAxisWhy = `the keys \`${describe(ev, bNode, b) ?? 'k'}\` are the right operand, so the key axis is the last`;
    qNode = aNode;
  } else if ((ra === 'key' || ra === 'context') && rb === 'query') {
    keyAxis = -2;
    keyAxisWhy = `the keys \`${describe(ev, aNode, a) ?? 'k'}\` are the left operand, so the key axis is -2`;
  }
  if (keyAxis === undefined && !(ra === 'query' || rb === 'key')) {
    // No roles: an unnamed product. It can still be attention (judged later by a ·V contraction).
    if (a.kind === 'tensor' && b.kind === 'tensor' && !a.mask && !b.mask) {
      const scores = result({ attn: { stage: 'scores', formedAt: c.node }, ops: crossOps(a, b), multiHead: a.multiHead || b.multiHead || ndim === 4 || undefined });
      return scores;
    }
    return result({});
  }
  const qa = ra === 'query' ? a : b;
  const attn: AttnInfo = {
    stage: 'scores',
    formedAt: c.node,
    keyAxis,
    keyAxisWhy,
    queryText: describe(ev, ra === 'query' ? aNode : bNode, qa),
    keyText: describe(ev, ra === 'query' ? bNode : aNode, ra === 'query' ? b : a),
    keyIsKey: (ra === 'query' ? rb : ra) === 'key' || undefined,
    queryProj: qa.proj,
    queryAxes: axesOf(qa),
    queryNode: qNode && unparen(qNode).type === 'identifier' ? unparen(qNode) : undefined,
  };
  // Cosine attention (F.normalize'd q and k): bounded logits, temperature instead of 1/sqrt(d).
  const ops = a.normalized || b.normalized ? crossOps(addOp(a, { kind: 'opaque', node: c.node }), b) : crossOps(a, b);
  return result({ attn, ops, multiHead: a.multiHead || b.multiHead || ndim === 4 || undefined, ...(a.fromCache || b.fromCache ? { fromCache: true } : {}), ...(a.fromConv || b.fromConv ? { fromConv: true } : {}) });
}

/** A string literal, or an f-string without placeholders (`f"b h i d, b h j d -> b h i j"`, lucidrains' style). */
function constantString(ev: Evaluator, node: PyNode | undefined): string | undefined {
  const plain = stringLiteral(ev.tree, node);
  if (plain !== undefined || !node) return plain;
  const n = unparen(node);
  if (n.type !== 'string' || n.children.some((ch) => ch.type === 'interpolation' || ch.type === 'escape_sequence')) return undefined;
  let out = '';
  for (const ch of n.children) if (ch.type === 'string_content') out += ev.text(ch);
  return out;
}

function einsum(ev: Evaluator, c: Call, spec: string | undefined, style: 'letters' | 'words', operandNodes: PyNode[]): AValue {
  const vals = operandNodes.map((n) => tensorish(ev.eval(n, c.ctx)));
  if (!spec) return tensor();
  const parsed = parseEinsum(spec, style);
  if (!parsed || parsed.inputs.length !== vals.length) return tensor();
  const out = parsed.output;
  const hasEll = out.includes('...');
  const shape = hasEll ? {} : { ndim: out.length, axes: out.map((x) => ({ ...(labelOfAxisName(x) ? { label: labelOfAxisName(x) } : {}) })) };
  if (vals.length !== 2) return tensor(shape);
  const [a, b] = vals;
  const [ta, tb] = parsed.inputs;
  const record = (r: AValue, contractA?: number, contractB?: number): AValue => {
    ev.facts.matmul.push({ node: c.node, ctx: c.ctx, display: 'einsum', a, b, aNode: operandNodes[0], bNode: operandNodes[1], contractA, contractB, result: r });
    return r;
  };
  const contracted = ta.filter((x) => x !== '...' && tb.includes(x) && !out.includes(x));
  if (a.attn?.stage === 'weights' || b.attn?.stage === 'weights') {
    const contractA = contracted.length === 1 ? negIndexInTerm(ta, contracted[0]) : undefined;
    const contractB = contracted.length === 1 ? negIndexInTerm(tb, contracted[0]) : undefined;
    return record(tensor({ ...shape, featLast: true, multiHead: a.multiHead || b.multiHead || out.some((x) => labelOfAxisName(x) === 'head') || undefined }), contractA, contractB);
  }
  const ra = roleOf(ev, a, operandNodes[0]);
  const rb = roleOf(ev, b, operandNodes[1]);
  let qTerm: string[] | undefined;
  let kTerm: string[] | undefined;
  if (ra === 'query' && (rb === 'key' || rb === 'context')) [qTerm, kTerm] = [ta, tb];
  else if ((ra === 'key' || ra === 'context') && rb === 'query') [qTerm, kTerm] = [tb, ta];
  let keyAxis: number | undefined;
  let keyAxisWhy: string | undefined;
  if (qTerm && kTerm) {
    const keyLetters = kTerm.filter((x) => x !== '...' && !qTerm!.includes(x) && out.includes(x));
    if (keyLetters.length === 1) {
      keyAxis = negIndexInTerm(out, keyLetters[0]);
      keyAxisWhy = `in '${spec}' the key index '${keyLetters[0]}' is output axis ${keyAxis !== undefined && !hasEll ? keyAxis + out.length : keyAxis}`;
    }
  } else if (!(a.kind === 'tensor' && b.kind === 'tensor')) return record(tensor(shape));
  const attn: AttnInfo = {
    stage: 'scores',
    formedAt: c.node,
    keyAxis,
    keyAxisWhy,
    queryText: qTerm ? describe(ev, qTerm === ta ? operandNodes[0] : operandNodes[1], qTerm === ta ? a : b) : undefined,
    keyText: kTerm ? describe(ev, kTerm === ta ? operandNodes[0] : operandNodes[1], kTerm === ta ? a : b) : undefined,
    keyIsKey: kTerm ? (kTerm === ta ? ra : rb) === 'key' || undefined : undefined,
    queryProj: qTerm ? (qTerm === ta ? a : b).proj : undefined,
    queryNode: qTerm === ta && unparen(operandNodes[0]).type === 'identifier' ? unparen(operandNodes[0]) : undefined,
  };
  const multiHead = a.multiHead || b.multiHead || out.some((x) => labelOfAxisName(x) === 'head') || undefined;
  return record(tensor({ ...shape, attn, ops: crossOps(a, b), multiHead }), contracted.length === 1 ? negIndexInTerm(ta, contracted[0]) : undefined, contracted.length === 1 ? negIndexInTerm(tb, contracted[0]) : undefined);
}

// ================================================================================================ softmax

function softmax(
  ev: Evaluator,
  c: Call,
  api: SoftmaxApi,
  input: AValue,
  inputNode: PyNode | undefined,
  dimWhere: { dimNode?: PyNode; dimValueNode?: PyNode; ownerNode: PyNode; argListNode?: PyNode; layer?: AValue['layer']; dimValue?: number },
): AValue {
  let dim: number | 'implicit' | 'all' | undefined;
  if (dimWhere.dimValueNode) {
    const lit = intLiteral(ev.tree, dimWhere.dimValueNode);
    if (lit !== undefined) dim = lit;
    else {
      const v = ev.eval(dimWhere.dimValueNode, c.ctx);
      if (v.kind === 'none') dim = api.defaultDim;
      else if (v.kind === 'number' && v.num !== undefined && Number.isInteger(v.num)) dim = v.num;
    }
  } else if (dimWhere.dimValue !== undefined) dim = dimWhere.dimValue;
  else dim = api.defaultDim;
  const t = tensorish(input);
  const axis = typeof dim === 'number' ? negAxis(dim, t.ndim) : undefined;
  const out = mutable(t);
  delete out.mask;
  if (t.attn && t.attn.stage === 'scores') {
    out.attn = { ...t.attn, stage: 'weights', softmax: { site: c.node, axis, ctxId: c.ctx.id } };
  } else if (!t.attn) {
    out.attn = { stage: 'weights', formedAt: c.node, softmax: { site: c.node, axis, ctxId: c.ctx.id } };
  }
  ev.facts.softmax.push({
    node: c.node,
    ctx: c.ctx,
    input: t,
    inputNode,
    display: api.display,
    framework: api.framework,
    dim,
    dimNode: dimWhere.dimNode,
    dimValueNode: dimWhere.dimValueNode,
    ownerNode: dimWhere.ownerNode,
    argListNode: dimWhere.argListNode,
    layer: dimWhere.layer,
    output: out,
  });
  return out;
}

/** exp(x) / exp(x).sum(axis, keepdims=True): a hand-written softmax over `axis`. */
function handSoftmax(ev: Evaluator, num: AValue, den: AValue, node: PyNode, ctx: Ctx): AValue {
  const red = den.reduced!;
  const scores = num.expOfScores!;
  // Inside a helper called from elsewhere, name the helper as the caller wrote it.
  const calleeText = ctx.callSite ? childByField(ctx.callSite, 'function') : undefined;
  const display = calleeText ? `${ev.text(calleeText)}() (exp / sum)` : 'exp(x) / exp(x).sum(...)';
  const api: SoftmaxApi = { display, dimParam: 'axis', dimPos: 1, defaultDim: 'all', framework: 'user' };
  // If the axis came from a parameter of a helper called from elsewhere, point at the call site.
  let dimNode = red.axisNode;
  let dimValueNode = red.axisValueNode;
  let ownerNode = red.node;
  let argListNode: PyNode | undefined = childByField(red.node, 'arguments');
  let dimValue: number | undefined = typeof red.axis === 'number' ? red.axis : undefined;
  if (red.axisValueNode && unparen(red.axisValueNode).type === 'identifier' && ctx.callSite) {
    const defs = ev.resolve(unparen(red.axisValueNode), ev.text(unparen(red.axisValueNode)));
    const p = defs && defs.length === 1 && defs[0].kind === 'param' ? defs[0].param : undefined;
    if (p) {
      const siteArgs = callArgsOf(ev, ctx.callSite);
      const kw = siteArgs.keywords.get(p.name);
      const posIdx = p.index !== undefined ? p.index - (ctx.scope.selfName ? 1 : 0) : undefined;
      const positional = posIdx !== undefined && posIdx < siteArgs.positional.length ? siteArgs.positional[posIdx] : undefined;
      dimNode = kw ? kw.node : positional;
      dimValueNode = kw ? kw.value : positional;
      ownerNode = ctx.callSite;
      argListNode = siteArgs.list;
    }
  }
  const dimWhere = { dimNode, dimValueNode: red.axis === 'all' ? undefined : dimValueNode, ownerNode, argListNode, dimValue };
  if (red.axis === 'all') {
    const site: Call = { node, ctx, args: emptyArgs(), name: '/' };
    return softmax(ev, site, { ...api, defaultDim: 'all' }, scores, undefined, { ownerNode: red.node, argListNode: childByField(red.node, 'arguments') });
  }
  return softmax(ev, { node, ctx, args: emptyArgs(), name: '/' }, api, scores, undefined, dimWhere);
}

function callArgsOf(ev: Evaluator, call: PyNode): CallArgs {
  const list = childByField(call, 'arguments');
  const positional: PyNode[] = [];
  const keywords = new Map<string, { node: PyNode; nameNode: PyNode; value: PyNode }>();
  for (const a of list ? namedChildren(list) : []) {
    if (a.type === 'keyword_argument') {
      const n = childByField(a, 'name');
      const v = childByField(a, 'value');
      if (n && v) keywords.set(ev.text(n), { node: a, nameNode: n, value: v });
    } else if (a.type !== 'list_splat' && a.type !== 'dictionary_splat') positional.push(a);
  }
  return { positional, keywords, hasSplat: false, list };
}

function reduction(ev: Evaluator, c: Call, t0: AValue, kind: 'sum' | 'max' | 'norm' | 'other', axisNode: PyNode | undefined, axisValueNode: PyNode | undefined): AValue {
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
  return tensor({ reduced: { kind, of: t, axis, node: c.node, axisNode, axisValueNode } });
}

// ================================================================================================ masks & fills

function sdpa(ev: Evaluator, c: Call, qname: string): AValue {
  const info = SDPA_FUNCTIONS[qname];
  const qNode = arg(c, 'query', 0) ?? arg(c, 'q');
  const kNode = arg(c, 'key', 1) ?? arg(c, 'k');
  const vNode = arg(c, 'value', 2) ?? arg(c, 'v');
  const q = tensorish(val(ev, c, qNode));
  const k = tensorish(val(ev, c, kNode));
  void vNode;
  const maskNode = info.maskParam ? arg(c, info.maskParam, info.maskPos) : undefined;
  const causalKw = info.causalParam ? c.args.keywords.get(info.causalParam) : undefined;
  const causalPos = info.causalParam === 'is_causal' && info.framework === 'torch' ? c.args.positional[5] : undefined;
  const scaleNode = info.scaleParam ? arg(c, info.scaleParam, info.scalePos) : undefined;
  ev.facts.sdpa.push({
    node: c.node,
    ctx: c.ctx,
    display: info.display,
    framework: info.framework,
    q,
    k,
    qNode,
    kNode,
    maskNode,
    mask: maskNode ? ev.eval(maskNode, c.ctx) : undefined,
    causalNode: causalKw ? causalKw.node : causalPos,
    causal: causalKw ? ev.eval(causalKw.value, c.ctx) : causalPos ? ev.eval(causalPos, c.ctx) : undefined,
    scaleNode,
    scale: scaleNode ? ev.eval(scaleNode, c.ctx) : undefined,
    scaleParam: info.scaleParam,
    argListNode: c.args.list,
  });
  const consumer = MASK_FUNCTIONS[qname];
  if (consumer) maskConsumerArgs(ev, c, consumer);
  return tensor({ ndim: q.ndim, axes: q.axes, multiHead: q.multiHead, featLast: true });
}

// ================================================================================================ layers

function layerFromCtor(ev: Evaluator, c: Call, qname: string): AValue | undefined {
  const sm = SOFTMAX_LAYERS[qname];
  if (sm) {
    const dimValue = argument(c.args, sm.dimParam, sm.dimPos);
    const dimNode = argumentNode(c.args, sm.dimParam, sm.dimPos);
    const dim = dimValue ? intOf(ev, c, dimValue) : undefined;
    return { kind: 'layer', layer: { api: qname, ctor: c.node, ctorCtxId: c.ctx.id, dimNode, dim, dimValueNode: dimValue } };
  }
  const lin = LINEAR_LAYERS[qname] ?? CONV_LAYERS[qname];
  if (lin) {
    const out = argument(c.args, lin.outParam, lin.outPos);
    const inNode = 'inParam' in lin && lin.inParam ? argument(c.args, lin.inParam, lin.inPos) : undefined;
    return {
      kind: 'layer',
      layer: { api: qname, ctor: c.node, ctorCtxId: c.ctx.id, outIsOne: out ? intOf(ev, c, out) === 1 : undefined, inText: inNode ? ev.text(inNode) : undefined, outText: out ? ev.text(out) : undefined },
    };
  }
  if (qname === 'torch.nn.Sequential') {
    const layers = c.args.positional.map((n) => ev.eval(n, c.ctx));
    return { kind: 'layer', layer: { api: qname, ctor: c.node, ctorCtxId: c.ctx.id, layers } };
  }
  if (MASK_LAYERS[qname] || PASS_THROUGH_LAYERS.has(qname) || SHAPE_KEEPING_LAYERS.has(qname)) {
    return { kind: 'layer', layer: { api: qname, ctor: c.node, ctorCtxId: c.ctx.id } };
  }
  return undefined;
}

export function applyLayer(ev: Evaluator, layerValue: AValue, c: Call, inputOverride?: AValue): AValue {
  const layer = layerValue.layer!;
  const api = layer.api;
  const firstNode = c.args.positional[0];
  const input = inputOverride ?? tensorish(val(ev, c, firstNode));
  const sm = SOFTMAX_LAYERS[api];
  if (sm) {
    const args = childByField(layer.ctor, 'arguments');
    return softmax(ev, c, sm, input, inputOverride ? undefined : firstNode, {
      dimNode: layer.dimNode,
      dimValueNode: layer.dimValueNode,
      ownerNode: layer.ctor,
      argListNode: args,
      layer,
      dimValue: layer.dim,
    });
  }
  if (LINEAR_LAYERS[api]) {
    const name = calleeName(ev, c);
    return projectionOf(input, projectionRole(name), layer.outIsOne, isPackedProjection(name), { input, inText: layer.inText, outText: layer.outText });
  }
  if (CONV_LAYERS[api]) {
    const out = mutable(tensor({ ndim: input.ndim, channelFirst: true, fromConv: true, ...(projectionRole(calleeName(ev, c)) ? { role: projectionRole(calleeName(ev, c)) } : {}) }));
    if (input.ndim !== undefined) {
      out.axes = Array.from({ length: input.ndim }, (_, i) => (i === 1 ? { label: 'chan' as const, ...(layer.outIsOne ? { size1: true } : {}) } : {}));
    }
    return out;
  }
  if (api === 'torch.nn.Sequential') {
    let v = input;
    for (const l of layer.layers ?? []) {
      if (l.kind === 'layer') v = applyLayer(ev, l, { ...c, args: { positional: [], keywords: new Map(), hasSplat: false, list: undefined } }, v);
      else v = tensor();
    }
    return v;
  }
  const mask = MASK_LAYERS[api];
  if (mask) {
    maskConsumerArgs(ev, c, mask);
    const out = tensor({ ndim: input.ndim, axes: input.axes, featLast: true });
    if (api === 'torch.nn.MultiheadAttention') return { kind: 'tuple', elements: [out, tensor()] };
    return out;
  }
  if (PASS_THROUGH_LAYERS.has(api)) return input;
  if (SHAPE_KEEPING_LAYERS.has(api)) return keepShape(input);
  return tensor();
}

/** The attribute or variable name a layer was called through (`self.q_proj(x)` → q_proj). */
function calleeName(ev: Evaluator, c: Call): string {
  const n = c.calleeNode ? unparen(c.calleeNode) : undefined;
  if (!n) return '';
  if (n.type === 'attribute') {
    const attr = childByField(n, 'attribute');
    return attr ? ev.text(attr) : '';
  }
  return n.type === 'identifier' ? ev.text(n) : '';
}

/** A value with the same shape and role but no facts about scale or masks (norms, activations). */
function keepShape(v: AValue): AValue {
  const out = tensor({ ndim: v.ndim, axes: v.axes, featLast: v.featLast, multiHead: v.multiHead, role: v.role, roleText: v.roleText, channelFirst: v.channelFirst, fromConv: v.fromConv });
  return v.ops ? { ...out, ops: v.ops } : out;
}

/** Output of a Linear-like projection of `input`: same leading axes, features last. */
function projectionOf(input: AValue, role: AValue['role'], outIsOne: boolean | undefined, packed: boolean, proj?: AValue['proj']): AValue {
  const out: Mutable<AValue> = tensor({ featLast: true, projectedWidth: true, ...(proj ? { proj } : {}) });
  if (input.ndim !== undefined) {
    out.ndim = input.ndim;
    const axes = axesOf(input) ?? Array.from({ length: input.ndim }, () => ({}));
    out.axes = [...axes.slice(0, -1), { label: 'feat', ...(outIsOne ? { size1: true } : {}) }];
  }
  else if (outIsOne) out.lastSize1 = true;
  if (role && !packed) {
    out.role = role;
  }
  return out;
}

export function callLayerMethod(ev: Evaluator, c: Call): AValue {
  const layer = c.recv!.layer!;
  if (c.name === 'generate_square_subsequent_mask') return causalAdditive(ev, c);
  if (c.name === 'forward' || c.name === '__call__' || c.name === 'call') return applyLayer(ev, c.recv!, c);
  void layer;
  return UNKNOWN;
}

/** `self.xxx(args)` where self.xxx is not known: projection-like names act as Linear layers. */
export function callUnknownLayer(ev: Evaluator, c: Call): AValue {
  const name = c.name;
  const through = scoresThroughHelper(ev, c, name);
  if (through) return through;
  const first = c.args.positional[0];
  const input = tensorish(val(ev, c, first));
  if (/drop/i.test(name)) return input;
  if (/rotary|rope|rotate|\brot_|_rot_|apply_rot|apply_pos|pos_emb/i.test(name)) return input;
  if (/norm/i.test(name) && !/normalize/i.test(name)) return keepShape(input);
  if (isProjectionName(name)) {
    const role = projectionRole(name);
    return projectionOf(input, role, undefined, isPackedProjection(name));
  }
  if (/softmax/i.test(name) && first) {
    // A softmax-named attribute we could not resolve: nothing known about its dim.
    return tensor({ ndim: input.ndim, axes: input.axes });
  }
  if (/tokeni[sz]er/i.test(name)) return { kind: 'object', tokenizerOutput: true };
  const out = tensor();
  return input.role || input.attn ? addOp(out, { kind: 'opaque', node: c.node }) : out;
}

/**
 * An unknown helper applied to the scores (`maybe_add_mask(attn, mask)`, `add_rel_pos(attn, ...)`): the
 * result keeps the scores' layout. A mask-named helper masks; a bias/position helper adds; anything else
 * may rescale (opaque).
 */
function scoresThroughHelper(ev: Evaluator, c: Call, name: string): AValue | undefined {
  const first = c.args.positional[0];
  if (!first) return undefined;
  const v = ev.eval(first, c.ctx);
  if (v.attn?.stage !== 'scores') return undefined;
  if (/mask/i.test(name)) return addOp(v, { kind: 'mask', node: c.node, how: 'fill' });
  if (/bias|pos|rel|alibi|rope/i.test(name)) return v;
  if (/softmax/i.test(name)) return undefined;
  return addOp(v, { kind: 'opaque', node: c.node });
}

/** Calls of names we cannot resolve (helpers imported from elsewhere, builtins). */
export function callUnknown(ev: Evaluator, c: Call): AValue {
  const last = c.name.split('.').pop() ?? '';
  const through = scoresThroughHelper(ev, c, last);
  if (through) return through;
  const first = c.args.positional[0];
  if (/tokeni[sz]er/i.test(c.name)) return { kind: 'object', tokenizerOutput: true };
  if (/rotary|rope|rotate_half|\brot_|_rot_|apply_rot|apply_pos/i.test(last)) return tensorish(val(ev, c, first));
  if (c.name.startsWith('self.') || (c.calleeNode && c.calleeNode.type === 'attribute')) return callUnknownLayer(ev, { ...c, name: last });
  const input = val(ev, c, first);
  return input.role || input.attn ? addOp(tensor(), { kind: 'opaque', node: c.node }) : UNKNOWN;
}

// ================================================================================================ methods

const DTYPE_METHODS: Readonly<Record<string, DType | 'same'>> = {
  float: 'float32',
  half: 'float16',
  double: 'float64',
  bfloat16: 'bfloat16',
  bool: 'bool',
  long: 'int',
  int: 'int',
  byte: 'int',
  contiguous: 'same',
  clone: 'same',
  detach: 'same',
  cuda: 'same',
  cpu: 'same',
  requires_grad_: 'same',
  numpy: 'same',
  copy: 'same',
  to_dense: 'same',
};

const SHAPE_METHODS = new Set(['view', 'reshape', 'permute', 'expand', 'repeat', 'transpose', 'tile', 'broadcast_to', 'unsqueeze', 'squeeze', 'flatten', 'unflatten', 'split', 'chunk']);

export function callMethod(ev: Evaluator, c: Call): AValue {
  const recv = c.recv ?? UNKNOWN;
  const m = c.name;
  const cached = cacheMethod(ev, c);
  if (cached) return cached;
  if (recv.kind === 'tuple') {
    if (m === 'update' && recv.kind === 'tuple') return { kind: 'tuple', elements: [tensor({ fromCache: true }), tensor({ fromCache: true })] };
    return UNKNOWN;
  }
  if (recv.kind === 'object' && recv.tokenizerOutput) {
    if (m === 'get') {
      const key = stringLiteral(ev.tree, c.args.positional[0]);
      if (key) return dictItem(ev, recv, key, undefined);
    }
    return UNKNOWN;
  }
  if (recv.kind !== 'tensor' && recv.kind !== 'unknown') {
    if (recv.kind === 'number' || recv.kind === 'dtype') return numberMethod(ev, c, recv);
    return UNKNOWN;
  }
  const t = tensorish(recv);
  const a0 = c.args.positional[0];
  const a1 = c.args.positional[1];
  // `view(*x.shape[:2], h, -1)`: a splat hides how many sizes there are.
  // (`view(*output_size)` alone is read from the tuple assigned to output_size, in reshapeValue.)
  const onlySplat = (m === 'view' || m === 'reshape') && c.args.positional.length === 0 && c.args.keywords.size === 0;
  if (c.args.hasSplat && SHAPE_METHODS.has(m) && !onlySplat) return stripRank(t);
  const dtypeChange = DTYPE_METHODS[m];
  if (dtypeChange) {
    const out = mutable(t);
    if (dtypeChange !== 'same') {
      out.dtype = dtypeChange;
      if (out.mask) out.mask = withMaskDtype(out.mask, dtypeChange === 'float32' || dtypeChange === 'float16' || dtypeChange === 'float64' || dtypeChange === 'bfloat16' ? 'float' : dtypeChange);
    }
    return out;
  }
  const masked = maskMethod(ev, c, t);
  if (masked) return masked;
  switch (m) {
    case 'to':
    case 'type':
    case 'type_as':
    case 'astype': {
      const out = mutable(t);
      const dt = a0 ? dtypeOfValue(val(ev, c, a0)) : dtypeKwarg(ev, c);
      if (m === 'type_as' && a0) {
        const other = val(ev, c, a0);
        if (other.dtype) out.dtype = other.dtype;
      } else if (dt) {
        out.dtype = dt;
        if (out.mask) out.mask = withMaskDtype(out.mask, dt === 'bool' || dt === 'int' ? dt : 'float');
      }
      return out;
    }
    case 'view':
    case 'reshape':
      if (a0 && c.args.positional.length === 1 && m === 'view') {
        const dv = val(ev, c, a0);
        if (dv.kind === 'dtype' || dv.kind === 'module') return t;
      }
      return reshapeValue(ev, c, t, c.args.positional);
    case 'view_as':
    case 'reshape_as':
    case 'expand_as': {
      const other = tensorish(val(ev, c, a0));
      return other.ndim !== undefined ? { ...t, ndim: other.ndim, axes: Array.from({ length: other.ndim }, () => ({})) } : stripRank(t);
    }
    case 'transpose':
    case 'swapaxes':
    case 'swapdims': {
      if (m === 'transpose' && (c.args.positional.length !== 2 || ev.numpyStyleTranspose)) {
        if (c.args.positional.length === 0) return reverseAxes(t);
        const perm = permFromArgs(ev, c, c.args.positional);
        return perm ? permuteValue(t, perm) : stripRank(t);
      }
      return transposeValue(ev, t, intOf(ev, c, a0 ?? arg(c, 'dim0')), intOf(ev, c, a1 ?? arg(c, 'dim1')));
    }
    case 't':
      return t.ndim === undefined || t.ndim <= 2 ? transposeLastTwo(t) : tensor();
    case 'permute': {
      const perm = permFromArgs(ev, c, c.args.positional);
      return perm ? permuteValue(t, perm) : stripRank(t);
    }
    case 'movedim':
      return stripRank(t);
    case 'unsqueeze':
      return unsqueezeValue(t, intOf(ev, c, a0 ?? arg(c, 'dim')));
    case 'squeeze':
      return squeezeValue(t, a0 ?? arg(c, 'dim') ? intOf(ev, c, a0 ?? arg(c, 'dim')) : undefined);
    case 'flatten':
      return stripRank(t);
    case 'expand':
    case 'repeat':
    case 'broadcast_to':
    case 'tile': {
      const n = c.args.positional.length;
      const first = a0 ? unparen(a0) : undefined;
      const count = n === 1 && first && (first.type === 'tuple' || first.type === 'list') ? namedChildren(first).length : n;
      if (count === 0) return t;
      const out = mutable(t);
      if (t.ndim === undefined || count >= t.ndim) {
        const newNdim = count;
        const axes = axesOf(t);
        const extra = t.ndim !== undefined ? newNdim - t.ndim : 0;
        out.ndim = newNdim;
        const base: AxisInfo[] = axes && t.ndim !== undefined ? [...Array.from({ length: extra }, () => ({})), ...axes] : Array.from({ length: newNdim }, () => ({}));
        // Sizes change wherever the argument is not "keep" (-1 for expand, 1 for repeat).
        const sizeNodes = n === 1 && first && (first.type === 'tuple' || first.type === 'list') ? namedChildren(first) : c.args.positional;
        const keep = m === 'expand' || m === 'broadcast_to' ? -1 : 1;
        out.axes = base.map((ax, i) => (intOf(ev, c, sizeNodes[i]) === keep ? ax : { ...(ax.label ? { label: ax.label } : {}) }));
      }
      return out;
    }
    case 'split':
      return splitValue(ev, c, t, a0, a1 ?? arg(c, 'dim'), 'split');
    case 'chunk':
      return splitValue(ev, c, t, a0 ?? arg(c, 'chunks'), a1 ?? arg(c, 'dim'), 'chunk');
    case 'unbind':
      return splitValue(ev, c, t, undefined, a0 ?? arg(c, 'dim'), 'unbind');
    case 'softmax': {
      const dimValue = arg(c, 'dim', 0);
      return softmax(ev, c, SOFTMAX_METHOD, t, c.recvNode, { dimNode: argumentNode(c.args, 'dim', 0), dimValueNode: dimValue, ownerNode: c.node, argListNode: c.args.list });
    }
    case 'matmul':
    case 'bmm':
    case 'mm':
    case 'dot':
      return matmul(ev, c, t, val(ev, c, a0), c.recvNode, a0, `Tensor.${m}`, m === 'bmm' ? { rank: 3 } : {});
    case 'mul':
    case 'mul_':
    case 'multiply':
      return callOperator(ev, '*', t, val(ev, c, a0), c.recvNode, a0, c.node, c.ctx);
    case 'div':
    case 'div_':
    case 'divide':
    case 'true_divide':
      return callOperator(ev, '/', t, val(ev, c, a0), c.recvNode, a0, c.node, c.ctx);
    case 'add':
    case 'add_':
    case 'sub':
    case 'sub_':
      return callOperator(ev, m.startsWith('add') ? '+' : '-', t, val(ev, c, a0), c.recvNode, a0, c.node, c.ctx);
    case 'exp':
    case 'exp_':
      return expOf(t);
    case 'sum':
    case 'max':
    case 'amax':
    case 'mean':
    case 'logsumexp':
    case 'norm': {
      const axisName = arg(c, 'axis') ? 'axis' : 'dim';
      const axisValue = argument(c.args, axisName, m === 'norm' ? 1 : 0);
      const axisNode = argumentNode(c.args, axisName, m === 'norm' ? 1 : 0);
      return reduction(ev, c, t, m === 'sum' ? 'sum' : m === 'norm' ? 'norm' : m === 'max' || m === 'amax' ? 'max' : 'other', axisNode, axisValue);
    }
    case 'size':
      if (a0) {
        const i = intOf(ev, c, a0);
        return i !== undefined ? dimOfShape(t, i) : number();
      }
      return { kind: 'tuple', shapeOf: t, ...(t.ndim !== undefined ? { elements: Array.from({ length: t.ndim }, (_, i) => dimOfShape(t, i)) } : {}) };
    case 'dim':
    case 'ndimension':
      return t.ndim !== undefined ? number({ num: t.ndim }) : number();
    case 'sqrt':
    case 'rsqrt':
      return number();
    case 'clamp':
    case 'clamp_':
    case 'clamp_min':
    case 'clamp_min_':
    case 'clip':
    case 'nan_to_num':
    case 'nan_to_num_':
    case 'fill_diagonal_':
      if (m.startsWith('nan_to_num')) ev.facts.nanGuarded.add(c.ctx.scope.id);
      return t;
    case 'new_ones':
    case 'new_zeros':
    case 'new_full':
    case 'new_empty':
      return creation(ev, c, m.replace('new_', ''), c.args.positional);
    case 'masked_scatter':
    case 'index_select':
    case 'gather':
    case 'narrow':
    case 'unfold':
      return tensor();
    case 'item':
    case 'tolist':
      return number();
    case 'get_shape':
      return { kind: 'tuple', shapeOf: t };
    case 'float_power':
    case 'pow':
      return tensor({ ndim: t.ndim, axes: t.axes });
    case 'tanh':
    case 'sigmoid':
    case 'relu':
    case 'abs':
      return keepShape(t);
    case 'update':
      return { kind: 'tuple', elements: [tensor({ fromCache: true, role: 'key' }), tensor({ fromCache: true, role: 'value' })] };
    default:
      // Methods of a KV cache object we cannot see into return cached keys/values.
      if (c.recvNode && isCacheName(rootName(ev, c.recvNode) ?? '')) return tensor({ fromCache: true });
      return t.role || t.attn ? addOp(tensor(), { kind: 'opaque', node: c.node }) : tensor();
  }
}

function numberMethod(ev: Evaluator, c: Call, recv: AValue): AValue {
  void ev;
  switch (c.name) {
    case 'sqrt':
      return recv.dimPow ? number({ dimPow: { dim: recv.dimPow.dim, power: recv.dimPow.power * 0.5 } }) : number();
    case 'rsqrt':
      return recv.dimPow ? number({ dimPow: { dim: recv.dimPow.dim, power: recv.dimPow.power * -0.5 } }) : number();
    case 'float':
    case 'int':
    case 'item':
    case 'to':
    case 'type':
      return recv;
    default:
      return number();
  }
}

function permFromArgs(ev: Evaluator, c: Call, nodes: PyNode[]): number[] | undefined {
  let items = nodes;
  if (items.length === 1) {
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

function expOf(t: AValue): AValue {
  const out = tensor({ ndim: t.ndim, axes: t.axes });
  return t.attn?.stage === 'scores' ? { ...out, expOfScores: t } : out;
}

/** torch.ones/zeros/full/empty/randn(sizes...): rank from the sizes. */
function creation(ev: Evaluator, c: Call, kind: string, sizeArgs: PyNode[]): AValue {
  let nodes = sizeArgs;
  if (kind === 'full' || kind === 'full_like') nodes = sizeArgs.slice(0, 1);
  let ndim: number | undefined;
  if (nodes.length === 1) {
    const u = unparen(nodes[0]);
    if (u.type === 'tuple' || u.type === 'list') ndim = namedChildren(u).length;
    else {
      const v = ev.eval(u, c.ctx);
      if (v.kind === 'number') ndim = 1;
      else if (v.kind === 'tuple' && v.shapeOf) ndim = v.shapeOf.ndim;
      else if (v.kind === 'tuple' && v.elements) ndim = v.elements.length;
    }
  } else if (nodes.length > 1) ndim = nodes.length;
  const dt = dtypeKwarg(ev, c);
  const out: Mutable<AValue> = tensor({ ...(ndim !== undefined ? { ndim, axes: Array.from({ length: ndim }, () => ({})) } : {}), ...(dt ? { dtype: dt } : {}) });
  if (kind === 'ones' || kind === 'ones_like') out.ones = true;
  if (kind === 'zeros' || kind === 'zeros_like') out.zeros = true;
  if (kind === 'full') {
    const fillNode = arg(c, 'fill_value', 1);
    const fill = fillNode ? ev.eval(fillNode, c.ctx) : undefined;
    if (fill && fill.kind === 'number') {
      if (fill.num !== undefined) out.fillValue = fill.num;
      else if (fill.finfo) out.fillValue = -Infinity;
      if (fill.num === 1) out.ones = true;
    }
  }
  return out;
}

// ================================================================================================ qualified functions

function shifted(c: Call): { recvNode: PyNode | undefined; args: CallArgs } {
  const [first, ...rest] = c.args.positional;
  return { recvNode: first, args: { ...c.args, positional: rest } };
}

/** torch.transpose(x, 0, 1) ≡ x.transpose(0, 1): call the method handler with the first argument as receiver. */
function asMethod(ev: Evaluator, c: Call, method: string, inputParam = 'input'): AValue {
  const s = shifted(c);
  let recvNode = s.recvNode;
  let args = s.args;
  if (!recvNode) {
    const kw = c.args.keywords.get(inputParam) ?? c.args.keywords.get('x') ?? c.args.keywords.get('a');
    if (kw) {
      recvNode = kw.value;
      args = c.args;
    }
  }
  const recv = val(ev, c, recvNode);
  return callMethod(ev, { ...c, name: method, recv, recvNode, args });
}

const METHOD_LIKE_FUNCTIONS = new Set([
  'transpose',
  'permute',
  'reshape',
  'unsqueeze',
  'squeeze',
  'flatten',
  'split',
  'chunk',
  'unbind',
  'masked_fill',
  'matmul',
  'bmm',
  'mm',
  'tril',
  'triu',
  'exp',
  'sum',
  'amax',
  'max',
  'mean',
  'logsumexp',
  'logical_not',
  'bitwise_not',
  'eq',
  'ne',
  'gt',
  'lt',
  'ge',
  'le',
  'mul',
  'div',
  'add',
  'sub',
  'true_divide',
  'multiply',
  'divide',
  'clamp',
  'clip',
  'nan_to_num',
  'swapaxes',
  'swapdims',
  'logical_and',
  'logical_or',
  'norm',
  'expand_dims',
  'tanh',
  'sigmoid',
]);

const matchCache = new Map<string, Map<string, boolean>>();
/**
 * regex.test(qname), cached per (pattern, name): the same few names are dispatched thousands of times.
 * Keyed by the pattern's source (a regex literal in a function body is a new object on every call).
 */
function matches(re: RegExp, qname: string): boolean {
  const source = re.source;
  let byName = matchCache.get(source);
  if (!byName) {
    byName = new Map();
    matchCache.set(source, byName);
  }
  let hit = byName.get(qname);
  if (hit === undefined) {
    hit = re.test(qname);
    if (byName.size > 10_000) byName.clear();
    byName.set(qname, hit);
  }
  return hit;
}

/** Functions that convert a value's type or container without changing what it is. */
const CONVERSIONS: ReadonlySet<string> = new Set(['cast', 'convert_to_tensor', 'as_tensor', 'asarray', 'stop_gradient', 'cast_to_floatx', 'array']);

export function callQualified(ev: Evaluator, qname: string, c0: Call): AValue {
  const c: Call = { ...c0, name: qname };
  const fw = frameworkOf(qname);
  const last = qname.split('.').pop() ?? '';
  const sm = SOFTMAX_FUNCTIONS[qname];
  if (sm) {
    const inputNode = arg(c, sm.framework === 'torch' ? 'input' : sm.framework === 'tf' ? 'logits' : 'x', 0);
    const dimValue = argument(c.args, sm.dimParam, sm.dimPos);
    return softmax(ev, c, sm, val(ev, c, inputNode), inputNode, { dimNode: argumentNode(c.args, sm.dimParam, sm.dimPos), dimValueNode: dimValue, ownerNode: c.node, argListNode: c.args.list });
  }
  if (SDPA_FUNCTIONS[qname]) return sdpa(ev, c, qname);
  const masked = maskFunction(ev, c, qname);
  if (masked) return masked;
  const consumer = MASK_FUNCTIONS[qname];
  if (consumer) {
    maskConsumerArgs(ev, c, consumer);
    return tensor();
  }
  const layer = layerFromCtor(ev, c, qname);
  if (layer) return layer;
  if (qname.startsWith('builtins.')) return builtin(ev, c, last);
  if (qname === 'torch.finfo' || qname === 'numpy.finfo' || qname === 'jax.numpy.finfo') {
    const a = val(ev, c, c.args.positional[0]);
    const dt = a.kind === 'dtype' ? a.dtypeName : dtypeOfValue(a);
    return { kind: 'finfo', finfoOf: a.kind === 'dtype' && !a.dtypeName ? 'of-tensor' : dt === 'float16' ? 'float16' : dt === 'bfloat16' ? 'bfloat16' : dt === 'float64' ? 'float64' : dt === 'float32' ? 'float32' : 'of-tensor' };
  }
  // Math on sizes: sqrt, pow, rsqrt (any array library: keras.ops, mlx.core, paddle, ... name them alike).
  if (last === 'sqrt' || last === 'rsqrt' || qname === 'math.isqrt') {
    const a = val(ev, c, c.args.positional[0] ?? arg(c, 'x'));
    const p = last === 'rsqrt' ? -0.5 : 0.5;
    if (a.kind === 'tensor' && !a.dimPow) return tensor({ ndim: a.ndim, axes: a.axes });
    if (a.headCount && !a.dimPow) return number({ dimPow: { dim: { which: 'heads', text: ev.text(c.args.positional[0] ?? c.node) }, power: p } });
    return a.dimPow ? number({ dimPow: { dim: a.dimPow.dim, power: a.dimPow.power * p } }) : number();
  }
  if (last === 'pow' || last === 'power' || last === 'float_power') {
    const a = val(ev, c, c.args.positional[0]);
    const e = val(ev, c, c.args.positional[1]);
    return power(ev, a, e);
  }
  if (matches(/^(torch|numpy|jax\.numpy|tensorflow)\.(tensor|as_tensor|array|asarray|constant|float32|float64|int64|Tensor)$/, qname) || CONVERSIONS.has(last)) {
    // Conversions keep what the value is (a scale stays a scale through keras.ops.cast / tf.cast / mx.array).
    const a = val(ev, c, c.args.positional[0] ?? arg(c, 'x'));
    if (CONVERSIONS.has(last) && a.kind === 'tensor') {
      const dt = dtypeOfValue(val(ev, c, c.args.positional[1] ?? arg(c, 'dtype')));
      return dt && a.mask ? { ...a, dtype: dt, mask: withMaskDtype(a.mask, dt === 'bool' || dt === 'int' ? dt : 'float') } : a;
    }
    return a.kind === 'number' ? a : a.kind === 'tensor' ? a : tensor();
  }
  if (matches(/^(torch|numpy|jax\.numpy|tensorflow)\.(ones|zeros|full|empty|randn|rand|ones_like|zeros_like|full_like|empty_like|randn_like)$/, qname)) {
    if (last.endsWith('_like')) {
      const like = tensorish(val(ev, c, c.args.positional[0]));
      const out: Mutable<AValue> = tensor({ ndim: like.ndim, axes: like.axes });
      if (last === 'ones_like') out.ones = true;
      if (last === 'zeros_like') out.zeros = true;
      if (last === 'full_like') {
        const fill = val(ev, c, c.args.positional[1] ?? arg(c, 'fill_value'));
        if (fill.kind === 'number' && fill.num !== undefined) out.fillValue = fill.num;
        else if (fill.kind === 'number' && fill.finfo) out.fillValue = -Infinity;
      }
      return out;
    }
    return creation(ev, c, last, c.args.positional);
  }
  if (matches(/^(torch|numpy|jax\.numpy|tensorflow)\.(arange|range)$/, qname)) return tensor({ ndim: 1, axes: [{ label: 'seq' }], index: { axis: -1, offset: 0 } });
  if (matches(/^(torch|numpy|jax\.numpy|tensorflow|tensorflow\.linalg)\.(matmul|dot|bmm|mm)$/, qname) || qname === 'tensorflow.linalg.matmul') {
    const a = c.args.positional[0] ?? arg(c, 'a');
    const b = c.args.positional[1] ?? arg(c, 'b');
    const transB = fw === 'tf' ? isTrue(ev, arg(c, 'transpose_b')) : false;
    const transA = fw === 'tf' ? isTrue(ev, arg(c, 'transpose_a')) : false;
    return matmul(ev, c, val(ev, c, a), val(ev, c, b), a, b, displayName(qname), { transA, transB, ...(last === 'bmm' ? { rank: 3 } : {}) });
  }
  if (qname === 'torch.baddbmm') {
    const b1 = c.args.positional[1] ?? arg(c, 'batch1');
    const b2 = c.args.positional[2] ?? arg(c, 'batch2');
    let r = matmul(ev, c, val(ev, c, b1), val(ev, c, b2), b1, b2, 'torch.baddbmm', { rank: 3 });
    const alpha = arg(c, 'alpha');
    if (alpha) r = scaleTensor(ev, r, val(ev, c, alpha), alpha, c.node, false, c.ctx);
    return r;
  }
  if (matches(/^(torch|numpy|jax\.numpy|tensorflow|tensorflow\.linalg)\.einsum$/, qname)) {
    const spec = constantString(ev, c.args.positional[0]);
    let operands = c.args.positional.slice(1);
    // torch.einsum(spec, [a, b]): the operands given as one list.
    if (operands.length === 1) {
      const u = unparen(operands[0]);
      if (u.type === 'list' || u.type === 'tuple') operands = namedChildren(u);
    }
    return einsum(ev, c, spec, 'letters', operands);
  }
  if (qname === 'einops.einsum') {
    const pos = c.args.positional;
    const spec = constantString(ev, pos[pos.length - 1]);
    return einsum(ev, c, spec, 'words', pos.slice(0, -1));
  }
  if (qname === 'einops.rearrange' || qname === 'einops.repeat' || qname === 'einops.reduce') {
    return einopsRearrange(ev, c, val(ev, c, c.args.positional[0]), c.args.positional[1] ?? arg(c, 'pattern'), last === 'reduce');
  }
  if (matches(/^(torch|numpy|jax\.numpy|tensorflow)\.(cat|concat|concatenate|stack)$/, qname)) return concat(ev, c);
  if (qname === 'torch.nn.functional.normalize') {
    // F.normalize(weights, p=1, dim=d): the weights renormalised to sum to 1 along d.
    const x = tensorish(val(ev, c, c.args.positional[0] ?? arg(c, 'input')));
    const pNode = arg(c, 'p', 1);
    if (x.attn?.stage === 'weights' && pNode && numberLiteral(ev.tree, pNode) === 1) {
      const d = intOf(ev, c, arg(c, 'dim', 2));
      return renormalise(ev, x, d === undefined ? undefined : negAxis(d, x.ndim), c.ctx);
    }
  }
  if (qname === 'torch.nn.functional.normalize' || qname === 'tensorflow.math.l2_normalize' || qname === 'tensorflow.nn.l2_normalize') {
    return { ...tensorish(val(ev, c, c.args.positional[0])), normalized: true };
  }
  if (qname === 'torch.nn.functional.dropout' || qname === 'tensorflow.nn.dropout' || qname === 'torch.dropout') return tensorish(val(ev, c, c.args.positional[0] ?? arg(c, 'input')));
  if (qname === 'torch.nn.functional.linear') return projectionOf(tensorish(val(ev, c, c.args.positional[0])), undefined, undefined, false);
  if (qname === 'torch.nn.functional.pad' || qname === 'torch.nn.functional.unfold') {
    const x = tensorish(val(ev, c, c.args.positional[0] ?? arg(c, 'input')));
    const fillArg = arg(c, 'value', 3);
    const zeroPad = last === 'unfold' || !fillArg || isZero(val(ev, c, fillArg));
    // Ones padded with zeros: 1 inside the image/sequence, 0 in the padding, i.e. a "keep" mask.
    if (x.ones && zeroPad) return tensor({ dtype: x.dtype ?? 'float', mask: { polarity: 'keep', dtype: x.dtype ?? 'float', padding: true, why: `\`${ev.text(c.node).slice(0, 50)}\` (ones zero-padded by ${displayName(qname)}: 1 inside, 0 in the padding)` } });
    return last === 'pad' ? x : tensor();
  }
  if (qname === 'torch.nan_to_num' || qname === 'numpy.nan_to_num' || qname === 'torch.isnan' || qname === 'numpy.isnan') {
    ev.facts.nanGuarded.add(c.ctx.scope.id);
    return last === 'isnan' ? tensor({ dtype: 'bool' }) : tensorish(val(ev, c, c.args.positional[0]));
  }
  if (matches(/^(tensorflow)\.(transpose)$/, qname)) {
    const x = tensorish(val(ev, c, c.args.positional[0]));
    const permNode = c.args.positional[1] ?? arg(c, 'perm');
    if (!permNode) return reverseAxes(x);
    const perm = permFromArgs(ev, c, [permNode]);
    return perm ? permuteValue(x, perm) : stripRank(x);
  }
  if (matches(/^(numpy|jax\.numpy)\.transpose$/, qname)) {
    const x = tensorish(val(ev, c, c.args.positional[0]));
    const permNode = c.args.positional[1] ?? arg(c, 'axes');
    if (!permNode) return reverseAxes(x);
    const perm = permFromArgs(ev, c, [permNode]);
    return perm ? permuteValue(x, perm) : stripRank(x);
  }
  if (matches(/^(tensorflow)\.(reshape)$/, qname) || matches(/^(numpy|jax\.numpy)\.reshape$/, qname)) {
    const x = val(ev, c, c.args.positional[0]);
    const shapeNode = c.args.positional[1] ?? arg(c, 'shape') ?? arg(c, 'newshape');
    return shapeNode ? reshapeValue(ev, c, tensorish(x), [shapeNode]) : stripRank(tensorish(x));
  }
  if (qname === 'tensorflow.expand_dims' || qname === 'numpy.expand_dims' || qname === 'jax.numpy.expand_dims') {
    return unsqueezeValue(val(ev, c, c.args.positional[0]), intOf(ev, c, c.args.positional[1] ?? arg(c, 'axis')));
  }
  if (qname === 'tensorflow.shape') return { kind: 'tuple', shapeOf: tensorish(val(ev, c, c.args.positional[0])) };
  if (matches(/^(torch|numpy|jax\.numpy|tensorflow|tensorflow\.math)\.(sum|reduce_sum)$/, qname)) {
    const axisName = fw === 'torch' ? 'dim' : 'axis';
    const axisValue = argument(c.args, axisName, 1);
    return reduction(ev, c, val(ev, c, c.args.positional[0]), 'sum', argumentNode(c.args, axisName, 1), axisValue);
  }
  if (matches(/^(torch|numpy|jax\.numpy|tensorflow|tensorflow\.math)\.(max|amax|reduce_max)$/, qname)) return reduction(ev, c, val(ev, c, c.args.positional[0]), 'max', undefined, argument(c.args, fw === 'torch' ? 'dim' : 'axis', 1));
  if (matches(/^(torch|numpy|jax\.numpy|tensorflow|tensorflow\.math)\.exp$/, qname)) return expOf(tensorish(val(ev, c, c.args.positional[0])));
  if (matches(/^(torch|numpy|jax\.numpy)\.(linalg\.norm|norm)$/, qname)) return reduction(ev, c, val(ev, c, c.args.positional[0]), 'norm', undefined, undefined);
  if (fw !== 'user' && METHOD_LIKE_FUNCTIONS.has(last)) {
    if (last === 'expand_dims') return unsqueezeValue(val(ev, c, c.args.positional[0]), intOf(ev, c, c.args.positional[1] ?? arg(c, 'axis')));
    return asMethod(ev, c, last);
  }
  if (qname === 'math.log' || qname === 'math.exp') return number();
  if (qname.startsWith('math.')) return number();
  if (fw === 'user' && !qname.startsWith('builtins.')) {
    const generic = genericLibraryCall(ev, c, last);
    if (generic) return generic;
  }
  return fw === 'user' ? callUnknown(ev, c) : tensor();
}

/**
 * Functions of array libraries we have no table for (CNTK, MXNet, Paddle, ttnn, ...), recognised by the
 * names every library uses for the same operation. Only operations whose meaning does not vary are mapped.
 */
function genericLibraryCall(ev: Evaluator, c: Call, last: string): AValue | undefined {
  const p = c.args.positional;
  const flag = (...names: string[]): boolean => names.some((n) => isTrue(ev, arg(c, n)));
  switch (last) {
    case 'matmul':
    case 'bmm':
    case 'batch_matmul':
    case 'batch_dot':
    case 'mm':
    case 'times':
    case 'times_transpose':
      if (p.length < 2) return undefined;
      return matmul(ev, c, val(ev, c, p[0]), val(ev, c, p[1]), p[0], p[1], displayName(c.name), {
        transB: last === 'times_transpose' || flag('transpose_b', 'transpose_y', 'adj_y', 'trans_b', 'transb'),
        transA: flag('transpose_a', 'transpose_x', 'adj_x', 'trans_a', 'transa'),
      });
    case 'mul':
    case 'multiply':
    case 'elemwise_mul':
    case 'broadcast_mul':
    case 'div':
    case 'divide':
    case 'true_divide':
    case 'elemwise_div':
    case 'broadcast_div':
    case 'add':
    case 'elemwise_add':
    case 'broadcast_add':
    case 'sub':
    case 'subtract': {
      if (p.length < 2) return undefined;
      const op = /mul/.test(last) ? '*' : /div/.test(last) ? '/' : /add/.test(last) ? '+' : '-';
      return callOperator(ev, op, val(ev, c, p[0]), val(ev, c, p[1]), p[0], p[1], c.node, c.ctx);
    }
    case 'reshape':
      return p.length >= 2 ? reshapeValue(ev, c, tensorish(val(ev, c, p[0])), [p[1]]) : undefined;
    case 'permute': {
      if (p.length < 2) return undefined;
      const perm = permFromArgs(ev, c, p.slice(1));
      const x = tensorish(val(ev, c, p[0]));
      return perm ? permuteValue(x, perm) : stripRank(x);
    }
    case 'swapaxes':
      return p.length === 3 ? transposeValue(ev, val(ev, c, p[0]), intOf(ev, c, p[1]), intOf(ev, c, p[2])) : undefined;
    case 'softmax': {
      const input = p[0];
      const dimName = c.args.keywords.has('dim') ? 'dim' : 'axis';
      const dimValue = argument(c.args, dimName, 1);
      if (!input || !dimValue) return undefined;
      const api: SoftmaxApi = { display: displayName(c.name), dimParam: dimName, dimPos: 1, defaultDim: -1, framework: 'user' };
      return softmax(ev, c, api, val(ev, c, input), input, { dimNode: argumentNode(c.args, dimName, 1), dimValueNode: dimValue, ownerNode: c.node, argListNode: c.args.list });
    }
    case 'linear':
    case 'dense':
    case 'fully_connected':
      return p.length >= 1 ? projectionOf(tensorish(val(ev, c, p[0])), undefined, undefined, false) : undefined;
    case 'Constant':
    case 'constant': {
      const v = val(ev, c, p[0]);
      return v.kind === 'number' ? v : undefined;
    }
    default:
      return undefined;
  }
}

function isTrue(ev: Evaluator, node: PyNode | undefined): boolean {
  return !!node && ev.text(unparen(node)) === 'True';
}

function builtin(ev: Evaluator, c: Call, name: string): AValue {
  const a0 = c.args.positional[0];
  switch (name) {
    case 'float': {
      const s = stringLiteral(ev.tree, a0);
      if (s !== undefined) {
        const t = s.trim().toLowerCase();
        if (t === '-inf' || t === '-infinity') return number({ num: -Infinity });
        if (t === 'inf' || t === 'infinity' || t === '+inf') return number({ num: Infinity });
        const n = Number(t);
        return Number.isFinite(n) ? number({ num: n }) : number();
      }
      const v = val(ev, c, a0);
      return v.kind === 'number' ? v : number();
    }
    case 'int':
    case 'round':
    case 'abs': {
      const v = val(ev, c, a0);
      return v.kind === 'number' ? v : number();
    }
    case 'len':
      return number();
    case 'map': {
      const fn = val(ev, c, a0);
      const seq = val(ev, c, c.args.positional[1]);
      if (seq.kind === 'tuple' && seq.elements && fn.kind === 'function') return { kind: 'tuple', elements: ev.mapWithValues(fn, seq.elements, c.node, c.ctx) };
      return UNKNOWN;
    }
    case 'tuple':
    case 'list': {
      const v = val(ev, c, a0);
      return v.kind === 'tuple' ? v : UNKNOWN;
    }
    case 'max':
    case 'min':
    case 'pow':
      return number();
    default:
      return UNKNOWN;
  }
}

function concat(ev: Evaluator, c: Call): AValue {
  const seqNode = c.args.positional[0] ?? arg(c, 'tensors') ?? arg(c, 'values');
  const u = seqNode ? unparen(seqNode) : undefined;
  // torch.cat([kv[0] for kv in cache], dim=-2): every piece comes from the cache being iterated.
  if (u && (u.type === 'list_comprehension' || u.type === 'generator_expression')) {
    const clause = namedChildren(u).find((n) => n.type === 'for_in_clause');
    const iterable = clause ? childByField(clause, 'right') : undefined;
    const iterName = iterable ? rootName(ev, iterable) ?? ev.text(iterable) : '';
    return iterable && (isCacheName(iterName) || /past|cache/i.test(ev.text(iterable))) ? tensor({ fromCache: true }) : tensor();
  }
  if (!u || (u.type !== 'list' && u.type !== 'tuple')) return tensor();
  const items = namedChildren(u);
  const vals = items.map((n) => tensorish(ev.eval(n, c.ctx)));
  const cached = items.some((n, i) => vals[i].fromCache || isCacheName(rootName(ev, n) ?? '') || /past|cache|prev/i.test(ev.text(n)));
  const fresh = vals.find((_v, i) => !(vals[i].fromCache || isCacheName(rootName(ev, items[i]) ?? '') || /past|cache|prev/i.test(ev.text(items[i]))));
  const base = fresh ?? vals[0];
  const ndim = vals.every((v) => v.ndim === base.ndim) ? base.ndim : undefined;
  const out: Mutable<AValue> = tensor({ ...(ndim !== undefined ? { ndim, axes: base.axes } : {}), ...(base.role ? { role: base.role, roleText: base.roleText } : {}), featLast: base.featLast, multiHead: vals.some((v) => v.multiHead) || undefined });
  if (cached) out.fromCache = true;
  if (vals.every((v) => v.mask) && vals.length > 0) out.mask = vals[0].mask;
  return out;
}

// ------------------------------------------------------------------------------------------------ exports used by rules

// The evaluator reaches comparisons and index-assignment fills through this module.
export { evalComparison, setItemFill } from './mask-ops';

export { scaleTarget, nameTokens, dimOfName, isHeadCountName, isScaleName };
export type { PathOp, ScaleOp };
