// What operations do to abstract values: operators, tensor methods, library functions and layers.
// Each handler takes evaluated operands and returns the result's AValue, recording sites on the way.
import { argument, argumentNode, intLiteral, numberLiteral, operatorText, stringLiteral, type CallArgs } from '../syntax/python';
import { childByField, childrenByField, enclosingFunction, namedChildren, unparen, walk, type PyNode } from '../syntax/tree';
import {
  CONV_LAYERS,
  EMBEDDING_LAYERS,
  LINEAR_LAYERS,
  MASK_FUNCTIONS,
  MASK_LAYERS,
  PASS_THROUGH_LAYERS,
  RECURRENT_LAYERS,
  SDPA_FUNCTIONS,
  SHAPE_KEEPING_LAYERS,
  SOFTMAX_FUNCTIONS,
  SOFTMAX_LAYERS,
  SOFTMAX_METHOD,
  canonicalQualifiedName,
  displayName,
  frameworkOf,
  type SoftmaxApi,
} from './apis';
import { arg, emptyArgs, intOf, isStarred, mutable, rootName, tensorish, val, type Call, type Mutable } from './call';
import type { Evaluator } from './evaluator';
import { noteNanGuard, type Ctx, type MaskSite } from './facts';
import { cacheMethod, isGrowingState, isHandedBack, isStoredBack } from './kv-cache';
import { dataLoaderBatches } from './data-loaders';
import { dividesByOwnNorm } from './hand-norms';
import {
  causalAdditive,
  creationSizes,
  isHeadMask,
  isMaskingFill,
  isMaskLike,
  maskConsumerArgs,
  maskFunction,
  maskLogic,
  maskMethod,
  pairProduct,
  setItemFill,
  sliceCausalMask,
  spreadMask,
  subscriptSpread,
  tokenizerAttentionMask,
  isUnshownScalar,
  noteNanCleared,
  returnedUnreadAt,
} from './mask-ops';
import { combineMasks, flipMask, infOfAdditive, withMaskDtype } from './masks';
import { einopsAxisMap, parseEinopsPattern } from './layout';
import { padPackedOutputs, recurrentOutputs } from './recurrent';
import { truthOf } from './flags';
import { decoratorsOf } from './scope-params';
import { msg } from '../message';
import { PHRASES } from './phrases';
import {
  dimOfName,
  isCacheName,
  isMaskableBiasName,
  POSITION_BIAS,
  isHeadCountName,
  isPackedProjection,
  isProjectionName,
  nameTokens,
  isScaleName,
  projectionRole,
} from './names';
import {
  broadcastLayout,
  broadcastResult,
  stretchedBy,
  withoutSize1,
  constantString,
  dimOfShape,
  dropFirstAxis,
  einopsRearrange,
  einsum,
  indexTensor,
  matmul,
  permFromArgs,
  permuteValue,
  reduction,
  reshapeValue,
  reverseAxes,
  sizeAxes,
  expandAsValue,
  expandValue,
  flattenValue,
  movedimValue,
  pairwiseProduct,
  unflattenValue,
  splitValue,
  squeezeValue,
  stripFacts,
  stripRank,
  transposeLastTwo,
  transposeValue,
  unsqueezeValue,
} from './shape-ops';
import {
  UNKNOWN,
  addOp,
  axesOf,
  joinAll,
  negAxis,
  number,
  tensor,
  type AValue,
  type AxisInfo,
  type DType,
  type MaskInfo,
  type MaskOp,
  type RecurrentInfo,
  type ScaleOp,
} from './values';
import type { DimInfo, ObjectInfo } from './values';
import type { ClassInfo, Scope } from './scopes';

export { rootName, type Call, dimOfShape, dropFirstAxis };

// ================================================================================================ helpers

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

function dtypeOfValue(v: AValue): DType | undefined {
  if (v.kind === 'dtype') return v.dtypeName;
  if (v.kind === 'module' && v.qname) return dtypeOfQname(v.qname);
  if (v.kind === 'string' && v.str) return dtypeOfQname(v.str);
  return undefined;
}

/**
 * The dtype of a scalar tensor made from a Python number (`tf.constant(1.0)`, `torch.tensor(1.0)`,
 * `jnp.array(1.0)`): the `dtype` argument when given, else float32 for a float literal (each library's default
 * float dtype), else nothing known.
 */
function constantDtype(ev: Evaluator, c: Call, value: PyNode): { dtype?: DType } {
  const given = arg(c, 'dtype');
  if (given) {
    const dt = dtypeOfValue(val(ev, c, given));
    return dt ? { dtype: dt } : {};
  }
  return FLOAT_LITERAL.test(ev.text(value)) ? { dtype: 'float32' } : {};
}

/** `finfo(dtype).eps`, `.tiny` (`.smallest_normal`) and `.resolution` of each float width. */
const FINFO_SMALL: Readonly<Record<string, Readonly<Record<'float16' | 'bfloat16' | 'float32' | 'float64', number>>>> = {
  eps: { float16: 0.0009765625, bfloat16: 0.0078125, float32: 1.1920928955078125e-7, float64: 2.220446049250313e-16 },
  tiny: { float16: 6.103515625e-5, bfloat16: 1.1754943508222875e-38, float32: 1.1754943508222875e-38, float64: 2.2250738585072014e-308 },
  smallest_normal: { float16: 6.103515625e-5, bfloat16: 1.1754943508222875e-38, float32: 1.1754943508222875e-38, float64: 2.2250738585072014e-308 },
  resolution: { float16: 0.001, bfloat16: 0.01, float32: 1e-6, float64: 1e-15 },
};

/** The dtype a finfo (or a TensorFlow DType's min/max) is of: a known float width, else that of some tensor. */
function finfoOfDtype(dt: DType | undefined): NonNullable<AValue['finfo']> {
  return dt === 'float16' || dt === 'bfloat16' || dt === 'float64' || dt === 'float32' ? dt : 'of-tensor';
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

/** `.to(x.dtype)` / `.to(device, x.dtype)` / `.to(dtype=...)` / `.type_as`-like conversions to a dtype the code does not spell. */
function convertsToUnknownDtype(ev: Evaluator, c: Call): boolean {
  if (arg(c, 'dtype')) return true;
  return c.args.positional.some((p) => /\bdtype$/.test(ev.text(p)));
}

function dtypeKwarg(ev: Evaluator, c: Call): DType | undefined {
  const d = arg(c, 'dtype');
  return d ? dtypeOfValue(val(ev, c, d)) : undefined;
}

// ================================================================================================ dims & scales

/**
 * `node` sits in a method (its first parameter is `self`) whose class did not parse (a Jinja/cookiecutter template,
 * `class TF{{cookiecutter.camelcase_modelname}}SelfAttention(...)`): the definitions of `self.…` are missing, so what
 * the names say stands in for nothing (the same code in a parsable file is read from its definitions).
 */
function classUnparsed(ev: Evaluator, node: PyNode): boolean {
  if (!ev.tree.hasErrors) return false;
  let fn: PyNode | null = node.parent;
  while (fn && fn.type !== 'function_definition') fn = fn.parent;
  if (!fn) return false;
  for (let p: PyNode | null = fn.parent; p; p = p.parent) if (p.type === 'class_definition') return false;
  const params = childByField(fn, 'parameters');
  const first = params ? namedChildren(params)[0] : undefined;
  return first?.type === 'identifier' && ev.text(first) === 'self';
}

/**
 * `nan_to_num(x)` (NaN → 0 by default, or the `nan=` given): where that is a finite number, a product `0/1 mask × -inf`
 * written as x, or held by x and rebound to the result (`m = np.nan_to_num(m)`), or cleaned in place, is NaN-free.
 */
function noteNanReplaced(ev: Evaluator, c: Call, x: PyNode | undefined, nanPositional: PyNode | undefined, inPlace: boolean): void {
  if (!x) return;
  const nanNode = arg(c, 'nan') ?? nanPositional;
  if (nanNode) {
    const v = val(ev, c, nanNode);
    if (v.kind !== 'number' || v.num === undefined || !Number.isFinite(v.num)) return;
  }
  noteNanCleared(ev, x, c.node, inPlace);
}

/** -v of a number (`finfo(dtype).min` and `.max` swap), undefined for anything else. */
function negateNumber(v: AValue): AValue | undefined {
  if (v.kind !== 'number') return undefined;
  if (v.finfo) return { kind: 'number', finfo: v.finfo, ...(v.finfoMax ? {} : { finfoMax: true }) };
  return v.num === undefined ? undefined : number({ num: -v.num });
}

/** Multiplier classification of a number used to scale: dim^power, a named scale, or unknown. */
function scaleOp(ev: Evaluator, factor: AValue, factorNode: PyNode, opNode: PyNode, divide: boolean, on: ScaleOp['on']): ScaleOp {
  const name = rootName(ev, factorNode);
  const named = factor.scaleName ?? (name && isScaleName(name) ? name : clampedScaleName(ev, factorNode));
  const op: Mutable<ScaleOp> = { kind: 'scale', node: opNode, factorNode, on };
  // A factor whose value the evaluator cannot follow is no dimension by its name alone (`self.head_dim =
  // resolve_head_dim(cfg)` from a function it cannot see may return the root already; session 48): it stays a scale of
  // unknown value, which still counts as a scale for ATT003.
  if (factor.dimPow) {
    op.power = divide ? -factor.dimPow.power : factor.dimPow.power;
    op.dim = factor.dimPow.dim;
  }
  // The inverse square root of a size the evaluator cannot follow, written out (`/ tf.constant(num_units ** 0.5)`,
  // `/ math.sqrt(n)`, `* n ** -0.5`): a 1/sqrt of that name, whose meaning the rule reads from the code around it (the
  // projection width it names), not from the name: its kind stays unknown (a name such as `dim` or `emb_dim` read as the
  // model width made false findings on a helper's parameter a caller binds to one head's width, and on a per-head
  // product of two axes).
  const root = !op.dim && !named && !(factor.kind === 'number' && factor.num !== undefined) ? rootedName(ev, factorNode, divide) : undefined;
  if (root) {
    op.power = -0.5;
    op.dim = { which: 'unknown', text: root, rooted: true };
  }
  if (named) op.named = named;
  if (factor.kind === 'number' && factor.num !== undefined && !factor.dimPow) op.constant = factor.num;
  return op;
}

/** Wrappers that keep a number as it is (`tf.constant(x)`, `float(x)`, `tf.cast(x, tf.float32)`). */
const NUMBER_WRAPPERS = /^(?:tf\.constant|tensorflow\.constant|float|tf\.cast|tf\.to_float|np\.float32|np\.float64|torch\.tensor)$/;

/**
 * The name N of a factor that is 1/sqrt(N) as written: `N ** 0.5` or `sqrt(N)` divided by, `N ** -0.5` multiplied
 * by, inside one wrapper that keeps the number. N is a name or a `self.` attribute; undefined otherwise.
 */
export function rootedName(ev: Evaluator, node: PyNode, divide: boolean): string | undefined {
  const n = rootedNameNode(ev, node, divide);
  return n ? ev.text(n) : undefined;
}

/** The node of rootedName's N. */
export function rootedNameNode(ev: Evaluator, node: PyNode, divide: boolean): PyNode | undefined {
  let u = unparen(node);
  const callee = (n: PyNode): string => ev.text(childByField(n, 'function') ?? n);
  const firstArg = (n: PyNode): PyNode | undefined => namedChildren(childByField(n, 'arguments') ?? n).find((a) => a.type !== 'keyword_argument');
  if (u.type === 'call' && NUMBER_WRAPPERS.test(callee(u))) u = unparen(firstArg(u) ?? u);
  let base: PyNode | undefined;
  if (u.type === 'binary_operator' && u.children[1]?.type === '**') {
    const exp = ev.text(unparen(childByField(u, 'right') ?? u)).replace(/\s+/g, '');
    if ((divide && exp === '0.5') || (!divide && exp === '-0.5')) base = childByField(u, 'left');
  } else if (divide && u.type === 'call' && /^(?:math|np|numpy|tf|tf\.math|torch|jnp)\.sqrt$|^sqrt$/.test(callee(u))) base = firstArg(u);
  if (!base) return undefined;
  let b = unparen(base);
  if (b.type === 'call' && NUMBER_WRAPPERS.test(callee(b))) {
    const inner = firstArg(b);
    if (!inner) return undefined;
    b = unparen(inner);
  }
  return b.type === 'identifier' || b.type === 'attribute' ? b : undefined;
}

/**
 * A named scale kept in a range (`jnp.maximum(self.tau, 0.01)`, `torch.clamp(self.temperature, min=0.01)`,
 * `self.tau.clamp(min=0.01)`): still that scale, under its name.
 */
function clampedScaleName(ev: Evaluator, node: PyNode): string | undefined {
  const u = unparen(node);
  if (u.type !== 'call') return undefined;
  const fn = childByField(u, 'function');
  if (fn?.type !== 'attribute' && fn?.type !== 'identifier') return undefined;
  const method = fn.type === 'attribute' ? ev.text(childByField(fn, 'attribute') ?? fn) : ev.text(fn);
  if (!/^(?:maximum|minimum|clamp|clip|clamp_min|clamp_max|max|min)$/.test(method)) return undefined;
  const first = namedChildren(childByField(u, 'arguments') ?? u).find((a) => a.type !== 'keyword_argument');
  const receiver = fn.type === 'attribute' ? childByField(fn, 'object') : undefined;
  for (const candidate of [first, receiver]) {
    const t = candidate && (unparen(candidate).type === 'identifier' || unparen(candidate).type === 'attribute') ? ev.text(unparen(candidate)) : undefined;
    if (t && isScaleName(t)) return t;
  }
  return undefined;
}

function scaleTarget(v: AValue): ScaleOp['on'] | undefined {
  if (v.attn) return v.attn.stage === 'scores' ? 'scores' : 'weights';
  if (v.role === 'query') return 'query';
  if (v.role === 'key') return 'key';
  return undefined;
}

/**
 * `attn_bias` / `bias` as a parameter of this function that no caller in view binds, whose value says nothing (no mask
 * facts): a term added to the scores that may be a position bias or an additive mask. Names that say position
 * (`pos`, `rel`, `alibi`, `rope`: names.ts `isMaskableBiasName`) are position biases.
 */
function unseenBias(ev: Evaluator, v: AValue, node: PyNode, ctx: Ctx): boolean {
  const u = unparen(node);
  if (u.type !== 'identifier' || v.mask || v.attn || (v.kind !== 'tensor' && v.kind !== 'unknown')) return false;
  const name = ev.text(u);
  if (!isMaskableBiasName(name)) return false;
  const defs = ev.resolve(u, name);
  return !!defs && defs.length > 0 && defs.every((d) => d.kind === 'param' && !!d.param && !ctx.bindings?.has(d.param.name));
}

/** `m * c` (or `c * m`): a 0/1 mask the code shows times a scalar whose value it does not show. */
function maskTimesUnshown(ev: Evaluator, node: PyNode, ctx: Ctx): boolean {
  const u = unparen(node);
  if (u.type !== 'binary_operator' || operatorText(ev.tree, u) !== '*') return false;
  const l = childByField(u, 'left');
  const r = childByField(u, 'right');
  if (!l || !r) return false;
  const [lv, rv] = [ev.eval(l, ctx), ev.eval(r, ctx)];
  const zeroOne = (v: AValue): boolean => v.kind === 'tensor' && !!v.mask && !v.mask.additive;
  return (zeroOne(lv) && isUnshownScalar(rv)) || (zeroOne(rv) && isUnshownScalar(lv));
}

/** tensor * number or tensor / number. */
function scaleTensor(ev: Evaluator, t: AValue, factor: AValue, factorNode: PyNode, opNode: PyNode, divide: boolean, ctx: Ctx, tNode?: PyNode): AValue {
  const on = scaleTarget(t);
  let out = t;
  // A negated mask (`keep - 1`: -1 where True, 0 elsewhere) times c is the mask (True where keep is 0) times -c.
  if (t.mask?.negated && !divide) {
    const m = t.mask;
    const negatedFactor = negateNumber(factor);
    // c large positive: -c large negative where the mask is True, an additive mask built from it.
    if (negatedFactor && isMaskingFill(negatedFactor)) {
      const { negated: _negated, ...plain } = m;
      return scaleTensor(ev, { ...t, mask: plain }, negatedFactor, factorNode, opNode, divide, ctx, tNode);
    }
    // c large negative: +|c| where keep is 0 and 0 where it is 1, which after softmax is `keep * c` (a constant added
    // to every score changes nothing): the additive mask built from the unflipped mask.
    if (isMaskingFill(factor)) {
      const unflipped = flipMask(m, m.why);
      // `== 0` of `keep - 1` is not its inverse either: no simple fix (fromAdditive).
      if (unflipped)
        return scaleTensor(
          ev,
          { ...t, mask: { ...unflipped, why: msg(PHRASES.minusOneTimesLargeNegative, m.why), fromAdditive: true } },
          factor,
          factorNode,
          opNode,
          divide,
          ctx,
          tNode,
        );
    }
  }
  // A mask times a large negative constant is an additive mask built from it.
  if (t.mask && !t.mask.additive && !divide && isMaskingFill(factor)) {
    const m = t.mask;
    ev.facts.fill.push({
      node: opNode,
      ctx,
      how: 'add',
      target: t,
      targetNode: tNode,
      fillNode: factorNode,
      fill: factor,
      mask: t,
      maskNode: tNode,
      maskSelectsFill: true,
    });
    if (tNode) pushAdditiveMaskFact(ev, { node: opNode, ctx, maskNode: tNode, mask: t });
    return tensor({
      ndim: t.ndim,
      axes: t.axes,
      // An integer or boolean mask times a Python float is float32 (PyTorch's default dtype), as is a float32 one.
      ...(t.dtype === 'float32' || integerValued(t) ? { dtype: 'float32' as const } : {}),
      mask: {
        ...m,
        additive: true,
        polarity: undefined,
        dtype: 'float',
        why: msg(PHRASES.timesLargeNegative, m.why),
        builtFrom: m.polarity,
        ...(m.tri && tNode ? { triangleSiteAt: opNode } : {}),
        productSiteAt: opNode,
      },
    });
  }
  // A mask times a large positive constant, to be subtracted from the scores (`scores - 1e30 * mask`).
  if (t.mask && !t.mask.additive && !divide && factor.kind === 'number' && factor.num !== undefined && factor.num >= 1e4) {
    // Judged as a fill of -factor (what the subtraction writes into the masked scores).
    ev.facts.fill.push({
      node: opNode,
      ctx,
      how: 'add',
      target: t,
      targetNode: tNode,
      fillNode: factorNode,
      fill: number({ num: -factor.num }),
      mask: t,
      maskNode: tNode,
      maskSelectsFill: true,
      subtracted: true,
    });
    return tensor({ ndim: t.ndim, axes: t.axes, mask: { ...t.mask, scaledPositive: true, why: msg(PHRASES.timesLargePositive, t.mask.why) } });
  }
  // A 0/1 mask scaled by a constant too small to mask (`mask * 1e-9`, `mask / 1e9`): the rule decides whether the
  // product is added to attention scores. Masks already additive (0/-inf) are left alone.
  if (t.mask && !t.mask.additive && factor.kind === 'number' && factor.num !== undefined && factor.num !== 0 && Number.isFinite(factor.num)) {
    const effective = divide ? 1 / factor.num : factor.num;
    if (Math.abs(effective) <= 1e-3)
      ev.facts.weakAdditiveMask.push({ node: opNode, ctx, mask: t, maskNode: tNode ?? childByField(opNode, 'left') ?? opNode, factorNode, factor: effective });
  }
  // normalize(x) * sqrt(d) * gamma is an RMS norm's rescaling, not an attention scale.
  if (on && t.normalized && on !== 'scores' && on !== 'weights') return addOp(t, { kind: 'opaque', node: opNode });
  if (on) {
    const op = scaleOp(ev, factor, factorNode, opNode, divide, on);
    ev.facts.scale.push({ ctx, op, target: t });
    out = addOp(t, op);
  } else if (t.pairwise && !t.pairwise.additive && !t.mask) {
    // A factor on q * k broadcast pairwise before its features are summed: a factor on the scores the sum forms (the sum is
    // linear). Recorded as a scale site by the reduction that makes them scores (shape-ops.ts, scoresOfPairwise).
    const op = scaleOp(ev, factor, factorNode, opNode, divide, 'scores');
    out = { ...addOp(t, op), pairwise: { ...t.pairwise, scaled: [...(t.pairwise.scaled ?? []), { op, ctx }] } };
  } else if (t.kind === 'tensor' && !t.mask && !t.attn) {
    // `q, k, v = qkv[0] * self.scale, qkv[1], qkv[2]`: scaled before it is named. Keep the op (it may become
    // q or k) without reporting it as a site. A random draw scaled (`np.random.randn(d, d_k) * np.sqrt(2.0 / d)`,
    // a projection's initialiser) keeps it too, marked as an initialiser's spread.
    const op = scaleOp(ev, factor, factorNode, opNode, divide, 'query');
    out = addOp(t, t.randomDraw ? { ...op, init: true } : op);
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
      return power(ev, lv, rv, l);
    case '&':
    case '|':
      return maskLogic(lv, rv, op === '&' ? 'and' : 'or');
    default:
      return lv.kind === 'number' && rv.kind === 'number' ? number() : UNKNOWN;
  }
}

function onesTimesNumber(ones: AValue, n: AValue): AValue | undefined {
  if (ones.kind !== 'tensor' || !ones.ones || ones.mask || ones.attn || n.kind !== 'number') return undefined;
  // `torch.ones(L, S) * torch.finfo(dtype).min` is filled with the dtype's minimum, as `torch.full(..., finfo.min)` is.
  const fill = filledWith(n);
  if (!fill) return undefined;
  const { ones: _ones, ops: _ops, ...rest } = ones;
  return { ...rest, ...fill };
}

/**
 * What a tensor filled with the number `n` records: its value, or for a finfo minimum -Infinity (the lowest a mask
 * can write) and which dtype's bound it is (a finite value: fillFinfo).
 */
function filledWith(n: AValue): Pick<AValue, 'fillValue' | 'fillFinfo'> | undefined {
  if (n.kind !== 'number') return undefined;
  if (n.num !== undefined) return { fillValue: n.num };
  return n.finfo && !n.finfoMax ? { fillValue: -Infinity, fillFinfo: n.finfo } : undefined;
}

/**
 * A tensor filled with a known number times another known number (`tf.ones(shape) * np.inf * -1`, read left to right
 * as `(ones * inf) * -1`): still filled, with the product (-inf there, not the +inf of the first factor). A finfo bound,
 * a mask or scores are left to the general product.
 */
function filledTimesNumber(t: AValue, n: AValue): AValue | undefined {
  if (t.kind !== 'tensor' || t.fillValue === undefined || t.fillFinfo !== undefined || t.mask || t.attn) return undefined;
  if (n.kind !== 'number' || n.num === undefined) return undefined;
  return { ...t, fillValue: t.fillValue * n.num };
}

/** A tensor's fill as the number it holds (a finfo bound as that bound). */
export function fillNumberOf(t: AValue): AValue | undefined {
  if (t.kind !== 'tensor' || t.fillValue === undefined) return undefined;
  return number(t.fillFinfo ? { finfo: t.fillFinfo } : { num: t.fillValue });
}

/** A parameter of the function read, as written (`causal`). */
function isParameter(ev: Evaluator, node: PyNode, ctx: Ctx): boolean {
  const u = unparen(node);
  return u.type === 'identifier' && ctx.scope.params.some((p) => p.name === ev.text(u));
}

function multiply(ev: Evaluator, lv: AValue, rv: AValue, l: PyNode | undefined, r: PyNode | undefined, node: PyNode, ctx: Ctx): AValue {
  if (lv.kind === 'number' && rv.kind === 'number') return numberTimes(lv, rv, ev.text(node));
  // `torch.ones_like(x) * -1e9`: a tensor filled with that number (a fill value, as full_like gives).
  const filled = onesTimesNumber(lv, rv) ?? onesTimesNumber(rv, lv) ?? filledTimesNumber(lv, rv) ?? filledTimesNumber(rv, lv);
  if (filled) return filled;
  if (isNumberLike(rv) && l && r) return scaleTensor(ev, tensorish(lv), rv, r, node, false, ctx, l);
  if (isNumberLike(lv) && l && r) return scaleTensor(ev, tensorish(rv), lv, l, node, false, ctx, r);
  // tensor * tensor
  if (lv.mask && rv.mask) return pairProduct(lv, rv) ?? maskLogic(lv, rv, 'and');
  if (lv.mask?.additive === undefined && rv.kind === 'tensor' && rv.fillValue !== undefined && lv.mask)
    return scaleTensor(ev, lv, fillNumberOf(rv)!, r!, node, false, ctx);
  // q * k broadcast against each other where q and k came out of an unnamed product (`x @ W`, read as possible
  // scores): the pair is the scores' precursor, not scores times something.
  if (lv.attn?.stage !== 'weights' && rv.attn?.stage !== 'weights' && (lv.attn || rv.attn)) {
    const pair = pairwiseProduct(ev, lv, rv, l, r, node);
    if (pair) return pair;
  }
  const [t, other, otherNode] = lv.attn ? [lv, rv, r] : rv.attn ? [rv, lv, l] : [undefined, undefined, undefined];
  if (t && other && otherNode) {
    if (isMaskLike(ev, other, otherNode)) {
      if (t.attn!.stage === 'scores') {
        // Multiplying the scores by a 0/1 mask keeps them where it is 1 (Megatron's unfused `scores * m - 1e4 * (1 - m)`).
        // It masks attention only where a softmax reads the product (`softmaxOf`): a 0/1 gate on one term of the scores
        // that is then added to another (relative-position logits `(~keep).float() * qe` skewed and added to q·kᵀ) leaves
        // the sum's other term where the gate is 0, and masks no key. A product handed back unread from its function is
        // judged where the file's (or an importing file's) softmax reads it.
        const returned = t.attn!.formedAt && returnedUnreadAt(ev, node) ? { normalisedAt: t.attn!.formedAt, returnedFrom: enclosingFunction(node) } : {};
        ev.facts.mask.push({
          node,
          ctx,
          display: 'scores × mask',
          param: 'mask',
          expects: 'keep',
          convention: 'fill',
          maskNode: otherNode,
          mask: other,
          softmaxOf: node,
          ...returned,
        });
        return addOp(t, { kind: 'mask', node, how: 'mul', maskNode: otherNode });
      }
      if (!isHeadMask(ev, otherNode)) {
        ev.facts.weightsMask.push({ node, ctx, weights: t, maskNode: otherNode });
        return { ...t, attn: { ...t.attn!, postMask: [...(t.attn!.postMask ?? []), node] } };
      }
      return t;
    }
    // The softmax's backward pass written out (`attn * (d_attn - (attn * d_attn).sum(-1, keepdims=True))`, NumPy and
    // hand-written autograd code): the weights times the upstream gradient less its weighted sum over the rows is the
    // gradient of the scores, not weights; later scales and products on it are the chain rule, not attention.
    if (t.attn!.stage === 'weights' && softmaxBackward(ev, t, otherNode, ctx)) {
      const { attn: _a, ops: _o, role: _r, ...grad } = scaledBy(t, other);
      return grad;
    }
    // The weights times a parameter of a function read with no caller (`softmax(scores) * causal`): its callers say
    // whether it is a mask (importer-calls.ts reads the importing files' calls of the function).
    if (t.attn!.stage === 'weights' && ctx.bindings === undefined && other.kind !== 'number' && isParameter(ev, otherNode, ctx))
      ev.facts.weightsTimesParam.add(ctx.scope);
    // Scores times a tensor-valued scale (logit_scale.exp(), a temperature tensor).
    const name = rootName(ev, otherNode);
    if (other.kind === 'number' || (name && isScaleName(name)) || other.scaleName) return scaleTensor(ev, t, other, otherNode, node, false, ctx);
    // Scores times a tensor whose meaning the code does not show: the factor is an unknown step on the way (as on a
    // named query, `q * gamma` below). Scores of a named query and keys (q·kᵀ) modulated elementwise so (a distance
    // decay, a gate) are still those scores, and whatever masks or normalises them next acts on them. An unnamed
    // product (`x @ W` in a helper, read as possible scores) leaves that stage, and may go on to be a query or keys
    // (`Q = self.heads(x, Wq, d)`): `1 / np.sqrt(d) * Q` with d read from a config dict is then a scale whose value is
    // not shown, not no scale.
    if (t.attn!.stage === 'scores') {
      const named = !!t.attn!.queryText && !!t.attn!.keyText && !!t.attn!.keyIsKey;
      return { ...scaledBy(t, other), attn: named ? t.attn : undefined, ops: addOp(t, { kind: 'opaque', node }).ops };
    }
    return { ...scaledBy(t, other), attn: t.attn, ops: t.ops };
  }
  // q or k times a 0/1 token mask (`Q * mask[:, None, :, None]`, Nyströmformer): the padded tokens' vectors are zeroed
  // before the product, which leaves their scores at 0, not -inf; it masks nothing by itself and is no mask of the
  // scores. The queries or keys go on as they were (role, layout, scaling).
  if ((lv.role === 'query' || lv.role === 'key') && !lv.mask && r && rv.kind === 'tensor' && isMaskLike(ev, rv, r) && !isHeadMask(ev, r)) return lv;
  if ((rv.role === 'query' || rv.role === 'key') && !rv.mask && l && lv.kind === 'tensor' && isMaskLike(ev, lv, l) && !isHeadMask(ev, l)) return rv;
  // logits * mask before any softmax (attention pooling logits, not q·kᵀ): a multiplicative mask.
  if (lv.kind === 'tensor' && !lv.mask && r && rv.kind === 'tensor' && isMaskLike(ev, rv, r) && !isHeadMask(ev, r))
    return addOp(lv, { kind: 'mask', node, how: 'mul', maskNode: r });
  if (rv.kind === 'tensor' && !rv.mask && l && lv.kind === 'tensor' && isMaskLike(ev, lv, l) && !isHeadMask(ev, l))
    return addOp(rv, { kind: 'mask', node, how: 'mul', maskNode: l });
  // q * k broadcast pairwise, then times a tensor of unknown meaning before the features are summed (edge features
  // of a graph transformer, `(Q[:, :, :, None, :] * K[:, :, None, :, :] * E) .sum(-1)`, a gate): each pair's product
  // modulated elementwise, still the scores' precursor, as named scores modulated so stay scores (above). The factor
  // is an unknown step on the way (opaque), unless its name or value says it is a scale.
  {
    const [pw, other, otherNode] = lv.pairwise ? [lv, rv, r] : rv.pairwise ? [rv, lv, l] : [undefined, undefined, undefined];
    if (pw && otherNode && other.kind === 'tensor' && !pw.pairwise!.additive && !pw.mask && !other.mask && !other.pairwise && !other.attn) {
      if (other.role !== 'query' && other.role !== 'key' && other.role !== 'value' && !isMaskLike(ev, other, otherNode)) {
        if (other.dimPow || other.scaleName || isScaleName(rootName(ev, otherNode) ?? '')) return scaleTensor(ev, pw, other, otherNode, node, false, ctx);
        return { ...addOp(scaledBy(pw, other), { kind: 'opaque', node }), pairwise: pw.pairwise };
      }
    }
  }
  // q * scale where scale is a tensor (e.g. torch.tensor(d).rsqrt())
  if ((lv.role === 'query' || lv.role === 'key') && r && (rv.dimPow || rv.scaleName || isScaleName(rootName(ev, r) ?? '')))
    return scaleTensor(ev, lv, rv, r, node, false, ctx);
  if ((rv.role === 'query' || rv.role === 'key') && l && (lv.dimPow || lv.scaleName || isScaleName(rootName(ev, l) ?? '')))
    return scaleTensor(ev, rv, lv, l, node, false, ctx);
  // q * gamma (a learned per-channel weight): same tensor, scaled by something unknown; its layout is the
  // broadcast of both (a length-1 axis of q against a full one of the other operand is full).
  if ((lv.role || lv.normalized) && rv.kind !== 'number' && !rv.mask && !rv.role) return addOp(scaledBy(lv, rv), { kind: 'opaque', node });
  if ((rv.role || rv.normalized) && lv.kind !== 'number' && !lv.mask && !lv.role) return addOp(scaledBy(rv, lv), { kind: 'opaque', node });
  return pairwiseProduct(ev, lv, rv, l, r, node) ?? broadcastResult(lv, rv);
}

/**
 * `g - (w * g).sum(axis, keepdims=True)` (also `np.sum(w * g, axis=-1, keepdims=True)`) next to the weights `w` it is
 * multiplied with: the vector-Jacobian product of the softmax that made `w`, a gradient of the scores.
 */
function softmaxBackward(ev: Evaluator, w: AValue, otherNode: PyNode, ctx: Ctx): boolean {
  const diff = unparen(otherNode);
  if (diff.type !== 'binary_operator' || operatorText(ev.tree, diff) !== '-') return false;
  const sub = childByField(diff, 'right');
  if (!sub) return false;
  const red = ev.eval(sub, ctx).reduced;
  if (red?.kind !== 'sum') return false;
  // The weighted sum written with the upstream gradient first (`(d_attn * attn).sum(-1)`): the product's value may not
  // carry the weights' facts, so its factors are read (session 47, a NumPy transformer's manual backward pass).
  const of = red.of.attn?.stage === 'weights' ? red.of.attn : weightsFactorOfSum(ev, sub, ctx);
  return of?.stage === 'weights' && (of.softmax?.site === undefined || of.softmax.site === w.attn?.softmax?.site);
}

/** The attention weights among the factors of the product a sum reduces (`(dA * A).sum(-1)`, `np.sum(dA * A, axis=-1)`). */
function weightsFactorOfSum(ev: Evaluator, sum: PyNode, ctx: Ctx): AValue['attn'] {
  const call = unparen(sum);
  if (call.type !== 'call') return undefined;
  const fn = childByField(call, 'function');
  const receiver = fn?.type === 'attribute' ? childByField(fn, 'object') : undefined;
  const moduleForm = receiver && /^(?:np|numpy|jnp|torch|tf|mx)$/.test(ev.text(receiver));
  const summed = receiver && !moduleForm ? receiver : namedChildren(childByField(call, 'arguments') ?? call)[0];
  const product = summed && unparen(summed);
  if (!product || product.type !== 'binary_operator' || operatorText(ev.tree, product) !== '*') return undefined;
  for (const side of [childByField(product, 'left'), childByField(product, 'right')]) {
    const attn = side ? ev.eval(side, ctx).attn : undefined;
    if (attn?.stage === 'weights') return attn;
  }
  return undefined;
}

/** t times a tensor of unknown meaning: t's facts, on the layout the two broadcast to (t's own when a rank is unknown). */
function scaledBy(t: AValue, other: AValue): AValue {
  if (other.kind === 'tensor' && other.ndim === undefined) {
    // Against a tensor of unknown rank, a length-1 axis of t (`nn.Parameter(torch.empty(1, C))`) broadcasts to
    // whatever the other operand has there: its length is no longer known to be 1.
    const axes = axesOf(t);
    if (!axes?.some((a) => a.size1)) return { ...t };
    return { ...t, axes: axes.map((a) => (a.size1 ? { ...(a.label ? { label: a.label } : {}) } : a)) };
  }
  if (other.kind !== 'tensor' || t.ndim === undefined) return { ...t };
  return { ...t, ...broadcastLayout(t, other) };
}

function numberTimes(a: AValue, b: AValue, product?: string): AValue {
  const out: Mutable<AValue> = { kind: 'number' };
  if (a.num !== undefined && b.num !== undefined) out.num = a.num * b.num;
  if (a.dimPow && b.num !== undefined) out.scaleName = a.scaleName;
  if (a.scaleName || b.scaleName) out.scaleName = a.scaleName ?? b.scaleName;
  // A finfo min times a positive constant is still a masking fill.
  if ((a.finfo || b.finfo) && ((a.num ?? 1) > 0 || (b.num ?? 1) > 0)) out.finfo = a.finfo ?? b.finfo;
  if (a.dimPow && b.dimPow && a.dimPow.dim.text === b.dimPow.dim.text) out.dimPow = { dim: a.dimPow.dim, power: a.dimPow.power + b.dimPow.power };
  // The number of heads times one head's width (`head * d_tensor` read off 4-D keys): the model width.
  const perHead = a.headCount || headAxisSize(a, b) ? b.dimPow : b.headCount || headAxisSize(b, a) ? a.dimPow : undefined;
  if (perHead && perHead.power === 1 && perHead.dim.which === 'head')
    out.dimPow = { dim: { which: 'model', text: product ?? `heads * ${perHead.dim.text}` }, power: 1 };
  return out;
}

/**
 * `h` is the size of axis 1 of the 4-D queries or keys (split into heads) whose last axis, one head's width, `d` is
 * read off: `B, H, L, D = k.size()`, its heads.
 */
function headAxisSize(h: AValue, d: AValue): boolean {
  const t = d.dimPow?.dim.lastAxisOf ? d.dimPow.dim.ofTensor : undefined;
  if (!t || t.ndim !== 4 || !(t.multiHead || t.role === 'query' || t.role === 'key') || h.dimPow?.power !== 1 || h.dimPow.dim.ofTensor !== t) return false;
  return /\.shape\[1\]$/.test(h.dimPow.dim.text);
}

function divide(ev: Evaluator, lv: AValue, rv: AValue, _l: PyNode | undefined, r: PyNode | undefined, node: PyNode, ctx: Ctx): AValue {
  if (lv.kind === 'number' && rv.kind === 'number') {
    const out: Mutable<AValue> = { kind: 'number' };
    if (lv.num !== undefined && rv.num !== undefined && rv.num !== 0) out.num = lv.num / rv.num;
    // The head count over the width split into those heads (`self.heads / self.channels`, heads defaulting to 4):
    // one over each head's width, not a power of the model width.
    if (lv.headCount && rv.dimPow?.power === 1 && !rv.dimPow.dim.otherAxis && rv.dimPow.dim.which !== 'heads' && rv.dimPow.dim.which !== 'head')
      out.dimPow = { dim: { which: 'head', text: `${rv.dimPow.dim.text} / heads` }, power: -1 };
    else if (rv.dimPow && lv.num !== undefined && lv.num > 0) out.dimPow = { dim: rv.dimPow.dim, power: -rv.dimPow.power };
    else if (lv.dimPow && rv.headCount) out.dimPow = { dim: { which: 'head', text: `${lv.dimPow.dim.text} / heads` }, power: 1 };
    // One head's width divided by a positive constant (`head_dim ** 1 / float(4)`, where `**` binds first: head_dim / 4)
    // still grows with that width, to the same power; a model width divided by a constant may be the split into heads
    // (`d_model / 8`), so what it is stays unknown.
    else if (lv.dimPow && rv.num !== undefined && rv.num > 0 && lv.dimPow.dim.which === 'head') out.dimPow = lv.dimPow;
    else if (lv.dimPow && rv.num !== undefined) out.dimPow = undefined;
    if (rv.scaleName || lv.scaleName) out.scaleName = rv.scaleName ?? lv.scaleName;
    return out;
  }
  if (isNumberLike(rv) && r) return scaleTensor(ev, tensorish(lv), rv, r, node, true, ctx);
  // Renormalisation: w / w.sum(dim, keepdim=True)
  if (rv.reduced && rv.reduced.kind === 'sum') {
    const of = rv.reduced.of;
    if (lv.expOfScores && of.expOfScores === lv.expOfScores && sumBroadcastsBack(rv, of)) return handSoftmax(ev, lv, rv, node, ctx);
    if (lv.attn && lv.attn.stage === 'weights' && of.attn?.softmax?.site === lv.attn.softmax?.site) {
      return renormalise(ev, lv, typeof rv.reduced.axis === 'number' ? negAxis(rv.reduced.axis, lv.ndim) : undefined, ctx);
    }
    if (of === lv) {
      const axis = typeof rv.reduced.axis === 'number' ? negAxis(rv.reduced.axis, lv.ndim) : undefined;
      return { ...lv, normalized: true, sumNormalised: axis === undefined ? {} : { axis } };
    }
    if (of.role && of.role === lv.role) return { ...lv, normalized: true };
  }
  if (rv.reduced && rv.reduced.kind === 'norm') return { ...lv, normalized: true };
  // The same L2 norm written out by hand, `x / sqrt(sum(x * x, axis=-1, keepdims=True))` (MLX, NumPy): a unit vector.
  if (!lv.attn && dividesByOwnNorm(ev.tree, _l, r)) return { ...lv, normalized: true };
  // Scores divided by a tensor-valued scale (torch.sqrt(torch.tensor(d)), a temperature parameter).
  if ((lv.attn || lv.role === 'query' || lv.role === 'key') && r && (rv.dimPow || rv.scaleName || (rootName(ev, r) && isScaleName(rootName(ev, r)!))))
    return scaleTensor(ev, lv, rv, r, node, true, ctx);
  if (lv.attn && r) return scaleTensor(ev, lv, rv, r, node, true, ctx);
  // q or k divided by a value whose meaning the code does not show (`global_q /= self.s_d_k`, an attribute a base
  // class outside the file sets, whose name may even read as keys): an unknown step on the way, as `q * gamma` is in
  // multiply, not nothing.
  if ((lv.role === 'query' || lv.role === 'key') && r && (rv.kind === 'unknown' || rv.kind === 'tensor') && !rv.mask && !rv.attn && !rv.reduced)
    return addOp(scaledBy(lv, rv), { kind: 'opaque', node });
  return broadcastResult(lv, rv);
}

/** Weights divided by their own sum along `axis` (negative index): they now sum to 1 along that axis. */
export function renormalise(ev: Evaluator, w: AValue, axis: number | undefined, ctx: Ctx): AValue {
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

/**
 * A square root of a whole number written out (`math.sqrt(64)`, `64 ** -0.5`): the 1/sqrt(d) form with d a literal,
 * whose width is not known yet (which: 'unknown'); a rule may place it by comparing it with the sizes the code states.
 */
function literalWidthRoot(n: number, p: number): { dim: DimInfo; power: number } {
  return { dim: { which: 'unknown', text: String(n), literal: n }, power: p };
}

/**
 * A head count read off a tensor's last axis keeps that tensor (DimInfo.ofTensor), for a rule to place the axis; one read
 * off any axis the layout labels heads says so (DimInfo.headAxis).
 */
function headCountAxis(v: AValue): Pick<DimInfo, 'ofTensor' | 'lastAxisOf' | 'headAxis'> {
  return { ...(v.headCountOf ? { ofTensor: v.headCountOf, lastAxisOf: true } : {}), ...(v.headCountAxis ? { headAxis: true as const } : {}) };
}

function power(ev: Evaluator, lv: AValue, rv: AValue, l?: PyNode): AValue {
  if (lv.kind !== 'number' && lv.kind !== 'tensor') return UNKNOWN;
  const p = rv.num;
  if (p === undefined) return number();
  const out: Mutable<AValue> = { kind: 'number' };
  // A square root of a whole number written out (`64 ** 0.5`, `self.temperature = 64 ** -0.5`) is the 1/sqrt(d) scale
  // with d given as a literal, the same as `math.sqrt(64)` (which keeps no value either): not a fixed temperature.
  const rootOfCount = lv.num !== undefined && !lv.dimPow && !lv.headCount && !lv.scaleName && Number.isInteger(lv.num) && lv.num > 1 && Math.abs(p) === 0.5;
  if (lv.num !== undefined && !rootOfCount) out.num = lv.num ** p;
  if (rootOfCount) out.dimPow = literalWidthRoot(lv.num, p);
  else if (lv.dimPow) out.dimPow = { dim: lv.dimPow.dim, power: lv.dimPow.power * p };
  // The count keeps the name it was read from (`self.n_heads ** -0.5`): a rule may check what else the code does with it.
  else if (lv.headCount) out.dimPow = { dim: { which: 'heads', text: l ? ev.text(l) : 'num_heads', ...headCountAxis(lv) }, power: p };
  if (lv.scaleName) out.scaleName = lv.scaleName;
  return out;
}

/**
 * `scores * m + (1 - m) * fill` (TF ports of masked_fill): when every path of the scores ends in the product with m
 * and `fill` is a masking number (or one too small to mask, which ATT007 reports as such), the two terms together
 * are `where(m, scores, fill)`: the product is replaced by a
 * `where` mask of the sum. Undefined for anything else (`fill` not a large negative number, another mask than m).
 */
/** Forgets the `scores × mask` polarity site of the product at `product` (a blend judged at its fill term instead). */
/**
 * An additive triangle (`tri * -1e6`) added into the first columns of another mask (`mask[:, :, :, :n] + start_mask`,
 * a slice with a stop and no start on the last axis): with keys laid out `[memory | new]` those columns are a memory's,
 * and the triangle limits how far back each query reads it (an equal attention window), not the causal mask over its
 * own keys. Its polarity sites, judged where the product was built, are not judged (ATT002 skips them).
 */
function dropWindowTriangleSite(ev: Evaluator, lv: AValue, rv: AValue, l: PyNode | undefined, r: PyNode | undefined): void {
  const [tri, slice] = rv.mask?.triangleSiteAt && l ? [rv, l] : lv.mask?.triangleSiteAt && r ? [lv, r] : [];
  const at = tri?.mask?.triangleSiteAt;
  if (at && slice && firstColumns(ev, slice)) ev.facts.windowTriangles.add(at.id);
}

/** `x[..., :n]` / `x[:, :, :, :n]`: a subscript whose last index is a slice with a stop and no start. */
function firstColumns(ev: Evaluator, node: PyNode): boolean {
  const u = unparen(node);
  if (u.type !== 'subscript') return false;
  const last = unparen(childrenByField(u, 'subscript').at(-1) ?? u);
  if (last.type !== 'slice') return false;
  const text = ev.text(last).replace(/\s+/g, '');
  return /^:[^:]+$/.test(text);
}

/**
 * An additive triangle made additive in another expression (`bias = np.tril(ones, -1) * -np.inf` at module level, a
 * helper's return) and added to the scores here: recorded with the triangle as this addition reads it, after any
 * transpose on the way (`bias.T`), so that ATT002 judges it against these scores' axes (masks.ts: transposeMask).
 * Written in the addition itself (`s + tri * -1e9`), it is judged where it was built, as before.
 */
function noteTriangleUse(ev: Evaluator, mv: AValue, maskNode: PyNode, node: PyNode, ctx: Ctx): void {
  const m = mv.mask;
  const at = m?.triangleSiteAt;
  if (!m?.additive || !at || !m.tri) return;
  for (let n: PyNode | null = at; n; n = n.parent) if (n === node) return;
  if (ev.facts.additiveTriangleUse.some((u) => u.node === node && u.ctx === ctx && u.builtAt === at)) return;
  ev.facts.additiveTriangleUse.push({ node, ctx, maskNode, builtAt: at, tri: m.tri, viaParameter: rootIsParameter(ev, node, maskNode) });
}

/** The operand's root name (`bias` of `bias.T`, `bias[None]`) is a parameter of the function holding `node`. */
function rootIsParameter(ev: Evaluator, node: PyNode, operand: PyNode): boolean {
  const name = rootName(ev, operand);
  let fn: PyNode | null = node.parent;
  while (fn && fn.type !== 'function_definition') fn = fn.parent;
  const params = fn ? childByField(fn, 'parameters') : undefined;
  if (!name || !params) return false;
  return namedChildren(params).some((p) => {
    const id = p.type === 'identifier' ? p : (childByField(p, 'name') ?? namedChildren(p).find((c) => c.type === 'identifier'));
    return !!id && ev.text(id) === name;
  });
}

function dropProductSite(ev: Evaluator, product: PyNode): void {
  const u = unparen(product);
  const own = ev.facts.mask.findIndex((m) => m.node === u && m.display === 'scores × mask');
  if (own >= 0) ev.facts.mask.splice(own, 1);
}

function blendFill(ev: Evaluator, scores: AValue, fillTerm: PyNode, node: PyNode, ctx: Ctx, subtracted = false): AValue | undefined {
  const alts = scores.ops;
  if (!alts || alts.length === 0) return undefined;
  const last = alts.map((a) => a[a.length - 1]);
  const mul = last[0];
  if (mul?.kind !== 'mask' || mul.how !== 'mul' || !mul.maskNode) return undefined;
  if (!last.every((o) => o === mul)) return undefined;
  const maskText = ev.text(unparen(mul.maskNode));
  const product = unparen(fillTerm);
  if (product.type !== 'binary_operator' || operatorText(ev.tree, product) !== '*') return undefined;
  const sides = [childByField(product, 'left'), childByField(product, 'right')].map((n) => n && unparen(n));
  const isOneMinusMask = (n: PyNode | undefined): boolean => {
    if (n?.type !== 'binary_operator' || operatorText(ev.tree, n) !== '-') return false;
    const one = childByField(n, 'left');
    const m = childByField(n, 'right');
    return !!one && !!m && ev.eval(one, ctx).num === 1 && ev.text(unparen(m)) === maskText;
  };
  const i = sides.findIndex(isOneMinusMask);
  const fill = i < 0 ? undefined : sides[1 - i];
  if (!fill) return undefined;
  const f = ev.eval(fill, ctx);
  // A fill the code does not show (`self.cfg.neg * (1 - m)`, a config field, a parameter, a name imported from a module
  // outside the workspace): still the `where` of a
  // blend, not scores times a 0/1 mask; with its value unknown it is no evidence either way (an unshown mask step).
  if (f.kind === 'unknown' || f.kind === 'module' || (f.kind === 'number' && f.num === undefined && !f.finfo)) {
    dropProductSite(ev, mul.node);
    const unshown: MaskOp = { kind: 'mask', node, how: 'where', maskNode: mul.maskNode, unshown: true };
    return { ...scores, ops: alts.map((a) => [...a.slice(0, -1), unshown]) };
  }
  // Subtracted (`scores * m - 10000.0 * (1.0 - m)`, Megatron's form), the fill is a large positive number.
  // A fill term too small to mask (`(1 - m) * -1e-9`, a typo for -1e9) is still the `where` the expression writes:
  // ATT007 reports its value (a weak additive mask), so the product is not a second finding of a 0/1 mask.
  if (subtracted ? !isLargePositive(f) : !isMaskingFill(f) && !isTinyFill(f)) return undefined;
  // One expression, one judgement: the fill term's polarity is checked there, not the product's as well.
  dropProductSite(ev, mul.node);
  const where: MaskOp = { kind: 'mask', node, how: 'where', maskNode: mul.maskNode };
  return { ...scores, ops: alts.map((a) => [...a.slice(0, -1), where]) };
}

/** NAME is assigned in the class body with no annotation (`MASK_VALUE = -1e-9`) and never with one (a field). */
function plainClassConstant(ev: Evaluator, cls: ClassInfo, name: string): boolean {
  // A class of another workspace file is read there (its text is not this file's).
  if (!ev.owns(cls.scope)) return false;
  const body = childByField(cls.node, 'body');
  let plain = false;
  for (const stmt of body?.children ?? []) {
    const a = stmt.type === 'expression_statement' ? namedChildren(stmt)[0] : undefined;
    const left = a?.type === 'assignment' ? childByField(a, 'left') : undefined;
    if (!a || left?.type !== 'identifier' || ev.text(left) !== name) continue;
    if (childByField(a, 'type')) return false;
    plain = true;
  }
  return plain;
}

/** A number too small to mask, of either sign (`1e-9`, `-1e-9`): what a weak additive mask is scaled by. */
function isTinyFill(v: AValue): boolean {
  return v.kind === 'number' && v.num !== undefined && v.num !== 0 && Math.abs(v.num) <= 1e-3;
}

/** A large positive number (`10000.0`, `1e9`, `finfo(dtype).max`): subtracted where a mask is 1, it masks. */
function isLargePositive(v: AValue): boolean {
  if (v.kind !== 'number') return false;
  if (v.finfo) return v.finfoMax === true;
  return v.num !== undefined && v.num >= 1e4;
}

/**
 * A mask that is 0/1 where it is added to the scores: a boolean one, or one whose construction (not its name) shows
 * 0/1 values with a polarity (`attention_mask[:, None, None, :]` of a mask that defaults to ones, `(ids != pad).float()`).
 * A name alone never counts: Hugging Face code calls the additive mask `attention_mask` too.
 */
export function addsZeroOne(m: MaskInfo): boolean {
  if (m.additive || !m.polarity || m.scaledPositive) return false;
  // A boolean dtype known only from a name (`key_padding_mask`: PyTorch also accepts a float additive one) is no
  // evidence that 0/1 is added.
  return !m.byName;
}

/** A Python float literal (`1.0`, `1.`, `1e0`). */
const FLOAT_LITERAL = /^\s*\d*\.\d*(?:e[-+]?\d+)?\s*$|^\s*\d+e[-+]?\d+\s*$/i;

/**
 * A tensor's dtype as the code shows it: the one it was given, else 'float' (some floating dtype) when how it was made
 * says it holds real numbers: an embedding table's output, a projection, attention scores or weights, a learned
 * parameter, a random draw, convolution features (not a name: a parameter called `q` says nothing of its dtype). The
 * one reading of `x.dtype`, `.type_as(x)` and `.to(x)` (a mask converted to the dtype of the hidden states is a float
 * mask, added by the APIs that take one).
 */
export function dtypeOfTensor(t: AValue): DType | undefined {
  if (t.dtype) return t.dtype;
  if (t.kind !== 'tensor' || t.mask || t.tokenIds || t.index) return undefined;
  const made = t.proj !== undefined || t.projectedWidth || t.attn !== undefined || t.learned || t.randomDraw || t.expOfScores || t.fromConv;
  return made ? 'float' : undefined;
}

/** A tensor known to hold integers or booleans (`.long()`, a comparison, a mask documented as long or bool). */
export function integerValued(t: AValue): boolean {
  const d = t.dtype ?? t.mask?.dtype;
  return d === 'int' || d === 'bool';
}

/** The ones on a diagonal: `tf.linalg.band_part(x, 0, 0)` (also `tf.matrix_band_part`), `torch.eye(n)`, `tf.eye(n)`. */
function isDiagonalOfOnes(ev: Evaluator, node: PyNode): boolean {
  const u = unparen(node);
  if (u.type !== 'call') return false;
  const fn = childByField(u, 'function');
  const args = childByField(u, 'arguments');
  const fnText = fn ? ev.text(fn) : '';
  if (/(?:^|\.)eye$/.test(fnText)) return true;
  if (!/(?:^|\.)(?:band_part|matrix_band_part)$/.test(fnText) || !args) return false;
  const p = namedChildren(args);
  const [, lo, hi] = p;
  return p.length === 3 && !!lo && !!hi && intLiteral(ev.tree, unparen(lo)) === 0 && intLiteral(ev.tree, unparen(hi)) === 0;
}

/**
 * A mask written into the scores by arithmetic (`mask * -1e9`, `scores - 1e9 * mask`, `scores + (1 - keep) * 1e4`): a
 * mask site of the code's own convention whose mask must be True/1 at the positions to ignore (ATT002 judges it).
 */
function pushAdditiveMaskFact(ev: Evaluator, site: Omit<MaskSite, 'display' | 'param' | 'expects' | 'convention'>): void {
  ev.facts.mask.push({ display: 'additive mask', param: 'mask', expects: 'ignore', convention: 'fill', ...site });
}

function addSub(ev: Evaluator, op: string, lv: AValue, rv: AValue, l: PyNode | undefined, r: PyNode | undefined, node: PyNode, _ctx: Ctx): AValue {
  if (op === '+') dropWindowTriangleSite(ev, lv, rv, l, r);
  if (lv.kind === 'number' && rv.kind === 'number') {
    if (lv.num !== undefined && rv.num !== undefined) return number({ num: op === '+' ? lv.num + rv.num : lv.num - rv.num });
    return number({ ...(lv.finfo || rv.finfo ? { finfo: lv.finfo ?? rv.finfo } : {}) });
  }
  // `x.sum(dim) + eps`: still that sum (a renormalisation keeps its meaning with a small epsilon).
  if (op === '+' && rv.reduced && isEpsilon(ev, lv, l)) return rv;
  if (op === '+' && lv.reduced && isEpsilon(ev, rv, r)) return lv;
  // `bias = zeros(...); bias += attn_mask`: zeros plus a mask is that mask, with the zeros' full shape (the mask
  // broadcasts against it). One whose construction or documentation says what it holds (0/1 or additive) stays so; one
  // of unknown meaning is read as the scores would read it added to them, additive.
  if (op === '+' && lv.kind === 'tensor' && lv.zeros && !lv.mask && !lv.attn && rv.kind === 'tensor' && r && isMaskLike(ev, rv, r)) {
    const { maybeNone: _n, unbound: _u, ...added } = rv;
    const shape = lv.ndim !== undefined ? { ndim: lv.ndim, axes: lv.axes } : {};
    const known = rv.mask && (rv.mask.polarity || rv.mask.additive || rv.mask.dtype === 'bool');
    return {
      ...added,
      ...shape,
      mask: known ? rv.mask : { ...(rv.mask ?? { why: `\`${ev.text(r)}\`` }), additive: true, additiveAssumed: true, dtype: 'float' },
    };
  }
  // `scores - 1e30 * mask`: subtracting a mask times a large positive number masks, where the mask is True/1, as
  // `scores + mask * -1e30` does (TensorFlow/Keras code writes `e -= (1.0 - keep) * 1e9`): judged as that additive
  // mask, at the mask factor of the product when the product is written here (its fix inverts that factor), and only
  // when a softmax of the file normalises these scores (a penalty on span logits a loss scores is no attention mask). Not after
  // the scores were multiplied by a mask (`scores * m - 1e4 * (1 - m)`, a blend): the product's site judges that one.
  if (op === '-' && lv.attn?.stage === 'scores' && rv.mask?.scaledPositive && r) {
    const lastOps = (lv.ops ?? []).map((a) => a[a.length - 1]);
    const blend = lastOps.some((o) => o?.kind === 'mask' && o.how === 'mul');
    if (rv.mask.polarity && !blend) {
      const product = unparen(r);
      const factor =
        product.type === 'binary_operator' && operatorText(ev.tree, product) === '*'
          ? [childByField(product, 'left'), childByField(product, 'right')].find((n) => {
              if (!n) return false;
              const v = ev.eval(n, _ctx);
              return v.kind === 'tensor' && !!v.mask?.polarity && !v.mask.additive && !v.mask.scaledPositive;
            })
          : undefined;
      const { scaledPositive: _sp, ...plain } = rv.mask;
      const site = factor ? { maskNode: factor, mask: ev.eval(factor, _ctx) } : { maskNode: r, mask: { ...rv, mask: { ...plain, fromAdditive: true } } };
      const normalisedAt = lv.attn.formedAt;
      pushAdditiveMaskFact(ev, { node, ctx: _ctx, normalisedAt, subtracted: true, ...site });
    }
    return addOp(lv, { kind: 'mask', node, how: 'add', maskNode: r });
  }
  // `scores + (1 - keep) * 10000.0`: a large positive number added where the mask is 1, which after softmax is the
  // flipped mask times a large negative number (a constant added to every score changes nothing): judged as the
  // additive mask built from the flipped mask, at the addition (no fix: `== 0` of the product is no inverse).
  if (op === '+' && lv.attn?.stage === 'scores' && rv.mask?.scaledPositive && rv.mask.polarity && r) {
    const flipped = flipMask(rv.mask, rv.mask.why);
    if (flipped) {
      const mask = { ...flipped, why: msg(PHRASES.addedLargePositive, rv.mask.why), fromAdditive: true };
      pushAdditiveMaskFact(ev, { node, ctx: _ctx, maskNode: r, mask: { ...rv, mask } });
    }
    return addOp(lv, { kind: 'mask', node, how: 'add', maskNode: r });
  }
  // A triangle of ones minus its diagonal (`band_part(ones, 0, -1) - band_part(ones, 0, 0)`, `triu(ones) - eye(n)`):
  // the strict triangle, the same side of the diagonal without it.
  if (
    op === '-' &&
    lv.kind === 'tensor' &&
    lv.mask?.tri &&
    lv.mask.tri.k === 0 &&
    !lv.mask.additive &&
    r &&
    (isDiagonalOfOnes(ev, r) || (rv.identity && !rv.mask))
  ) {
    const tri = { ...lv.mask.tri, k: lv.mask.tri.region === 'upper' ? 1 : -1 };
    return { ...lv, mask: { ...lv.mask, tri, why: `\`${ev.text(node)}\`` } };
  }
  // `1 - (keep - 1)` is 2 - keep: no mask of either meaning.
  if (op === '-' && lv.kind === 'number' && lv.num === 1 && rv.mask?.negated) return stripFacts(rv);
  // `keep - 1` is `-(1 - keep)`: the flipped mask negated (-1 where keep is 0, 0 where it is 1). Read as nonzero it is
  // the flipped mask; times a constant, the constant's sign decides which side gets the large negative number.
  if (op === '-' && rv.kind === 'number' && rv.num === 1 && lv.kind === 'tensor' && lv.mask && !lv.mask.additive && !lv.mask.negated && lv.mask.polarity && l) {
    const flipped = flipMask(lv.mask, `\`${ev.text(node)}\``, 'float');
    if (flipped) {
      const float32 = FLOAT_LITERAL.test(ev.text(r!)) && integerValued(lv) ? { dtype: 'float32' as const } : {};
      return { ...lv, ...float32, mask: { ...flipped, negated: true, why: msg(PHRASES.minusOne, lv.mask.why) } };
    }
  }
  // 1 - mask flips a 0/1 mask.
  if (op === '-' && lv.kind === 'number' && lv.num === 1 && rv.mask && r) {
    const flipped = flipMask(rv.mask, `\`1 - ${ev.text(r)}\``, 'float');
    // `1.0 - m` of an integer or boolean mask is a float32 tensor (PyTorch's default dtype), whatever autocast does.
    // So is `one - m` of a float32 scalar and a mask cast to its dtype (TensorFlow's `one_cst = tf.constant(1.0)`).
    const float32 =
      (l !== undefined && FLOAT_LITERAL.test(ev.text(l)) && integerValued(rv)) || (lv.dtype === 'float32' && rv.dtype === 'float32')
        ? { dtype: 'float32' as const }
        : {};
    return flipped ? { ...rv, ...float32, mask: flipped } : tensor({ ndim: rv.ndim, axes: rv.axes, ...float32 });
  }
  // `scores * m + m2 * -1e9` in one expression: one blend, judged once, at its fill term (a fill site of its own).
  if (op === '+' && lv.attn?.stage === 'scores' && l && r && rv.mask?.additive) dropProductSite(ev, l);
  // `scores * m + (1 - m) * -1e9` or `scores * m - 1e4 * (1 - m)`: a blend that keeps the scores where m is 1 and
  // fills the rest, a `where`. Read from the expression, whatever is known of m's values (a caller's mask built in a way
  // the analysis cannot follow).
  if ((op === '+' || op === '-') && lv.attn?.stage === 'scores' && r) {
    const blended = blendFill(ev, lv, r, node, _ctx, op === '-');
    if (blended) return blended;
  }
  // Scores + mask: an additive mask (or scores - large * mask).
  if (lv.attn && lv.attn.stage === 'scores' && r) {
    if (op === '+' && rv.mask && addsZeroOne(rv.mask)) {
      // A boolean (or 0/1) mask added to the scores adds 0/1, not -inf.
      return addOp(lv, { kind: 'mask', node, how: 'add01', maskNode: r });
    }
    if (isMaskLike(ev, rv, r) || rv.mask?.additive) {
      noteTriangleUse(ev, rv, r, node, _ctx);
      noteFullPrecisionSum(ev, lv, rv);
      return addOp(lv, { kind: 'mask', node, how: 'add', maskNode: r });
    }
    // A bias parameter that no caller in view passes (`scores + attn_bias`): what it holds is not shown, and callers
    // often build it as an additive mask (-inf where masked). Read as one that may mask, so the scores are not
    // claimed unmasked from its name; a caller in view that passes a mask or a position bias decides in its context.
    if (op === '+' && unseenBias(ev, rv, r, _ctx)) return addOp(lv, { kind: 'mask', node, how: 'add', maskNode: r, unshown: true });
    // A 0/1 mask the code shows times a value it does not show (`scores += m * self.neg`, a config field of a class not
    // in view): an additive mask if that value is a large negative number, nothing if not; no evidence either way.
    if (maskTimesUnshown(ev, r, _ctx)) return addOp(lv, { kind: 'mask', node, how: 'add', maskNode: r, unshown: true, scaledByUnshown: true });
    // Subtracting the row max (numerical stability) or adding a position bias keeps the scores, with any length-1
    // axis the other operand stretches (`(x @ W.T)[:, None, :] + keys_proj`, read as scores until shown otherwise).
    return stretchedBy(lv, rv);
  }
  if (rv.attn && rv.attn.stage === 'scores' && l && op === '+') {
    if (isMaskLike(ev, lv, l) || lv.mask?.additive) {
      noteTriangleUse(ev, lv, l, node, _ctx);
      noteFullPrecisionSum(ev, rv, lv);
      return addOp(rv, { kind: 'mask', node, how: 'add', maskNode: l });
    }
    return stretchedBy(rv, lv);
  }
  // Weights + an additive mask (`w + (1.0 - m) * -10000.0`, `w += bias` with bias zeros filled with -inf): the mask acts
  // after the softmax, on probabilities (ATT006). Only a mask the code shows additive (times a large negative number,
  // filled with one), not one read as additive for want of a meaning.
  if (op === '+') {
    const [w, m, mNode] = lv.attn?.stage === 'weights' ? [lv, rv, r] : rv.attn?.stage === 'weights' ? [rv, lv, l] : [];
    if (w?.attn && m?.kind === 'tensor' && mNode && m.mask?.additive && !m.mask.additiveAssumed && !isHeadMask(ev, mNode)) {
      ev.facts.weightsMask.push({ node, ctx: _ctx, weights: w, maskNode: mNode, additive: true });
      return { ...w, attn: { ...w.attn, postMask: [...(w.attn.postMask ?? []), node] } };
    }
  }
  if (lv.attn && lv.attn.stage === 'weights') return lv; // weights + eps (slot attention)
  // 0/1 mask + 0/1 mask of one meaning (`(pad_mask + subsequent_mask).gt(0)`): nonzero where either is, a count.
  if (op === '+') {
    const counted = maskCount(lv, rv);
    if (counted) return counted;
  }
  // additive mask + additive mask
  if (lv.mask?.additive && rv.mask?.additive)
    return {
      ...lv,
      mask: {
        ...lv.mask,
        why: msg(PHRASES.addedMasks, lv.mask.why, rv.mask.why),
        padAxes: [...new Set([...(lv.mask.padAxes ?? []), ...(rv.mask.padAxes ?? [])])],
      },
    };
  // arange offsets: i + 1
  if (lv.index && rv.kind === 'number' && rv.num !== undefined)
    return { ...lv, index: { axis: lv.index.axis, offset: lv.index.offset + (op === '+' ? rv.num : -rv.num) } };
  if (lv.kind === 'number' && rv.kind === 'tensor' && (rv.role || rv.attn)) return rv;
  // q + u_bias (Transformer-XL), x + pos: a tensor with a role keeps it when the other side has none. Its length-1
  // axes may be stretched by the other side (`Wq(q.unsqueeze(1)) + Wk(keys)`, (B, 1, A) + (B, T, A)).
  if (lv.kind === 'tensor' && lv.role && !rv.role && !rv.mask && rv.kind !== 'number') return { ...withoutSize1(lv), ops: lv.ops };
  if (rv.kind === 'tensor' && rv.role && !lv.role && !lv.mask && lv.kind !== 'number' && op === '+') return withoutSize1(rv);
  if (rv.kind === 'number' && lv.kind === 'tensor') {
    const o = mutable(lv);
    delete o.mask;
    return o;
  }
  // q' + k' broadcast against each other (additive attention over every pair of positions).
  return (op === '+' ? pairwiseProduct(ev, lv, rv, l, r, node, 'sum') : undefined) ?? broadcastResult(lv, rv);
}

/**
 * The sum of two 0/1 masks (boolean or integer, never additive or negated) whose construction says they mean the same
 * (`seq_k.eq(PAD)` expanded plus `triu(ones, diagonal=1)`, both True = ignore): the or of the two as a count (MaskInfo
 * `count`). Masks of different meanings, or known only by name, give no mask (the generic sum).
 */
function maskCount(lv: AValue, rv: AValue): AValue | undefined {
  const a = lv.mask;
  const b = rv.mask;
  if (lv.kind !== 'tensor' || rv.kind !== 'tensor' || lv.attn || rv.attn || !a || !b) return undefined;
  if (a.additive || b.additive || a.negated || b.negated || a.scaledPositive || b.scaledPositive || a.byName || b.byName) return undefined;
  const m = combineMasks(a, b, 'or');
  if (!m) return undefined;
  const ndim = lv.ndim !== undefined && rv.ndim !== undefined ? Math.max(lv.ndim, rv.ndim) : undefined;
  return tensor({
    ...(ndim !== undefined ? { ndim, axes: Array.from({ length: ndim }, () => ({})) } : {}),
    mask: { ...m, dtype: 'int', count: true },
  });
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
    return v.kind === 'tensor' ? tensor({ ndim: v.ndim, axes: v.axes, ...(v.lastSize1 ? { lastSize1: true } : {}), dtype: 'bool' }) : UNKNOWN;
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
    const stored = valueNode ? storedInSelfDict(ev, valueNode, ctx) : undefined;
    if (stored) return stored;
  }
  if (v.kind === 'tuple') {
    if (subs.length === 1) {
      const i = intLiteral(ev.tree, subs[0]);
      if (v.shapeOf && i !== undefined) return dimOfShape(v.shapeOf, i);
      if (v.elements && i !== undefined) {
        const idx = i < 0 ? v.elements.length + i : i;
        return v.elements[idx] ?? UNKNOWN; // past either end: unknown
      }
      if (v.elements && subs[0]?.type === 'slice') return sliceTuple(ev, v.elements, subs[0]);
      // `q[h]` of equal pieces (`q = torch.chunk(q, chunks=self.heads, dim=-1)`, every element the same value) by an
      // index the code does not state (a loop over the heads): any piece, with the facts of all (a scale folded in
      // before the split; session 47, ATT003 on apple/ml-cvnets-style per-head loops).
      const [first] = v.elements ?? [];
      if (first && v.elements!.every((e) => e === first) && subs[0] && unparen(subs[0]).type !== 'slice') return first;
      // `masks[i]` of a list of masks of one meaning and unknown length (a comprehension's): one of them.
      if (!v.elements && v.items?.kind === 'tensor' && v.items.mask && subs[0] && unparen(subs[0]).type !== 'slice') return v.items;
    }
    return UNKNOWN;
  }
  if (v.kind !== 'tensor' && v.kind !== 'unknown') return UNKNOWN;
  const cacheRead = valueNode && isCacheName(rootName(ev, valueNode) ?? '');
  const indexed = indexTensor(ev, tensorish(v), subs, (n) => {
    const i = ev.eval(n, ctx);
    return i.kind === 'number' && (i.num === undefined || Number.isInteger(i.num));
  });
  const blocks = subs[0] !== undefined && unparen(subs[0]).type === 'ellipsis' && !v.mask?.tri && !v.mask?.causal;
  const spread = v.mask && (v.ndim === undefined || v.ndim === 2 || blocks) ? subscriptSpread(ev, subs) : undefined;
  const sliced = sliceCausalMask(ev, spread ? spreadMask(ev, withSpreadPadding(v, indexed, spread), valueNode, spread.rank, spread.axis) : indexed, subs);
  // `m[:, ::-1]`: the mask reversed along that axis.
  const out =
    sliced.mask && subs.some((sub) => unparen(sub).type === 'slice' && ev.text(sub).replace(/\s+/g, '') === '::-1')
      ? { ...sliced, mask: reverseMask(sliced.mask) }
      : sliced;
  // A slice of keys that include a cache (`torch.cat([self.keys, k], dim=-2)[..., -window:, :]`) still includes it.
  if (v.kind === 'tensor' && v.fromCache && !out.fromCache) return { ...out, fromCache: true, ...(v.cacheAt ? { cacheAt: v.cacheAt } : {}) };
  return cacheRead ? { ...out, fromCache: true } : out;
}

/**
 * A (B, S) padding mask of unknown rank placed by indexing (`pad[:, None, :, None]`, two slices: rank 2): its padding,
 * along its last axis, goes where the indexing puts that axis (-2 there: the queries), as `pad.unsqueeze(1).unsqueeze(-1)`
 * gives. Only when the indexing lost it (a known rank keeps it through the index) and the mask varied along its last axis.
 */
function withSpreadPadding(v: AValue, indexed: AValue, spread: { rank: number; axis: number }): AValue {
  const pad = v.mask?.padAxes;
  if (!indexed.mask || indexed.mask.padAxes || spread.rank !== 2 || pad?.length !== 1 || pad[0] !== -1) return indexed;
  return { ...indexed, mask: { ...indexed.mask, padAxes: [spread.axis] } };
}

/** `t[a:b]` of a tuple (a shape) with literal bounds and no step: those elements; otherwise a tuple of unknown length. */
function sliceTuple(ev: Evaluator, elements: readonly AValue[], slice: PyNode): AValue {
  const parts = namedChildren(slice);
  const colons = slice.children.filter((ch) => ch.type === ':').length;
  if (colons !== 1) return { kind: 'tuple' };
  // The bound before the colon is the start, the one after it the stop.
  const colon = slice.children.find((ch) => ch.type === ':');
  let start: number | undefined = 0;
  let stop: number | undefined = elements.length;
  for (const p of parts) {
    const n = intLiteral(ev.tree, p);
    if (n === undefined) return { kind: 'tuple' };
    if (colon && p.start < colon.start) start = n;
    else stop = n;
  }
  return { kind: 'tuple', elements: elements.slice(start, stop) };
}

/**
 * `self.w[name + str(i)]` under a key the code computes, of a dict the class fills with one kind of value: bound only to
 * `{}` or to a dict comprehension, and written only as `self.w[...] = value` (`for name in ("q", "k"): self.w[name +
 * str(i)] = glorot(d_in, d_out)`): whatever the key, the value read is one of those stored, all tensors (their join).
 * Undefined for anything else (a dict bound elsewhere or to other values, no stored value, a stored value not a tensor).
 */
function storedInSelfDict(ev: Evaluator, valueNode: PyNode, ctx: Ctx): AValue | undefined {
  const u = unparen(valueNode);
  const obj = u.type === 'attribute' ? childByField(u, 'object') : undefined;
  const attr = u.type === 'attribute' ? childByField(u, 'attribute') : undefined;
  const cls = ctx.scope.ownerClass;
  if (!obj || !attr || !cls || obj.type !== 'identifier' || ev.text(obj) !== ctx.scope.selfName) return undefined;
  const name = ev.text(attr);
  // The writes `self.w[k] = v` are defs of their own (setitem), read below from the class's code.
  const defs = ev.classAttrDefs(cls, `self.${name}`).filter((d) => d.kind !== 'setitem');
  if (defs.length === 0 || !defs.every((d) => ev.owns(d.scope) && d.kind === 'assign' && d.path.length === 0 && d.value)) return undefined;
  const stored: AValue[] = [];
  for (const d of defs) {
    const rhs = unparen(d.value!.type === 'assignment' ? (childByField(d.value!, 'right') ?? d.value!) : d.value!);
    if (rhs.type === 'dictionary' && namedChildren(rhs).length === 0) continue;
    const body = rhs.type === 'dictionary_comprehension' ? namedChildren(rhs).find((n) => n.type === 'pair') : undefined;
    const value = body ? childByField(body, 'value') : undefined;
    if (!value) return undefined;
    stored.push(ev.eval(value, ev.defaultCtx(ev.ctxScope(d.scope))));
  }
  const selfName = ctx.scope.selfName;
  let other = false;
  walk(cls.scope.node, (n) => {
    if (other) return false;
    if (n.type !== 'assignment') return true;
    const left = childByField(n, 'left');
    const right = childByField(n, 'right');
    const base = left?.type === 'subscript' ? childByField(left, 'value') : undefined;
    if (!base || !right || ev.text(base).replace(/\s+/g, '') !== `${selfName}.${name}`) return true;
    const fn = enclosingFunction(n);
    const scope = fn ? ev.sr.scopeOfNode.get(fn.id) : undefined;
    if (!scope || scope.selfName !== selfName) other = true;
    else stored.push(ev.eval(right, ev.defaultCtx(scope)));
    return false;
  });
  if (other || stored.length === 0 || !stored.every((v) => v.kind === 'tensor')) return undefined;
  return joinAll(stored);
}

function dictItem(ev: Evaluator, v: AValue, key: string, valueNode: PyNode | undefined): AValue {
  void valueNode;
  // A dict whose entries are known (a literal, `dict(k=v)`, a helper returning one): the value stored under the key,
  // whose construction decides over what the key's name suggests.
  const entry = v.kwargs?.find(([k]) => k === key)?.[1];
  if (entry && (entry.kind !== 'unknown' || entry.mask)) return entry;
  // A tokenizer's output holds its attention_mask (1 at real tokens); a dict of unknown origin is read by the same key's
  // convention unless the file's own code stores a mask of the other meaning under it.
  if (key === 'attention_mask')
    return v.kind === 'object' && v.tokenizerOutput
      ? tokenizerAttentionMask(`\`["attention_mask"]\``)
      : ev.attentionMaskKeyInverted()
        ? UNKNOWN
        : tokenizerAttentionMask(`\`["attention_mask"]\``, true);
  if (key === 'input_ids') return tensor({ tokenIds: true, ndim: 2, axes: [{ label: 'batch' }, { label: 'seq' }] });
  if (v.kind === 'object') return UNKNOWN;
  return UNKNOWN;
}

/** A method (of this file or another workspace file) decorated `@property` or `@functools.cached_property`: reading the attribute calls it. */
function isPropertyGetter(ev: Evaluator, scope: Scope): boolean {
  const owner = ev.owns(scope) ? ev : ev.link?.workspace.ownerOf(scope);
  if (!owner || scope.node.type !== 'function_definition') return false;
  return decoratorsOf(scope.node).some((d) => /^(?:property|(?:functools\.)?cached_property)$/.test(owner.text(d)));
}

/** A library's numeric constant by its qualified name (`numpy.inf`, `math.pi`), read as `np.inf` or `from numpy import inf`. */
export function moduleConstant(q: string): AValue | undefined {
  if (/^(torch|numpy|math|jax\.numpy|mlx\.core)\.inf$/.test(q)) return number({ num: Infinity });
  if (/^(numpy)\.(NINF)$/.test(q)) return number({ num: -Infinity });
  if (/^(math|numpy|torch)\.pi$/.test(q)) return number({ num: Math.PI });
  return undefined;
}

export function evalAttributeOf(ev: Evaluator, obj: AValue, attr: string, node: PyNode, ctx: Ctx): AValue {
  void ctx;
  if (obj.kind === 'module' && obj.qname) {
    const q = `${obj.qname}.${attr}`;
    const dt = dtypeOfQname(q);
    if (dt && /^(torch|numpy|jax\.numpy|tensorflow)\.[a-z0-9_]+$/.test(q)) return { kind: 'dtype', dtypeName: dt };
    return moduleConstant(q) ?? { kind: 'module', qname: q };
  }
  // `Consts.MASK_VALUE`: a class attribute assigned in the class body (here or in another workspace file).
  if (obj.kind === 'class' && obj.cls) {
    const b = ev.classBodyValue(obj.cls, attr);
    if (b && b.kind !== 'function' && b.kind !== 'unknown') return b;
  }
  if (obj.kind === 'object') {
    const a = ev.attributeOfObject(obj, attr);
    // A property (`@property def mask(self): return self._mask`): read, it is what its getter returns for this instance.
    // Taken for masks only (what ATT002 follows); any other value read through a property stays as it was.
    if (a?.kind === 'function' && a.fn?.self && isPropertyGetter(ev, a.fn.scope)) {
      const got = ev.applyValue(a, node, node, emptyArgs(), ctx);
      if (got.kind === 'tensor' && got.mask) return got;
    }
    if (a) return a;
    // A dataclass field's default or a class constant read through an instance (`cfg.mask_value`): a constructor may
    // pass another value, so only a fill value is taken from it (a flag's or a scale's default says nothing of the
    // instance: `use_qk_norm: bool = False` in a flax module is set by whoever builds it).
    const b = obj.object ? ev.classBodyValue(obj.object.cls, attr) : undefined;
    // A config class's field: what the constructions in view pass for it decides (`Cfg(neg=-1e4)` overrides the
    // default; `Cfg(neg=args.neg)`, set at run time, or two constructions that differ, leave it unknown).
    // Only for a field whose default is no positive whole number (a fill, a scale, a rate): a size (`n_embd: int = 768`) is
    // read by its name below, which holds whatever value a construction gives it.
    const valued = b?.kind === 'number' && b.num !== undefined && !(Number.isInteger(b.num) && b.num > 0);
    const built = obj.object && valued ? ev.constructedFieldValue(obj.object.cls, attr) : undefined;
    if (built === null) return UNKNOWN;
    if (built === 'default') {
      if (b) return b;
    } else if (built) return built;
    if (b?.kind === 'number' && b.num !== undefined && (b.num <= -1e4 || !Number.isFinite(b.num))) return b;
    // A config instance held in a class attribute (`cfg = Cfg()` in the class body) that no method replaces on the
    // instance and no code sets from outside: every instance reads that object (its fields through its construction).
    if (b?.kind === 'object' && b.object?.init && !ev.attributeSetOutside(attr)) return b;
    // A negative fraction assigned in the class body with no annotation (`MASK_VALUE = -1e-9`, a typo for -1e9): a
    // class constant, not a field a constructor sets; read as it is, so that a fill of it can be judged.
    if (b?.kind === 'number' && b.num !== undefined && b.num < 0 && !Number.isInteger(b.num) && obj.object && plainClassConstant(ev, obj.object.cls, attr))
      return b;
    const field = obj.object ? ev.classField(obj.object.cls, attr) : undefined;
    // A field declared only as a number (`d_model: int = 768` of a config dataclass, here or in config.py): its
    // name says which dimension it is, as for an attribute the analysis cannot see.
    const bareNumber = field?.kind === 'number' && field.num === undefined && !field.dimPow && !field.scaleName && !field.headCount;
    if (field && !bareNumber) return field;
    const dim = dimOfName(attr);
    if (dim) return number({ dimPow: { dim: { ...dim, text: field ? ev.text(node) : `self.${attr}` }, power: 1 } });
    if (isScaleName(attr)) return number({ scaleName: `self.${attr}` });
    if (isHeadCountName(attr)) return number({ headCount: true });
    return field ?? ev.nameRole(UNKNOWN, attr);
  }
  // `one_cst.dtype` of a scalar tensor made from a number (`one_cst = tf.constant(1.0)`).
  if (obj.kind === 'number' && attr === 'dtype' && obj.dtype) return { kind: 'dtype', dtypeName: obj.dtype };
  // `dot.dtype.min`, `tf.float16.max`: a TensorFlow DType's lowest (highest) value, as `finfo(dtype).min` (`.max`) is
  // (neither torch nor numpy dtypes have these attributes). An integer or boolean dtype's min is no masking fill.
  if (obj.kind === 'dtype' && (attr === 'min' || attr === 'max') && obj.dtypeName !== 'int' && obj.dtypeName !== 'bool')
    return number({ finfo: finfoOfDtype(obj.dtypeName), ...(attr === 'max' ? { finfoMax: true } : {}) });
  if (obj.kind === 'finfo') {
    if (attr === 'min' || attr === 'max') return number({ finfo: obj.finfoOf ?? 'of-tensor', ...(attr === 'max' ? { finfoMax: true } : {}) });
    // The machine epsilon and smallest normal number of a known float width (`torch.finfo().eps`, 1.19e-7 in float32):
    // tiny numbers, never a masking fill.
    const small = obj.finfoOf && obj.finfoOf !== 'of-tensor' ? FINFO_SMALL[attr]?.[obj.finfoOf] : undefined;
    if (small !== undefined) return number({ num: small });
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
      case 'dtype': {
        const dt = dtypeOfTensor(obj);
        return dt ? { kind: 'dtype', dtypeName: dt } : { kind: 'dtype' };
      }
      case 'ndim':
        return obj.ndim !== undefined ? number({ num: obj.ndim }) : number();
      case 'attention_mask':
        return tokenizerAttentionMask(`\`.attention_mask\``, true);
      case 'input_ids':
        return tensor({ tokenIds: true, ndim: 2, axes: [{ label: 'batch' }, { label: 'seq' }] });
      case 'data':
        return obj;
      default: {
        const dim = classUnparsed(ev, node) ? undefined : dimOfName(attr);
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
/**
 * The sum of exp(x) divides exp(x) along the axis it summed: it kept that axis (keepdim), or it dropped the leading
 * one, which broadcasting puts back in place. A sum over a later axis without keepdim lines up with the wrong axes
 * (`e / e.sum(-1)` on (L, S) divides column j by row j's sum): that is no softmax. Unknown ranks are given the benefit.
 */
function sumBroadcastsBack(sum: AValue, of: AValue): boolean {
  const axis = sum.reduced?.axis;
  if (typeof axis !== 'number' || sum.ndim === undefined || of.ndim === undefined || sum.ndim === of.ndim) return true;
  return sum.ndim === of.ndim - 1 && (axis === 0 || axis === -of.ndim);
}

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
  const dimValue: number | undefined = typeof red.axis === 'number' ? red.axis : undefined;
  if (red.axisValueNode && unparen(red.axisValueNode).type === 'identifier' && ctx.callSite) {
    const defs = ev.resolve(unparen(red.axisValueNode), ev.text(unparen(red.axisValueNode)));
    const only = defs && defs.length === 1 ? defs[0] : undefined;
    const p = only?.kind === 'param' ? only.param : undefined;
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

// ================================================================================================ masks & fills

function sdpa(ev: Evaluator, c: Call, qname: string): AValue {
  const info = SDPA_FUNCTIONS[qname];
  if (!info) return UNKNOWN; // called for the names of SDPA_FUNCTIONS only
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
  // keras.layers.Activation is a softmax only when named so (`Activation('softmax')`); other activations are unknown here.
  if (qname === 'keras.layers.Activation' && stringLiteral(ev.tree, arg(c, 'activation', 0)) !== 'softmax') return undefined;
  if (sm) {
    const dimValue = argument(c.args, sm.dimParam, sm.dimPos);
    const dimNode = argumentNode(c.args, sm.dimParam, sm.dimPos);
    const dim = dimValue ? intOf(ev, c, dimValue) : undefined;
    return { kind: 'layer', layer: { api: qname, ctor: c.node, ctorCtxId: c.ctx.id, dimNode, dim, dimValueNode: dimValue } };
  }
  const lin: (typeof LINEAR_LAYERS)[string] | undefined = LINEAR_LAYERS[qname] ?? CONV_LAYERS[qname];
  if (lin) {
    const out = argument(c.args, lin.outParam, lin.outPos);
    const inNode = 'inParam' in lin && lin.inParam ? argument(c.args, lin.inParam, lin.inPos) : undefined;
    // A size that is 1 only by the default of a parameter no call in view settles (`n_languages=1`) is what callers
    // pass: not known to be 1.
    const outIsOne = out && !ev.eval(out, c.ctx).unbound ? intOf(ev, c, out) === 1 : undefined;
    // Keras' Dense(1, activation='softmax'): its softmax runs over the one output unit.
    const activation = qname === 'keras.layers.Dense' && outIsOne ? argumentNode(c.args, 'activation', 1) : undefined;
    const softmaxActivation = activation && isSoftmaxActivation(ev, c, argument(c.args, 'activation', 1)) ? activation : undefined;
    return {
      kind: 'layer',
      layer: {
        api: qname,
        ctor: c.node,
        ctorCtxId: c.ctx.id,
        outIsOne,
        ...(softmaxActivation ? { softmaxActivation } : {}),
        inText: inNode ? ev.text(inNode) : undefined,
        outText: out ? ev.text(out) : undefined,
      },
    };
  }
  const rnn = RECURRENT_LAYERS[qname];
  if (rnn) return { kind: 'layer', layer: { api: qname, ctor: c.node, ctorCtxId: c.ctx.id, recurrent: recurrentOf(ev, c, rnn) } };
  // Bidirectional(LSTM(...)): the wrapped layer's layout (with the default concatenation of both directions' features).
  if (qname === 'keras.layers.Bidirectional') {
    const inner = val(ev, c, arg(c, 'layer', 0));
    const mode = arg(c, 'merge_mode', 1);
    const rec = inner.kind === 'layer' ? inner.layer?.recurrent : undefined;
    if (!rec || (mode && !['concat', 'sum', 'mul', 'ave'].includes(stringLiteral(ev.tree, mode) ?? ''))) return undefined;
    return { kind: 'layer', layer: { api: qname, ctor: c.node, ctorCtxId: c.ctx.id, recurrent: { ...rec, bidirectional: true } } };
  }
  // A Hugging Face model loaded by `AutoModel.from_pretrained(name)` or built from a config (`BertModel(config)`; not
  // a tokenizer, config, processor or collator): called with `attention_mask=`, which it reads as 1 = attend.
  if ((HF_PRETRAINED_MODEL.test(qname) || HF_BUILT_MODEL.test(qname)) && !HF_NOT_A_MODEL.test(qname))
    return { kind: 'layer', layer: { api: HF_MODEL, ctor: c.node, ctorCtxId: c.ctx.id } };
  // nn.ModuleList([...]): the list of modules itself (iterated in forward: `for block in self.layers`).
  if (qname === 'torch.nn.ModuleList') {
    const first = c.args.positional[0];
    const v = first ? ev.eval(first, c.ctx) : UNKNOWN;
    // `self.layers = nn.ModuleList([])`, then `self.layers.append(nn.ModuleList([norm, Attention(d), ff]))` in a loop
    // of the same function: a list of unknown length whose every item is what the appends build.
    const empty = !first || (unparen(first).type === 'list' && namedChildren(unparen(first)).length === 0);
    if (empty && c.args.keywords.size === 0 && !c.args.hasSplat) return appendedModules(ev, c) ?? (v.kind === 'tuple' ? v : UNKNOWN);
    return v.kind === 'tuple' ? v : UNKNOWN;
  }
  // TimeDistributed(Dense(...)) applies the Dense layer to every time step: on (batch, T, d) it is that Dense layer.
  if (qname === 'keras.layers.TimeDistributed') {
    const inner = val(ev, c, arg(c, 'layer', 0));
    return inner.kind === 'layer' && inner.layer?.api === 'keras.layers.Dense' ? inner : undefined;
  }
  if (qname === 'torch.nn.Sequential') {
    const layers = c.args.positional.map((n) => ev.eval(n, c.ctx));
    return { kind: 'layer', layer: { api: qname, ctor: c.node, ctorCtxId: c.ctx.id, layers } };
  }
  if (EMBEDDING_LAYERS.has(qname)) {
    const maskZero = qname === 'keras.layers.Embedding' && truthOf(val(ev, c, arg(c, 'mask_zero'))) === true;
    return { kind: 'layer', layer: { api: qname, ctor: c.node, ctorCtxId: c.ctx.id, ...(maskZero ? { maskZero: true as const } : {}) } };
  }
  if (MASK_LAYERS[qname] || PASS_THROUGH_LAYERS.has(qname) || SHAPE_KEEPING_LAYERS.has(qname)) {
    return { kind: 'layer', layer: { api: qname, ctor: c.node, ctorCtxId: c.ctx.id } };
  }
  return undefined;
}

/**
 * What a recurrent layer's constructor states: torch's `batch_first` (the fifth positional parameter, default
 * False), Keras' `time_major`, `return_sequences` and `return_state` (keywords, default False). A value the code
 * does not settle (a flag passed from elsewhere, `**kwargs`) stays unknown.
 */
function recurrentOf(ev: Evaluator, c: Call, api: (typeof RECURRENT_LAYERS)[string]): RecurrentInfo {
  const flag = (name: string, pos?: number): boolean | undefined => {
    const node = arg(c, name, pos);
    if (!node) return c.args.hasSplat ? undefined : false;
    return truthOf(val(ev, c, node));
  };
  if (api.framework === 'torch') return { framework: 'torch', cellState: api.cellState, batchFirst: flag('batch_first', 4) };
  const timeMajor = flag('time_major');
  return {
    framework: 'keras',
    cellState: api.cellState,
    batchFirst: timeMajor === undefined ? undefined : !timeMajor,
    sequences: flag('return_sequences'),
    state: flag('return_state'),
  };
}

/** `activation='softmax'`, or the softmax function itself (`activation=tf.nn.softmax`). */
function isSoftmaxActivation(ev: Evaluator, c: Call, value: PyNode | undefined): boolean {
  if (!value) return false;
  if (stringLiteral(ev.tree, value) === 'softmax') return true;
  const v = ev.eval(value, c.ctx);
  return v.kind === 'module' && v.qname !== undefined && SOFTMAX_FUNCTIONS[canonicalQualifiedName(v.qname)] !== undefined;
}

/** The softmax a Keras Dense layer applies as its activation: over the last axis of its output. */
const DENSE_SOFTMAX_ACTIVATION: SoftmaxApi = { display: 'keras.layers.Dense', framework: 'tf', dimParam: 'axis', dimPos: -1, defaultDim: -1 };

const HF_MODEL = 'transformers.PreTrainedModel';
const HF_PRETRAINED_MODEL = /^(?:transformers|pytorch_transformers|pytorch_pretrained_bert)\.(?:\w*Model\w*|\w+For\w+)\.from_pretrained$/;
/**
 * A model built from a configuration rather than loaded (`BertModel(config)`, `AutoModel.from_config(config)`): the
 * same classes, so the same `attention_mask` convention. Only transformers' own names of model classes.
 */
const HF_BUILT_MODEL = /^transformers\.(?:[A-Z]\w*Model|[A-Z]\w*For[A-Z]\w*)(?:\.from_config)?$/;
const HF_NOT_A_MODEL = /Tokenizer|Processor|Config|FeatureExtractor|ImageProcessor|DataCollator|Output|PreTrainedModel$/;

/**
 * A projection built with the attention scale folded into its weights (`ScaledLinear(d, 3 * h * hd,
 * initial_scale=hd ** -0.25)`, the weights multiplied by it at construction): its outputs carry that factor, as if
 * multiplied by it after the layer. Only a keyword named for a scale whose value is a power of a width counts.
 */
export function scaledAtConstruction(ev: Evaluator, out: AValue, ctor: PyNode, ctorCtx: Ctx, c: Call): AValue {
  if (out.kind !== 'tensor' || out.attn || out.mask) return out;
  const args = childByField(ctor, 'arguments');
  for (const kw of args ? namedChildren(args).filter((a) => a.type === 'keyword_argument') : []) {
    const name = childByField(kw, 'name');
    const value = childByField(kw, 'value');
    if (!name || !value || !isScaleName(ev.text(name))) continue;
    const factor = ev.eval(value, ctorCtx);
    if (!factor.dimPow || factor.dimPow.power >= 0) continue;
    return scaleTensor(ev, out, factor, value, c.node, false, c.ctx);
  }
  return out;
}

/**
 * A layer whose weights the class scales in place (`self.q_proj.weight.mul_(head_dim ** -0.5)`, evaluator.ts:
 * foldedWeightScales): its outputs carry that factor, as if multiplied by it after the layer.
 */
export function scaledByFoldedWeights(ev: Evaluator, out: AValue, factor: AValue, factorNode: PyNode, divide: boolean, c: Call): AValue {
  if (out.kind !== 'tensor' || out.attn || out.mask) return out;
  return scaleTensor(ev, out, factor, factorNode, c.node, divide, c.ctx);
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
  // An embedding table's output is floating point whatever the ids' dtype (nothing else of it is claimed here).
  if (EMBEDDING_LAYERS.has(api)) return tensor({ dtype: 'float' });
  if (LINEAR_LAYERS[api]) {
    const name = calleeName(ev, c);
    const out = projectionOf(input, projectionRole(name), layer.outIsOne, isPackedProjection(name), { input, inText: layer.inText, outText: layer.outText });
    if (!layer.softmaxActivation) return out;
    return softmax(ev, c, DENSE_SOFTMAX_ACTIVATION, out, undefined, { dimNode: layer.softmaxActivation, ownerNode: layer.ctor, layer, dimValue: -1 });
  }
  const conv = CONV_LAYERS[api];
  if (conv) {
    // Convolution features (a non-local block's, a point cloud's): channels first for torch, last for flax.
    const out = mutable(
      tensor({
        ndim: input.ndim,
        ...(conv.channelsLast ? {} : { channelFirst: true }),
        fromConv: true,
        ...(projectionRole(calleeName(ev, c)) ? { role: projectionRole(calleeName(ev, c)) } : {}),
      }),
    );
    if (input.ndim !== undefined && !conv.channelsLast) {
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
  if (layer.recurrent) return recurrentOutputs(layer.recurrent, inputOverride ?? val(ev, c, firstNode ?? arg(c, 'inputs') ?? arg(c, 'input')));
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
  const out = tensor({
    ndim: v.ndim,
    axes: v.axes,
    featLast: v.featLast,
    multiHead: v.multiHead,
    role: v.role,
    roleText: v.roleText,
    channelFirst: v.channelFirst,
    fromConv: v.fromConv,
    pairwise: v.pairwise,
    ...(v.lastSize1 ? { lastSize1: true } : {}),
  });
  return v.ops ? { ...out, ops: v.ops } : out;
}

/** Output of a Linear-like projection of `input`: same leading axes, features last. */
function projectionOf(input: AValue, role: AValue['role'], outIsOne: boolean | undefined, packed: boolean, proj?: AValue['proj']): AValue {
  const out: Mutable<AValue> = tensor({ featLast: true, projectedWidth: true, ...(proj ? { proj } : {}) });
  if (input.ndim !== undefined) {
    out.ndim = input.ndim;
    const axes = axesOf(input) ?? Array.from({ length: input.ndim }, () => ({}));
    out.axes = [...axes.slice(0, -1), { label: 'feat', ...(outIsOne ? { size1: true } : {}) }];
  } else if (outIsOne) out.lastSize1 = true;
  // A pairwise q/k combination keeps its query and key axes (only the features are projected).
  if (input.pairwise && input.ndim !== undefined) out.pairwise = input.pairwise;
  else if (role && !packed) {
    out.role = role;
  }
  return out;
}

export function callLayerMethod(ev: Evaluator, c: Call): AValue {
  const layer = c.recv!.layer!;
  if (c.name === 'generate_square_subsequent_mask') return causalAdditive(ev, c);
  if (c.name === 'forward' || c.name === '__call__' || c.name === 'call') return applyLayer(ev, c.recv!, c);
  // Keras `Embedding(..., mask_zero=True).compute_mask(ids)`: True at the ids that are not 0 (the padding id).
  if (c.name === 'compute_mask' && layer.maskZero) {
    const idsNode = arg(c, 'inputs', 0);
    const ids = tensorish(val(ev, c, idsNode));
    return tensor({
      ndim: ids.ndim,
      axes: ids.axes,
      dtype: 'bool',
      mask: { polarity: 'keep', padding: true, padAxes: [-1], dtype: 'bool', why: msg(PHRASES.trueAtRealTokensPadZero, `\`${ev.text(c.node)}\``) },
    });
  }
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
  if (/rotary|rope|rotate|\brot_|_rot_|apply_rot|apply_pos|pos_emb/i.test(name)) return rotated(ev, c);
  if (/norm/i.test(name) && !/normalize/i.test(name)) return keepShape(input);
  // Grouped-query heads repeated by a method not in view (`self._expand_kv(k)`, `self.repeat_kv(v, n_rep)`): the same
  // queries, keys or values, more heads; not a packed key/value projection of the model width.
  if (input.role && nameTokens(name).some((t) => t === 'repeat' || t === 'expand' || t === 'tile')) return input;
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
  if (/bias/i.test(name) || POSITION_BIAS.test(name)) return v;
  if (/softmax/i.test(name)) return undefined;
  return addOp(v, { kind: 'opaque', node: c.node });
}

/**
 * A rotary-embedding helper we cannot see into: it rotates its tensors in place of shape. Given the queries and
 * the keys (`apply_rotary_pos_emb(q, k, cos, sin)`), it returns both rotated, a pair to unpack (not one tensor
 * whose first axis an unpacking would split); given one tensor, that tensor.
 */
function rotated(ev: Evaluator, c: Call): AValue {
  const [a0, a1] = c.args.positional;
  const first = tensorish(val(ev, c, a0));
  const second = a1 ? val(ev, c, a1) : undefined;
  if (first.role === 'query' && second?.kind === 'tensor' && second.role === 'key') return { kind: 'tuple', elements: [first, second] };
  // The positions first and the tensor to rotate after them (`apply_rotary_pos_emb(positions, t)`,
  // `apply_rotary_emb(freqs, t)`, lucidrains' helpers, cut away or imported): the rotated queries or keys, not the
  // positions, whatever scale the code then applies to them.
  if (!first.role && !first.attn && second && (second.role === 'query' || second.role === 'key')) return tensorish(second);
  return first;
}

/** Calls of names we cannot resolve (helpers imported from elsewhere, builtins). */
export function callUnknown(ev: Evaluator, c: Call): AValue {
  const last = c.name.split('.').pop() ?? '';
  const through = scoresThroughHelper(ev, c, last);
  if (through) return through;
  const first = c.args.positional[0];
  if (/tokeni[sz]er/i.test(c.name)) return { kind: 'object', tokenizerOutput: true };
  if (/rotary|rope|rotate_half|\brot_|_rot_|apply_rot|apply_pos/i.test(last)) return rotated(ev, c);
  if (c.name.startsWith('self.') || (c.calleeNode && c.calleeNode.type === 'attribute')) return callUnknownLayer(ev, { ...c, name: last });
  const input = val(ev, c, first);
  if (input.role || input.attn) return addOp(tensor(), { kind: 'opaque', node: c.node });
  // A function of code not in view, called by its name (imported from a module the linter cannot read, or a name the
  // file never binds), returns a value it made: what that code did to its scale is unknown (a loader may return q
  // already scaled), so q or k read from it carry an unknown step, as they do through an unknown function applied to
  // them. Not a layer built and applied in one expression (`nn.Conv(...)(x)`), whose kind the layer decides.
  return c.calleeNode?.type === 'identifier' ? { kind: 'unknown', ops: [[{ kind: 'opaque', node: c.node }]] } : UNKNOWN;
}

/**
 * An additive mask (`pad * -1e9`) added to scores the code makes float32 or float64 (`logits = tf.cast(logits,
 * tf.float32)`) in a TensorFlow file: TensorFlow adds only tensors of one dtype (no promotion, unlike PyTorch, NumPy and
 * JAX), so the code runs only if the mask product is in the scores' dtype too, where the fill fits whatever the
 * precision policy (a `mixed_float16` one included). The product's fill site is noted for ATT007.
 */
function noteFullPrecisionSum(ev: Evaluator, scores: AValue, mask: AValue): void {
  const at = mask.mask?.productSiteAt;
  if (!at || ev.file.importsTorch || ev.file.arrayLibrary !== 'tensorflow') return;
  if (scores.dtype === 'float32' || scores.dtype === 'float64') ev.facts.addedToFullPrecision.add(at.id);
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

const SHAPE_METHODS = new Set([
  'view',
  'reshape',
  'permute',
  'expand',
  'repeat',
  'transpose',
  'tile',
  'broadcast_to',
  'unsqueeze',
  'squeeze',
  'flatten',
  'unflatten',
  'split',
  'chunk',
]);

/** List methods that take values in (`append`, `extend`, `insert`): no tensor has them. */
const LIST_ADDERS: ReadonlySet<string> = new Set(['append', 'extend', 'insert']);

export function callMethod(ev: Evaluator, c: Call): AValue {
  const recv = c.recv ?? UNKNOWN;
  const m = c.name;
  const cached = cacheMethod(ev, c);
  if (cached) return cached;
  const updated = m === 'set' ? functionalIndexUpdate(ev, c) : undefined;
  if (updated) return updated;
  // `weights.append(scores.softmax(dim=-1))`: a list's append runs its argument (its sites are the code's own).
  if ((recv.kind === 'tuple' || recv.kind === 'unknown') && LIST_ADDERS.has(m)) {
    for (const a of c.args.positional) ev.eval(a, c.ctx);
    return UNKNOWN;
  }
  if (recv.kind === 'tuple') {
    // A tuple's `.update(...)` reads as a cache update only where the receiver is named as a cache (cacheMethod took
    // those above): `self.stats.update(k, v)` of a running statistic is a method name, not a KV cache.
    if (m === 'update' && recv.kind === 'tuple' && c.recvNode && isCacheName(rootName(ev, c.recvNode) ?? ''))
      return { kind: 'tuple', elements: [tensor({ fromCache: true }), tensor({ fromCache: true })] };
    // TensorFlow's `x.get_shape().as_list()` (`x.shape.as_list()`): the same sizes, as a list.
    if (m === 'as_list' && recv.shapeOf && c.args.positional.length === 0) return recv;
    return UNKNOWN;
  }
  if (recv.kind === 'object' && recv.tokenizerOutput) {
    if (m === 'get') {
      const key = stringLiteral(ev.tree, c.args.positional[0]);
      if (key) return dictItem(ev, recv, key, undefined);
    }
    // `tokenizer(texts, return_tensors="pt").to(device)`: the same encoding, moved.
    if (m === 'to') return recv;
    return UNKNOWN;
  }
  if (recv.kind !== 'tensor' && recv.kind !== 'unknown') {
    if (recv.kind === 'number' || recv.kind === 'dtype') return numberMethod(ev, c, recv);
    return UNKNOWN;
  }
  const t = tensorish(recv);
  const a0 = c.args.positional[0];
  const a1 = c.args.positional[1];
  // `view(*x.shape[:2], h, -1)`: reshapeValue spreads a splatted shape of known length (`view(*output_size)` alone
  // is read from the tuple assigned to output_size); other shape methods cannot tell how many sizes there are.
  const reshape = (m === 'view' || m === 'reshape') && c.args.keywords.size === 0;
  if ((c.args.hasSplat || c.args.positional.some(isStarred)) && SHAPE_METHODS.has(m) && !reshape) return stripRank(t);
  const dtypeChange = DTYPE_METHODS[m];
  if (dtypeChange) {
    const out = mutable(t);
    if (dtypeChange !== 'same') {
      out.dtype = dtypeChange;
      // `.half()`, `.bfloat16()`: no longer the factory's default dtype.
      if (dtypeChange === 'float16' || dtypeChange === 'bfloat16') delete out.factoryScope;
      if (out.mask)
        out.mask = withMaskDtype(
          out.mask,
          dtypeChange === 'float32' || dtypeChange === 'float16' || dtypeChange === 'float64' || dtypeChange === 'bfloat16' ? 'float' : dtypeChange,
        );
    }
    return out;
  }
  const masked = maskMethod(ev, c, t);
  if (masked) return masked;
  // `w.isnan()`: a NaN test of the value it is called on (read by ATT007 as a guard of those rows).
  if (m === 'isnan') noteNanGuard(ev.facts, c.ctx.scope.id, t);
  switch (m) {
    case 'to':
    case 'type':
    case 'type_as':
    case 'astype': {
      const out = mutable(t);
      // `.to(dtype)`, `.to(device, dtype)`, `.to(device, dtype=...)`, `.to(dtype=...)`.
      // `.type_as(x)` and `.to(x)` of another tensor: x's dtype, read as `x.dtype` is.
      const other = a0 && (m === 'type_as' || m === 'to') ? val(ev, c, a0) : undefined;
      const dt =
        (other?.kind === 'tensor' ? dtypeOfTensor(other) : undefined) ??
        (a0 && m !== 'type_as' ? dtypeOfValue(val(ev, c, a0)) : undefined) ??
        (m === 'to' && a1 ? dtypeOfValue(val(ev, c, a1)) : undefined) ??
        dtypeKwarg(ev, c);
      // Converted to a dtype that may be half (`.to(q.dtype)`, `.type_as(scores)`): no longer the factory's default.
      if (dt !== 'float32' && dt !== 'float64' && dt !== 'int' && dt !== 'bool') delete out.factoryScope;
      if (m === 'type_as' && !dt) {
        // `.type_as(x)` of a tensor whose dtype nothing shows: unknown.
      } else if (dt) {
        out.dtype = dt;
        if (out.mask) out.mask = withMaskDtype(out.mask, dt === 'bool' || dt === 'int' ? dt : 'float');
      } else if (convertsToUnknownDtype(ev, c)) {
        // `.to(scores.dtype)`, `.to(dtype=self.dtype)`: some floating dtype the code does not show.
        delete out.dtype;
        if (out.mask) out.mask = withMaskDtype(out.mask, 'float');
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
    case 'expand_as':
      return expandAsValue(t, tensorish(val(ev, c, a0 ?? arg(c, 'other'))));
    case 'view_as':
    case 'reshape_as': {
      const other = tensorish(val(ev, c, a0));
      return other.ndim !== undefined ? { ...t, ndim: other.ndim, axes: axesOf(other) ?? Array.from({ length: other.ndim }, () => ({})) } : stripRank(t);
    }
    case 'transpose':
    case 'swapaxes':
    case 'swapdims': {
      // torch's `k.transpose(dim0=-1, dim1=-2)` names the two axes it swaps: not NumPy's reversal of every axis.
      const named = !ev.numpyStyleTranspose && c.args.positional.length < 2 && (a0 ?? arg(c, 'dim0')) && (a1 ?? arg(c, 'dim1'));
      if (m === 'transpose' && !named && (c.args.positional.length !== 2 || ev.numpyStyleTranspose)) {
        if (c.args.positional.length === 0) return reverseAxes(t);
        const perm = permFromArgs(ev, c, c.args.positional);
        return perm ? permuteValue(t, perm) : stripRank(t);
      }
      return transposeValue(t, intOf(ev, c, a0 ?? arg(c, 'dim0')), intOf(ev, c, a1 ?? arg(c, 'dim1')));
    }
    case 't':
      return t.ndim === undefined || t.ndim <= 2 ? transposeLastTwo(t) : tensor();
    case 'permute': {
      const perm = permFromArgs(ev, c, c.args.positional);
      return perm ? permuteValue(t, perm) : stripRank(t);
    }
    case 'movedim':
    case 'moveaxis':
      return movedimValue(t, intOf(ev, c, a0 ?? arg(c, 'source')), intOf(ev, c, a1 ?? arg(c, 'destination')));
    case 'unsqueeze': {
      const d = intOf(ev, c, a0 ?? arg(c, 'dim'));
      // A (B, S) mask already spread once to three axes (`(ids != pad).unsqueeze(1)`, `m[:, None, :]`): a second
      // unsqueeze counts from that layout, so `.unsqueeze(3)` appends a last axis ((B, 1, S, 1): the padding moves to
      // the query axis), as `.unsqueeze(-1)` would.
      const spread = t.mask?.spread;
      if (spread && t.ndim === undefined && d !== undefined && d >= 0 && d <= 3) {
        const out = unsqueezeValue(t, d - 4);
        if (!out.mask) return out;
        const axis = d === 3 ? spread.axis - 1 : spread.axis;
        const { spread: _old, ...m } = out.mask;
        return { ...out, mask: axis === -1 || axis === -2 ? { ...m, spread: { ...spread, axis } } : m };
      }
      const out = unsqueezeValue(t, d);
      // A (B, S) mask made (B, S, 1) or (B, 1, S): where its S axis went (for pairProduct).
      if (!t.mask || (t.ndim !== undefined && t.ndim !== 2) || d === undefined) return out;
      const axis = d === -1 || d === 2 ? -2 : d === -2 || d === 1 ? -1 : undefined;
      return spreadMask(ev, out, c.recvNode, 2, axis);
    }
    case 'squeeze':
      return squeezeValue(t, (a0 ?? arg(c, 'dim')) ? intOf(ev, c, a0 ?? arg(c, 'dim')) : undefined);
    case 'flip':
    case 'roll': {
      // Positions reordered along some axes: a padding mask keeps what its entries mean; a triangle does not stay one.
      if (!t.mask) return t.role || t.attn ? addOp(tensor(), { kind: 'opaque', node: c.node }) : tensor();
      const { spread: _spread, ...m } = t.mask;
      if (m.tri || m.causal) return stripFacts(t);
      return { ...t, mask: c.name === 'flip' ? reverseMask(m) : m };
    }
    case 'flatten': {
      // torch: flatten(start_dim=0, end_dim=-1); NumPy's a.flatten() is 1-D (its argument is the order).
      const startNode = arg(c, 'start_dim', 0);
      const start = startNode && stringLiteral(ev.tree, startNode) === undefined ? intOf(ev, c, startNode) : 0;
      const end = arg(c, 'end_dim', 1) ? intOf(ev, c, arg(c, 'end_dim', 1)) : -1;
      return start === undefined || end === undefined ? stripRank(t) : flattenValue(t, start, end);
    }
    case 'unflatten': {
      const sizes = a1 ?? arg(c, 'sizes');
      const u = sizes ? unparen(sizes) : undefined;
      const sizeNodes = u && (u.type === 'tuple' || u.type === 'list') ? namedChildren(u) : [];
      return unflattenValue(ev, c, t, intOf(ev, c, a0 ?? arg(c, 'dim')), sizeNodes);
    }
    case 'expand':
    case 'repeat':
    case 'broadcast_to':
    case 'tile': {
      const first = a0 ? unparen(a0) : undefined;
      // `m.expand(scores.shape)`, `jnp.broadcast_to(m, scores.shape)`: another tensor's shape, the layout of `expand_as`.
      if ((m === 'expand' || m === 'broadcast_to') && c.args.positional.length === 1 && first && first.type !== 'tuple' && first.type !== 'list') {
        const shape = ev.eval(first, c.ctx);
        if (shape.kind === 'tuple' && shape.shapeOf) return expandAsValue(t, shape.shapeOf);
      }
      const sizeNodes = c.args.positional.length === 1 && first && (first.type === 'tuple' || first.type === 'list') ? namedChildren(first) : c.args.positional;
      return expandValue(ev, c, t, sizeNodes, m === 'expand' || m === 'broadcast_to' ? -1 : 1);
    }
    case 'split':
      return splitValue(ev, c, t, a0, a1 ?? arg(c, 'dim') ?? arg(c, 'axis'), 'split');
    case 'chunk':
      return splitValue(ev, c, t, a0 ?? arg(c, 'chunks'), a1 ?? arg(c, 'dim'), 'chunk');
    case 'unbind':
      return splitValue(ev, c, t, undefined, a0 ?? arg(c, 'dim'), 'unbind');
    case 'softmax': {
      // PyTorch's argument parser takes NumPy's `axis=` for `dim=` (`scores.softmax(axis=-1)`), as do home-made
      // NumPy-backed Tensor classes: the axis is given.
      const [dimName, dimPos] = !arg(c, 'dim', 0) && c.args.keywords.has('axis') ? ['axis', undefined] : ['dim', 0];
      const dimValue = arg(c, dimName, dimPos);
      return softmax(ev, c, SOFTMAX_METHOD, t, c.recvNode, {
        dimNode: argumentNode(c.args, dimName, dimPos),
        dimValueNode: dimValue,
        ownerNode: c.node,
        argListNode: c.args.list,
      });
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
      const kind = m === 'sum' ? 'sum' : m === 'norm' ? 'norm' : m === 'max' || m === 'amax' ? 'max' : 'other';
      // torch's x.max(dim) returns (values, indices); NumPy's x.max(axis=...) an array.
      return reduction(ev, c, t, kind, axisNode, axisValue, {
        keepdimPos: m === 'norm' ? 2 : 1,
        tupleResult: m === 'max' && axisName === 'dim' && axisValue !== undefined,
        mean: m === 'mean',
      });
    }
    case 'any':
    case 'all':
      return coarsenedMask(ev, c, t, m);
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
      if (m.startsWith('nan_to_num')) {
        noteNanGuard(ev.facts, c.ctx.scope.id, t);
        const recv = childByField(childByField(c.node, 'function') ?? c.node, 'object');
        noteNanReplaced(ev, c, recv, a0, m === 'nan_to_num_');
      }
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
    case 'sigmoid':
      // Sigmoid attention: the scores are gated one by one instead of normalised over the keys.
      if (t.attn?.stage === 'scores') ev.facts.sigmoidScores.add(t.attn.formedAt.id);
      return keepShape(t);
    case 'tanh':
    case 'relu':
    case 'relu6':
    case 'leaky_relu':
    case 'gelu':
    case 'elu':
    case 'selu':
    case 'silu':
    case 'softplus':
    case 'abs':
      return keepShape(t);
    case 'update':
      // `k, v = self.kv_cache.update(k, v)` (Hugging Face's Cache.update and its copies): the keys and values, both
      // including the cache, where the receiver is named as a cache. Any other object's `update` (a running
      // statistic, a normaliser, an EMA: `k, v = self.stats.update(k, v)`) is a method name, not evidence of a cache.
      if (c.recvNode && isCacheName(rootName(ev, c.recvNode) ?? ''))
        return { kind: 'tuple', elements: [tensor({ fromCache: true, role: 'key' }), tensor({ fromCache: true, role: 'value' })] };
      return t.role || t.attn ? addOp(tensor(), { kind: 'opaque', node: c.node }) : tensor();
    case 'repeat_interleave':
      return repeatInterleaved(ev, c, t);
    default:
      // Methods of a KV cache object we cannot see into return cached keys/values.
      if (c.recvNode && isCacheName(rootName(ev, c.recvNode) ?? '')) return tensor({ fromCache: true });
      return t.role || t.attn ? addOp(tensor(), { kind: 'opaque', node: c.node }) : tensor();
  }
}

/**
 * `x.repeat_interleave(n, dim=d)` (grouped-query attention's key and value heads, one copy per query head): each
 * slice along d repeated, the rank, the other axes, the role and a cache the value includes kept (the key axis and
 * its length too, unless d is that axis); the length of axis d is no longer known. Without `dim` the result is
 * flattened: nothing is kept.
 */
function repeatInterleaved(ev: Evaluator, c: Call, t: AValue): AValue {
  const dimNode = c.args.positional[1] ?? arg(c, 'dim');
  if (!dimNode) return t.role || t.attn ? addOp(tensor(), { kind: 'opaque', node: c.node }) : tensor();
  const d = intOf(ev, c, dimNode);
  const at = d === undefined || (d < 0 && t.ndim === undefined) ? undefined : d < 0 ? t.ndim! + d : d;
  const axes = axesOf(t)?.map((ax, i) => {
    if (at !== undefined && i !== at) return ax;
    const { size1: _size1, sizeText: _sizeText, ...rest } = ax;
    return rest;
  });
  const last = d === -1 || (t.ndim !== undefined && at === t.ndim - 1) || at === undefined;
  const { lastSize1: _lastSize1, ...rest } = t;
  return { ...(last ? rest : t), ...(axes ? { axes } : {}) };
}

/**
 * JAX's functional index update `x.at[idx].set(v)`: a copy of x with v written where idx selects, what `x[idx] = v`
 * writes in place (a mask filled so, `scores.at[~keep].set(-jnp.inf)`; other updates, a cache's `.at[:, pos].set(k)`,
 * are no fill and keep x's value).
 */
function functionalIndexUpdate(ev: Evaluator, c: Call): AValue | undefined {
  const sub = c.recvNode ? unparen(c.recvNode) : undefined;
  const at = sub?.type === 'subscript' ? childByField(sub, 'value') : undefined;
  const attr = at?.type === 'attribute' ? childByField(at, 'attribute') : undefined;
  const base = attr && ev.text(attr) === 'at' ? childByField(at!, 'object') : undefined;
  const fillNode = arg(c, 'values', 0);
  if (!sub || !base || !fillNode) return undefined;
  const prev = ev.eval(base, c.ctx);
  if (prev.kind !== 'tensor' && prev.kind !== 'unknown') return undefined;
  return setItemFill(ev, tensorish(prev), sub, fillNode, ev.eval(fillNode, c.ctx), c.ctx, base);
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

function expOf(t: AValue): AValue {
  const out = tensor({ ndim: t.ndim, axes: t.axes });
  return t.attn?.stage === 'scores' ? { ...out, expOfScores: t } : out;
}

/** Initialisers that take the shape as one argument: its parameter name and position. */
const SHAPE_ARGUMENT: Readonly<Record<string, { param: string; pos: number }>> = {
  'tensorflow.random.normal': { param: 'shape', pos: 0 },
  'tensorflow.random.uniform': { param: 'shape', pos: 0 },
  'tensorflow.random.truncated_normal': { param: 'shape', pos: 0 },
  'tensorflow.compat.v1.random_normal': { param: 'shape', pos: 0 },
  'tensorflow.compat.v1.truncated_normal': { param: 'shape', pos: 0 },
  'tensorflow.get_variable': { param: 'shape', pos: 1 },
  'tensorflow.compat.v1.get_variable': { param: 'shape', pos: 1 },
  'numpy.random.normal': { param: 'size', pos: 2 },
  'numpy.random.uniform': { param: 'size', pos: 2 },
  'numpy.random.standard_normal': { param: 'size', pos: 0 },
  'jax.random.normal': { param: 'shape', pos: 1 },
  'jax.random.uniform': { param: 'shape', pos: 1 },
  'jax.random.truncated_normal': { param: 'shape', pos: 3 },
};

/** torch.ones/zeros/full/empty/randn(sizes...): rank from the sizes. */
function creation(ev: Evaluator, c: Call, kind: string, sizeArgs: PyNode[]): AValue {
  let nodes = sizeArgs;
  if (kind === 'full' || kind === 'full_like' || kind === 'fill') nodes = sizeArgs.slice(0, 1);
  let ndim: number | undefined;
  let sizeNodes: readonly PyNode[] | undefined = nodes.length > 1 ? nodes : undefined;
  let valueAxes: AxisInfo[] | undefined;
  if (nodes.length === 1 && nodes[0]) {
    const u = unparen(nodes[0]);
    if (u.type === 'tuple' || u.type === 'list') {
      sizeNodes = namedChildren(u);
      ndim = sizeNodes.length;
    } else {
      const v = ev.eval(u, c.ctx);
      if (v.kind === 'number') ndim = 1;
      else if (v.kind === 'tuple' && v.shapeOf) ndim = v.shapeOf.ndim;
      else if (v.kind === 'tuple' && v.elements) {
        ndim = v.elements.length;
        // A shape passed as a value (a helper's `shape` parameter): its literal 1s are axes of length 1.
        valueAxes = v.elements.map((e): AxisInfo => (e.kind === 'number' && e.num === 1 ? { size1: true } : {}));
      }
    }
  } else if (nodes.length > 1) ndim = nodes.length;
  const dt = dtypeKwarg(ev, c);
  const axes = sizeNodes && sizeNodes.length === ndim ? sizeAxes(ev, sizeNodes) : (valueAxes ?? Array.from({ length: ndim ?? 0 }, () => ({})));
  const out: Mutable<AValue> = tensor({ ...(ndim !== undefined ? { ndim, axes } : {}), ...(dt ? { dtype: dt } : {}) });
  if (kind === 'ones' || kind === 'ones_like') out.ones = true;
  if (kind === 'zeros' || kind === 'zeros_like') out.zeros = true;
  if (!kind.endsWith('_like') && !arg(c, 'dtype')) out.factoryScope = c.ctx.scope.id;
  if (kind === 'random' || kind === 'randn' || kind === 'rand') out.randomDraw = true;
  if (kind === 'full' || kind === 'fill') {
    // torch/np/jnp.full(shape, fill_value); tf.fill(dims, value).
    const fillNode = arg(c, kind === 'fill' ? 'value' : 'fill_value', 1);
    const fill = fillNode ? ev.eval(fillNode, c.ctx) : undefined;
    if (fill && fill.kind === 'number') {
      Object.assign(out, filledWith(fill));
      if (fill.num === 1) out.ones = true;
    }
    // `torch.full((L, L), True)` is all True (a boolean tensor, as torch infers from the fill): the ones tril/triu cut a
    // causal mask from; `torch.full((B, 1), False)` all False.
    if (fill?.kind === 'bool' && fill.truth !== undefined) {
      if (fill.truth) out.ones = true;
      else out.zeros = true;
      out.dtype ??= 'bool';
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

/**
 * `m.any(dim)` / `m.all(dim)` of a mask over blocks of positions (`keep.view(b, m, block).any(-1)`): a coarser mask
 * with the same meaning (a block kept where any, or all, of its positions are; ignored likewise).
 */
function coarsenedMask(ev: Evaluator, c: Call, t: AValue, how: string): AValue {
  const axisName = arg(c, 'axis') ? 'axis' : 'dim';
  const out = reduction(ev, c, t, 'other', argumentNode(c.args, axisName, 0), argument(c.args, axisName, 0), { keepdimPos: 1 });
  const m = t.mask;
  const reduced: AValue = out.kind === 'tensor' ? { ...out, dtype: 'bool' } : tensor({ dtype: 'bool' });
  if (!m || m.additive || argument(c.args, axisName, 0) === undefined) return reduced;
  const why = msg(PHRASES.coarsenedBy, `\`${how}\``, m.why);
  // A mask known only by its name stays one (of the same weak meaning), so that a product of its blocks over the
  // query and key axes is still recognised (pairProduct).
  if (!m.polarity || m.byName)
    return {
      ...reduced,
      mask: { ...(m.polarity ? { polarity: m.polarity } : {}), dtype: 'bool', why, byName: true, ...(m.nameSource ? { nameSource: m.nameSource } : {}) },
    };
  return { ...reduced, mask: { polarity: m.polarity, dtype: 'bool', why, ...(m.padding ? { padding: true } : {}), ...(m.origin ? { origin: m.origin } : {}) } };
}

/** Library functions that are a binary operator (`torch.mul(a, b)` is `a * b`). */
const BINARY_FUNCTION_OPERATORS: ReadonlyMap<string, string> = new Map([
  ['mul', '*'],
  ['multiply', '*'],
  ['div', '/'],
  ['divide', '/'],
  ['true_divide', '/'],
  ['add', '+'],
  ['sub', '-'],
  ['subtract', '-'],
]);

const METHOD_LIKE_FUNCTIONS = new Set([
  // `tf.tile(m, [heads, 1])`, `np.tile`, `torch.tile`: copies of the value, whose mask meaning they keep.
  'tile',
  // `torch.repeat_interleave(k, n, dim=1)`: the method's copies along one axis.
  'repeat_interleave',
  // `jnp.broadcast_to(m, shape)`, `torch.broadcast_to(m, size)`: the method's layout, and the mask meaning it keeps.
  'broadcast_to',
  'flip',
  'roll',
  'any',
  'all',
  'transpose',
  'permute',
  'reshape',
  'unsqueeze',
  'squeeze',
  'flatten',
  'unflatten',
  'movedim',
  'moveaxis',
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
  'maximum',
  'minimum',
  'fmax',
  'fmin',
  'norm',
  'expand_dims',
  'tanh',
  'sigmoid',
  // Elementwise activations as functions (`tf.nn.relu(x)`, `F.gelu(x)`): the layout of their input.
  'relu',
  'relu6',
  'leaky_relu',
  'gelu',
  'elu',
  'selu',
  'silu',
  'softplus',
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

/** Products that multiply their first argument by their second, as a Linear layer multiplies its input by its weight. */
const WEIGHT_PRODUCTS: ReadonlySet<string> = new Set([
  'numpy.dot',
  'numpy.matmul',
  'jax.numpy.dot',
  'jax.numpy.matmul',
  'torch.matmul',
  'torch.mm',
  'tensorflow.matmul',
]);

/**
 * An instance of a workspace class whose `__call__`/`forward` is its input times a weight shaped by two of its
 * constructor's parameters (`self.weights = init(key, (n_in, n_out))`, `torch.randn(n_in, n_out)`; then `return
 * jnp.dot(x, self.weights)` or `x @ self.weights`), called on `input`: a projection from the width the constructor
 * call passes as `n_in` to the one it passes as `n_out` (`Linear(cfg.hidden, 3 * cfg.hidden, key)`), read as
 * `nn.Linear(n_in, n_out)` is. Undefined for anything else (a bias, an activation, a transposed weight, a constructor
 * call not in view).
 */
export function userProjection(ev: Evaluator, obj: ObjectInfo, fwd: Scope, input: AValue, calleeNode: PyNode): AValue | undefined {
  const init = obj.init;
  const ctor = obj.cls.methods.get('__init__');
  // Read as text of this file: the class, its methods and the constructor call all written here.
  if (!init || !ctor || fwd.returns.length !== 1 || !fwd.selfName || !ev.owns(fwd) || !ev.owns(ctor) || !ev.owns(init.ctx.scope)) return undefined;
  const inputParam = fwd.params.find((p) => p.index === 1 && p.kind === 'positional')?.name;
  const ret = fwd.returns[0] ? unparen(fwd.returns[0]) : undefined;
  if (!inputParam || !ret) return undefined;
  // The two factors: `x @ self.w`, or `jnp.dot(x, self.w)` with a product the API names.
  let factors: PyNode[] | undefined;
  if (ret.type === 'binary_operator' && ret.children.some((c) => !c.named && c.type === '@'))
    factors = [childByField(ret, 'left'), childByField(ret, 'right')].filter((n): n is PyNode => !!n);
  else if (ret.type === 'call') {
    const callee = childByField(ret, 'function');
    const f = callee ? ev.eval(callee, ev.defaultCtx(fwd)) : UNKNOWN;
    const args = ev.argsOf(ret);
    if (f.kind === 'module' && f.qname && WEIGHT_PRODUCTS.has(canonicalQualifiedName(f.qname)) && !args.hasSplat && args.keywords.size === 0)
      factors = [...args.positional];
  }
  if (factors?.length !== 2) return undefined;
  const [x, w] = factors.map((n) => unparen(n));
  if (x?.type !== 'identifier' || ev.text(x) !== inputParam || w?.type !== 'attribute') return undefined;
  const wText = ev.text(w).replace(/\s+/g, '');
  if (!wText.startsWith(`${fwd.selfName}.`)) return undefined;
  // The weight, assigned once, in __init__, from a draw shaped (n_in, n_out) by two of its parameters.
  const defs = ev.classAttrDefs(obj.cls, `self.${wText.slice(fwd.selfName.length + 1)}`);
  const def = defs.length === 1 ? defs[0] : undefined;
  if (!def || def.scope !== ctor || !def.value || def.kind !== 'assign') return undefined;
  const rhs = def.value.type === 'assignment' ? childByField(def.value, 'right') : def.value;
  const params = new Map(ctor.params.filter((p) => p.kind === 'positional' && p.index !== undefined && p.index > 0).map((p) => [p.name, p] as const));
  let shape: [string, string] | undefined;
  let ambiguous = false;
  if (rhs)
    walk(rhs, (n) => {
      const items = n.type === 'tuple' || n.type === 'list' ? namedChildren(n) : n.type === 'argument_list' ? namedChildren(n) : undefined;
      const [a, b] = items ?? [];
      if (items?.length !== 2 || !a || !b || !items.every((i) => i.type === 'identifier' && params.has(ev.text(i)))) return;
      const pair: [string, string] = [ev.text(a), ev.text(b)];
      if (shape && (shape[0] !== pair[0] || shape[1] !== pair[1])) ambiguous = true;
      shape = pair;
    });
  if (!shape || ambiguous || shape[0] === shape[1]) return undefined;
  // The widths as the constructor call writes them.
  const callArgs = ev.argsOf(init.call);
  if (callArgs.hasSplat) return undefined;
  const passed = (name: string): PyNode | undefined => {
    const p = params.get(name);
    return callArgs.keywords.get(name)?.value ?? (p?.index !== undefined ? callArgs.positional[p.index - 1] : undefined);
  };
  const inNode = passed(shape[0]);
  const outNode = passed(shape[1]);
  if (!inNode || !outNode) return undefined;
  const name = calleeNode.type === 'attribute' ? ev.text(childByField(calleeNode, 'attribute') ?? calleeNode) : ev.text(calleeNode);
  const t = tensorish(input);
  return projectionOf(t, projectionRole(name), undefined, isPackedProjection(name), { input, inText: ev.text(inNode), outText: ev.text(outNode) });
}

/**
 * The axes of a learned weight with the sizes its creation writes (`torch.randn(d_in, d_out)`,
 * `tf.random.truncated_normal([d_in, d_out], stddev=s)`, `shape=(d_in, d_out)`, also under a factor, `torch.randn(d_in,
 * d_out) / math.sqrt(d_in)`) as each axis's size text, so that a product with the weight reads them where the axes
 * then are (shape-ops.ts: weightProjection). Only names, one per axis; undefined otherwise.
 */
function withWrittenSizes(ev: Evaluator, init: AValue, node: PyNode): AxisInfo[] | undefined {
  const axes = axesOf(init);
  if (init.ndim === undefined || !axes) return undefined;
  let u = unparen(node);
  while (u.type === 'binary_operator') u = unparen(childByField(u, 'left') ?? u);
  if (u.type !== 'call') return undefined;
  const args = ev.argsOf(u);
  const shape = args.keywords.get('shape')?.value ?? args.keywords.get('size')?.value;
  const listed = args.positional.filter((p) => p.type === 'tuple' || p.type === 'list');
  // The sizes as one tuple bound once to a name in the function (`shape = (d_in, head_size)` then `torch.randn(shape)`):
  // read as written there.
  const onlyName = !shape && listed.length === 0 && args.positional.length === 1 && args.positional[0]?.type === 'identifier' ? args.positional[0] : undefined;
  const sizeList = shape ?? (listed.length === 1 ? listed[0] : onlyName ? tupleBoundOnce(ev, onlyName) : undefined);
  const sizes = sizeList ? namedChildren(unparen(sizeList)) : args.positional;
  const named = /^[A-Za-z_][\w.]*$/;
  if (sizes.length !== init.ndim || !sizes.every((n) => (n.type === 'identifier' || n.type === 'attribute') && named.test(ev.text(n)))) return undefined;
  return axes.map((ax, i) => ({ ...ax, sizeText: ev.text(sizes[i] ?? node) }));
}

/** The tuple or list literal a name is bound to by its one plain assignment (`shape = (d_in, d_out)`), if so. */
function tupleBoundOnce(ev: Evaluator, name: PyNode): PyNode | undefined {
  const defs = ev.resolve(name, ev.text(name));
  const def = defs && defs.length === 1 ? defs[0] : undefined;
  const value = def?.kind === 'assign' && def.path.length === 0 && def.value ? unparen(def.value) : undefined;
  return value && (value.type === 'tuple' || value.type === 'list') && !namedChildren(value).some((e) => e.type === 'list_splat') ? value : undefined;
}

/** Compilers and tracers that return a function computing what the function they are given computes. */
const FUNCTION_WRAPPERS: ReadonlySet<string> = new Set(['jax.jit', 'torch.compile', 'tensorflow.function']);

/**
 * `functools.partial(f, *args, **keywords)` of a function of the workspace (or of another partial): that function,
 * with those arguments bound, as they are where the partial is made (calling it binds them first, evaluator.ts:
 * callBound). A `*`/`**` spread, a class or anything else is not known.
 */
function partialFunction(ev: Evaluator, c: Call): AValue {
  const [target, ...rest] = c.args.positional;
  if (!target || c.args.hasSplat) return UNKNOWN;
  const fn = ev.eval(target, c.ctx);
  if (fn.kind !== 'function' || !fn.fn) return UNKNOWN;
  const keywords = new Map(fn.fn.bound?.keywords ?? []);
  for (const [name, kw] of c.args.keywords) keywords.set(name, ev.eval(kw.value, c.ctx));
  const positional = [...(fn.fn.bound?.positional ?? []), ...rest.map((a) => ev.eval(a, c.ctx))];
  return { kind: 'function', fn: { ...fn.fn, bound: { positional, keywords } } };
}

/**
 * `jax.vmap(f, in_axes=...)` of a function of the workspace: f, called with a slice of each mapped argument. `in_axes`
 * an integer (0 by default) maps every positional argument; None maps none; a tuple or list maps those not None.
 * Anything else (a pytree of axes, a name) maps every one: a slice keeps less of a value than the whole.
 */
function vmappedFunction(ev: Evaluator, c: Call): AValue {
  const target = c.args.positional[0] ?? arg(c, 'fun');
  if (!target || c.args.hasSplat) return UNKNOWN;
  const fn = ev.eval(target, c.ctx);
  if (fn.kind !== 'function' || !fn.fn) return UNKNOWN;
  const axesNode = arg(c, 'in_axes', 1);
  const axes = axesNode ? unparen(axesNode) : undefined;
  let mapped: readonly boolean[] | true = true;
  if (axes?.type === 'none') mapped = [];
  else if (axes && (axes.type === 'tuple' || axes.type === 'list')) {
    const items = namedChildren(axes);
    // Entries past the function's bound positionals: the partial's own come first, mapped as the call's are not.
    const before = fn.fn.bound?.positional.length ?? 0;
    if (items.every((n) => n.type === 'none' || n.type === 'integer' || n.type === 'unary_operator'))
      mapped = [...Array.from({ length: before }, () => false), ...items.map((n) => n.type !== 'none')];
  }
  // A vmap of a vmap (`jax.vmap(jax.vmap(head, in_axes), in_axes)`, over the heads then the batch): an argument is
  // sliced if either maps it.
  const inner = fn.fn.mapped;
  if (inner === true || (inner && mapped === true)) mapped = true;
  else if (inner && mapped !== true) {
    const outer = mapped;
    mapped = Array.from({ length: Math.max(inner.length, outer.length) }, (_, i) => inner[i] !== false || outer[i] !== false);
  }
  return { kind: 'function', fn: { ...fn.fn, mapped } };
}

export function callQualified(ev: Evaluator, qname: string, c0: Call): AValue {
  const c: Call = { ...c0, name: qname };
  const fw = frameworkOf(qname);
  const last = qname.slice(qname.lastIndexOf('.') + 1); // the last dotted part (no array per call)
  const sm = SOFTMAX_FUNCTIONS[qname];
  if (sm) {
    const inputNode = arg(c, sm.framework === 'torch' ? 'input' : sm.framework === 'tf' ? 'logits' : 'x', 0);
    const aliased = sm.dimAlias !== undefined && !argument(c.args, sm.dimParam, sm.dimPos) && argument(c.args, sm.dimAlias, undefined) !== undefined;
    const [dimParam, dimPos] = aliased && sm.dimAlias !== undefined ? [sm.dimAlias, undefined] : [sm.dimParam, sm.dimPos];
    const dimValue = argument(c.args, dimParam, dimPos);
    return softmax(ev, c, sm, val(ev, c, inputNode), inputNode, {
      dimNode: argumentNode(c.args, dimParam, dimPos),
      dimValueNode: dimValue,
      ownerNode: c.node,
      argListNode: c.args.list,
    });
  }
  if (SDPA_FUNCTIONS[qname]) return sdpa(ev, c, qname);
  if (qname === 'functools.partial') return partialFunction(ev, c);
  if (qname === 'jax.vmap') return vmappedFunction(ev, c);
  if (FUNCTION_WRAPPERS.has(qname)) {
    // `jax.jit(f)`, `torch.compile(f)`, `tf.function(f)`: the function compiled, computing what it computes.
    const wrapped = c.args.positional[0];
    const fn = wrapped && !c.args.hasSplat ? ev.eval(wrapped, c.ctx) : UNKNOWN;
    if (fn.kind === 'function') return fn;
  }
  const batches = last === 'DataLoader' ? dataLoaderBatches(ev, qname, c) : undefined;
  if (batches) return batches;
  // A learned parameter is the tensor it wraps (`nn.Parameter(torch.randn(d, 1))` keeps its length-1 axis).
  if (qname === 'torch.nn.Parameter' || qname === 'torch.nn.parameter.Parameter' || qname === 'tensorflow.Variable') {
    // Once wrapped it is no fresh draw: a factor applied where it is used (`x @ (self.wq / sqrt(d))`) scales q.
    const initNode = c.args.positional[0] ?? arg(c, 'data') ?? arg(c, 'initial_value');
    const { randomDraw: _fresh, ...init } = tensorish(val(ev, c, initNode));
    const sized = initNode ? withWrittenSizes(ev, init, initNode) : undefined;
    return { ...init, ...(sized ? { axes: sized } : {}), learned: true, ...(init.ops ? { initOps: init.ops } : {}) };
  }
  // A PackedSequence is not a tensor: a recurrent layer run on one returns one (no layout); pad_packed_sequence
  // unpacks it as its `batch_first` says (default False: sequence first).
  if (qname === 'torch.nn.utils.rnn.pack_padded_sequence' || qname === 'torch.nn.utils.rnn.pack_sequence') return { kind: 'object' };
  if (qname === 'torch.nn.utils.rnn.pad_packed_sequence') {
    const bf = arg(c, 'batch_first', 1);
    return padPackedOutputs(bf ? truthOf(val(ev, c, bf)) : c.args.hasSplat ? undefined : false);
  }
  const masked = maskFunction(ev, c, qname);
  if (masked) return masked;
  const consumer = MASK_FUNCTIONS[qname];
  if (consumer) {
    maskConsumerArgs(ev, c, consumer);
    return tensor();
  }
  const layer = layerFromCtor(ev, c, qname);
  if (layer) return layer;
  // TF1's functional `tf.layers.dense(inputs, units, ...)`: the Keras layer `Dense(units, ...)` built and applied at once.
  if (qname === 'tensorflow.layers.dense' && c.args.positional[0]) {
    const built = layerFromCtor(ev, { ...c, args: { ...c.args, positional: c.args.positional.slice(1) } }, 'keras.layers.Dense');
    if (built) return applyLayer(ev, built, { ...c, args: { ...c.args, positional: c.args.positional.slice(0, 1) } });
  }
  // `copy.deepcopy(layer)`: a copy of a module is built like it (the annotated transformer's `clones(layer, N)`).
  if (qname === 'copy.deepcopy' || qname === 'copy.copy') {
    const v = val(ev, c, arg(c, 'x', 0));
    return v.kind === 'layer' || v.kind === 'object' || v.passedArg !== undefined ? v : UNKNOWN;
  }
  if (qname.startsWith('builtins.')) return builtin(ev, c, last);
  if (qname === 'torch.finfo' || qname === 'numpy.finfo' || qname === 'jax.numpy.finfo') {
    // `torch.finfo()`: the default dtype's, float32.
    if (qname === 'torch.finfo' && c.args.positional.length === 0 && c.args.keywords.size === 0 && !c.args.hasSplat)
      return { kind: 'finfo', finfoOf: 'float32' };
    const a = val(ev, c, c.args.positional[0]);
    const dt = a.kind === 'dtype' ? a.dtypeName : dtypeOfValue(a);
    return { kind: 'finfo', finfoOf: a.kind === 'dtype' && !a.dtypeName ? 'of-tensor' : finfoOfDtype(dt) };
  }
  // Math on sizes: sqrt, pow, rsqrt (any array library: keras.ops, mlx.core, paddle, ... name them alike).
  if (last === 'sqrt' || last === 'rsqrt' || qname === 'math.isqrt') {
    const a = val(ev, c, c.args.positional[0] ?? arg(c, 'x'));
    const p = last === 'rsqrt' ? -0.5 : 0.5;
    if (a.kind === 'tensor' && !a.dimPow) return tensor({ ndim: a.ndim, axes: a.axes });
    if (a.headCount && !a.dimPow)
      return number({ dimPow: { dim: { which: 'heads', text: ev.text(c.args.positional[0] ?? c.node), ...headCountAxis(a) }, power: p } });
    if (!a.dimPow && !a.scaleName && a.kind === 'number' && a.num !== undefined && Number.isInteger(a.num) && a.num > 1)
      return number({ dimPow: literalWidthRoot(a.num, p) });
    return a.dimPow ? number({ dimPow: { dim: a.dimPow.dim, power: a.dimPow.power * p } }) : number();
  }
  if (last === 'pow' || last === 'power' || last === 'float_power') {
    const a = val(ev, c, c.args.positional[0]);
    const e = val(ev, c, c.args.positional[1]);
    return power(ev, a, e);
  }
  if (
    matches(/^(torch|numpy|jax\.numpy|tensorflow)\.(tensor|as_tensor|array|asarray|constant|float32|float64|int64|Tensor)$/, qname) ||
    CONVERSIONS.has(last)
  ) {
    // Conversions keep what the value is (a scale stays a scale through keras.ops.cast / tf.cast / mx.array).
    const a0 = c.args.positional[0] ?? arg(c, 'x');
    const a = val(ev, c, a0);
    if (CONVERSIONS.has(last) && a.kind === 'tensor') {
      // `tf.cast(mask, dtype=one.dtype)`: the cast's dtype, known or not, is the value's now.
      const dtNode = c.args.positional[1] ?? arg(c, 'dtype');
      const dt = dtypeOfValue(val(ev, c, dtNode));
      // `tf.cast(mask, scores.dtype)`: the dtype of another tensor, some floating dtype the code does not show (as
      // `.to(scores.dtype)` is read): no longer a boolean or integer mask, and judged in that tensor's precision.
      if (!dt && dtNode && /\bdtype$/.test(ev.text(dtNode))) {
        const { dtype: _dtype, ...rest } = a;
        return { ...rest, ...(a.mask ? { mask: withMaskDtype(a.mask, 'float') } : {}) };
      }
      if (!dt) return a;
      return { ...a, dtype: dt, ...(a.mask ? { mask: withMaskDtype(a.mask, dt === 'bool' || dt === 'int' ? dt : 'float') } : {}) };
    }
    if (a.kind === 'number' && a0 && !CONVERSIONS.has(last)) return { ...a, ...constantDtype(ev, c, a0) };
    return a.kind === 'number' ? a : a.kind === 'tensor' ? a : tensor();
  }
  // torch.eye(n[, m]): an (n, m) identity, True/1 on the diagonal only.
  if (qname === 'torch.eye' || qname === 'numpy.eye' || qname === 'jax.numpy.eye') {
    const dt = dtypeKwarg(ev, c);
    return tensor({ ndim: 2, axes: [{}, {}], identity: true, ...(dt ? { dtype: dt } : {}) });
  }
  if (matches(/^(torch|numpy|jax\.numpy|tensorflow)\.(ones|zeros|full|empty|randn|rand|ones_like|zeros_like|full_like|empty_like|randn_like)$/, qname)) {
    if (last.endsWith('_like')) {
      const like = tensorish(val(ev, c, c.args.positional[0]));
      const out: Mutable<AValue> = tensor({ ndim: like.ndim, axes: like.axes });
      if (last === 'ones_like') out.ones = true;
      if (last === 'zeros_like') out.zeros = true;
      if (last === 'full_like') {
        const fill = val(ev, c, c.args.positional[1] ?? arg(c, 'fill_value'));
        Object.assign(out, filledWith(fill));
      }
      return out;
    }
    return creation(ev, c, last, c.args.positional);
  }
  // tf.fill(dims, value): a tensor of that shape filled with the value, as torch.full is.
  if (qname === 'tensorflow.fill') return creation(ev, c, 'fill', c.args.positional);
  // Random and variable initialisers whose shape is one argument: tf.random.normal(shape), np.random.normal(loc,
  // scale, size), jax.random.normal(key, shape), tf.get_variable(name, shape); np.random.randn(d0, d1, ...).
  // NumPy's random generators (`rng = np.random.default_rng(seed)`, the legacy `np.random.RandomState(seed)`): their
  // methods draw as the module's functions of the same name do (`rng.normal(size=(B, T, d))`, `rng.standard_normal(n)`),
  // so the generator is read as the `numpy.random` module.
  if (qname === 'numpy.random.default_rng' || qname === 'numpy.random.RandomState' || qname === 'numpy.random.Generator')
    return { kind: 'module', qname: 'numpy.random' };
  const shapeArg = SHAPE_ARGUMENT[qname];
  if (shapeArg) {
    const node = arg(c, shapeArg.param, shapeArg.pos);
    return node ? creation(ev, c, 'random', [node]) : tensor();
  }
  if (qname === 'numpy.random.randn' || qname === 'numpy.random.rand') return creation(ev, c, 'random', c.args.positional);
  if (matches(/^(torch|numpy|jax\.numpy|tensorflow)\.(arange|range)$/, qname)) return arangeValue(ev, c);
  if (matches(/^(torch|numpy|jax\.numpy|tensorflow|tensorflow\.linalg)\.(matmul|dot|bmm|mm)$/, qname) || qname === 'tensorflow.linalg.matmul') {
    const a = c.args.positional[0] ?? arg(c, 'a');
    const b = c.args.positional[1] ?? arg(c, 'b');
    // tf.matmul(a, b, transpose_b=True) / adjoint_b=True transposes b's last two axes itself (adjoint: conjugated too).
    const transB = fw === 'tf' ? isTrue(ev, arg(c, 'transpose_b')) || isTrue(ev, arg(c, 'adjoint_b')) : false;
    const transA = fw === 'tf' ? isTrue(ev, arg(c, 'transpose_a')) || isTrue(ev, arg(c, 'adjoint_a')) : false;
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
    if (operands.length === 1 && operands[0]) {
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
    const src = c.args.positional[0];
    const patternNode = c.args.positional[1] ?? arg(c, 'pattern');
    const input = val(ev, c, src);
    const out = einopsRearrange(ev, c, input, patternNode, last === 'reduce');
    const parsed = out.mask ? parseEinopsPattern(stringLiteral(ev.tree, patternNode) ?? '') : undefined;
    if (!parsed) return out;
    // `... n -> ... n ()` (blocks of a padding mask, any leading axes): its last axis placed for a pairwise product,
    // as `b n -> b n ()` does; not for a causal mask, whose last two axes are already a pair.
    if (parsed.lhs.hasEllipsis) {
      if (input.mask?.causal || input.mask?.tri) return out;
      return spreadMask(ev, out, src, 2, einopsAxisMap(parsed.lhs, parsed.rhs)(-1));
    }
    return spreadMask(ev, out, src, parsed.lhs.groups.length, einopsAxisMap(parsed.lhs, parsed.rhs)(-1));
  }
  if (matches(/^(torch|numpy|jax\.numpy|tensorflow)\.(cat|concat|concatenate|stack|hstack)$/, qname)) return concat(ev, c);
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
  if (qname === 'torch.nn.functional.dropout' || qname === 'tensorflow.nn.dropout' || qname === 'torch.dropout')
    return tensorish(val(ev, c, c.args.positional[0] ?? arg(c, 'input')));
  if (qname === 'torch.nn.functional.linear') return projectionOf(tensorish(val(ev, c, c.args.positional[0])), undefined, undefined, false);
  if (qname === 'torch.nn.utils.rnn.pad_sequence') {
    const padded = paddedOnes(ev, c);
    if (padded) return padded;
  }
  if (qname === 'torch.nn.functional.pad' || qname === 'torch.nn.functional.unfold') {
    const x = tensorish(val(ev, c, c.args.positional[0] ?? arg(c, 'input')));
    const fillArg = arg(c, 'value', 3);
    const zeroPad = last === 'unfold' || !fillArg || isZero(val(ev, c, fillArg));
    // Ones padded with zeros: 1 inside the image/sequence, 0 in the padding, i.e. a "keep" mask.
    if (x.ones && zeroPad)
      return tensor({
        dtype: x.dtype ?? 'float',
        mask: {
          polarity: 'keep',
          dtype: x.dtype ?? 'float',
          padding: true,
          why: msg(PHRASES.onesZeroPadded, `\`${ev.text(c.node).slice(0, 50)}\``, displayName(qname)),
        },
      });
    const placed = last === 'pad' ? paddedCacheColumns(ev, c, x, fillArg) : undefined;
    if (placed) return tensor({ ndim: x.ndim, axes: x.axes, dtype: x.dtype, mask: placed });
    return last === 'pad' ? withoutLength1(x) : tensor();
  }
  // `torch.isinf(generate_square_subsequent_mask(T))`: True where an additive mask of -inf masks.
  if (matches(/^(torch|numpy)\.(isinf|isneginf|isfinite)$/, qname)) {
    const x = tensorish(val(ev, c, c.args.positional[0] ?? arg(c, 'input')));
    const m = infOfAdditive(x.mask, last === 'isfinite' ? 'finite' : 'inf', `\`${ev.text(c.node)}\``);
    return tensor({ ndim: x.ndim, axes: x.axes, dtype: 'bool', ...(m ? { mask: m } : {}) });
  }
  // `torch.is_floating_point(mask)`: known where the tensor's dtype is (a boolean mask: False).
  if (qname === 'torch.is_floating_point') {
    const x = val(ev, c, c.args.positional[0] ?? arg(c, 'input'));
    const dt = x.kind === 'tensor' ? dtypeOfTensor(x) : undefined;
    return dt ? { kind: 'bool', truth: dt !== 'bool' && dt !== 'int', setAt: c.node } : { kind: 'bool' };
  }
  if (qname === 'torch.nan_to_num' || qname === 'numpy.nan_to_num' || qname === 'jax.numpy.nan_to_num' || qname === 'torch.isnan' || qname === 'numpy.isnan') {
    noteNanGuard(ev.facts, c.ctx.scope.id, tensorish(val(ev, c, c.args.positional[0])));
    // torch.nan_to_num(input, nan, ...); numpy's second positional is `copy`, its nan only a keyword.
    if (last === 'nan_to_num') noteNanReplaced(ev, c, c.args.positional[0], qname.startsWith('torch.') ? c.args.positional[1] : undefined, false);
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
    return expandDimsValue(ev, c, val(ev, c, c.args.positional[0]), c.args.positional[1] ?? arg(c, 'axis'));
  }
  if (qname === 'tensorflow.shape') return { kind: 'tuple', shapeOf: tensorish(val(ev, c, c.args.positional[0])) };
  if (matches(/^(torch|numpy|jax\.numpy|tensorflow|tensorflow\.math)\.(sum|reduce_sum)$/, qname)) {
    const axisName = fw === 'torch' ? 'dim' : 'axis';
    const axisValue = argument(c.args, axisName, 1);
    return reduction(ev, c, val(ev, c, c.args.positional[0]), 'sum', argumentNode(c.args, axisName, 1), axisValue, {
      keepdimPos: fw === 'torch' ? 2 : undefined,
    });
  }
  if (matches(/^(torch|numpy|jax\.numpy|tensorflow|tensorflow\.math)\.(max|amax|reduce_max)$/, qname)) {
    const axisValue = argument(c.args, fw === 'torch' ? 'dim' : 'axis', 1);
    return reduction(ev, c, val(ev, c, c.args.positional[0]), 'max', undefined, axisValue, {
      keepdimPos: fw === 'torch' ? 2 : undefined,
      tupleResult: qname === 'torch.max' && axisValue !== undefined,
    });
  }
  if (matches(/^(torch|numpy|jax\.numpy|tensorflow|tensorflow\.math)\.(mean|reduce_mean|logsumexp|reduce_logsumexp|prod|reduce_prod)$/, qname)) {
    const axisName = fw === 'torch' ? 'dim' : 'axis';
    return reduction(ev, c, val(ev, c, c.args.positional[0]), 'other', argumentNode(c.args, axisName, 1), argument(c.args, axisName, 1), {
      keepdimPos: fw === 'torch' ? 2 : undefined,
      mean: /mean$/.test(last),
    });
  }
  if (matches(/^(torch|numpy|jax\.numpy|tensorflow|tensorflow\.math)\.exp$/, qname)) return expOf(tensorish(val(ev, c, c.args.positional[0])));
  if (matches(/^(torch|numpy|jax\.numpy)\.(linalg\.norm|norm)$/, qname))
    return reduction(ev, c, val(ev, c, c.args.positional[0]), 'norm', undefined, undefined);
  const sections = sectionsSplit(ev, c, fw, last);
  if (sections) return sections;
  if (fw !== 'user' && METHOD_LIKE_FUNCTIONS.has(last)) {
    // `tf.multiply(p, x)`, `torch.add(a, b)`: the operator itself (`p * x`), with both operands as evaluated (a
    // parameter of unknown rank then scales x as it does in `p * x`, instead of being the receiver whose layout wins).
    const operator = BINARY_FUNCTION_OPERATORS.get(last);
    const [p0, p1] = c.args.positional;
    if (operator && p0 && p1 && c.args.positional.length === 2 && !c.args.hasSplat)
      return callOperator(ev, operator, val(ev, c, p0), val(ev, c, p1), p0, p1, c.node, c.ctx);
    if (last === 'expand_dims') return expandDimsValue(ev, c, val(ev, c, c.args.positional[0]), c.args.positional[1] ?? arg(c, 'axis'));
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
      return p.length >= 2 && p[1] ? reshapeValue(ev, c, tensorish(val(ev, c, p[0])), [p[1]]) : undefined;
    case 'permute': {
      if (p.length < 2) return undefined;
      const perm = permFromArgs(ev, c, p.slice(1));
      const x = tensorish(val(ev, c, p[0]));
      return perm ? permuteValue(x, perm) : stripRank(x);
    }
    case 'swapaxes':
      return p.length === 3 ? transposeValue(val(ev, c, p[0]), intOf(ev, c, p[1]), intOf(ev, c, p[2])) : undefined;
    case 'softmax': {
      const input = p[0];
      const dimName = c.args.keywords.has('dim') ? 'dim' : 'axis';
      const dimValue = argument(c.args, dimName, 1);
      if (!input || !dimValue) return undefined;
      const api: SoftmaxApi = { display: displayName(c.name), dimParam: dimName, dimPos: 1, defaultDim: -1, framework: 'user' };
      return softmax(ev, c, api, val(ev, c, input), input, {
        dimNode: argumentNode(c.args, dimName, 1),
        dimValueNode: dimValue,
        ownerNode: c.node,
        argListNode: c.args.list,
      });
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

/** One item of an iterable value: any element of a tuple, the item of a list of unknown length. */
function itemOf(v: AValue): AValue {
  if (v.kind === 'tuple' && v.elements && v.elements.length > 0) return joinAll(v.elements);
  if (v.kind === 'tuple' && v.items) return v.items;
  return UNKNOWN;
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
    case 'dict': {
      // `dict(input_ids=ids, mask=m)`: the keywords are the dict's entries (see Evaluator.evalDictionary).
      if (c.args.hasSplat || c.args.positional.length > 0) return UNKNOWN;
      return { kind: 'unknown', kwargs: [...c.args.keywords].map(([k, n]) => [k, val(ev, c, n.value)] as const) };
    }
    case 'map': {
      // `map(f, (q, k, v))`, `map(f, qs, ks)`: f called on each element (of each iterable, in step), as many
      // times as the shortest iterable has elements; each call is f's own context.
      const fn = val(ev, c, a0);
      if (fn.kind !== 'function' || c.args.hasSplat || c.args.positional.length < 2) return UNKNOWN;
      const seqs = c.args.positional.slice(1).map((a) => val(ev, c, a));
      const lengths = seqs.map((s) => (s.kind === 'tuple' && s.elements ? s.elements.length : -1));
      if (lengths.some((n) => n < 0)) return UNKNOWN;
      const n = Math.min(...lengths);
      const argsPerCall = Array.from({ length: n }, (_, i) => seqs.map((s) => s.elements?.[i] ?? UNKNOWN));
      return { kind: 'tuple', elements: ev.mapWithValues(fn, argsPerCall, c.node, c.ctx) };
    }
    case 'tuple':
    case 'list': {
      // `tuple(t)` of a tensor holds its slices along the first axis, as unpacking the tensor itself does:
      // `q, k, v = tuple(rearrange(qkv, 'b t (d k h) -> k b h t d', k=3, h=heads))` gives each name one slice.
      const v = val(ev, c, a0);
      return v.kind === 'tuple' || (v.kind === 'tensor' && c.args.positional.length === 1 && !c.args.hasSplat) ? v : UNKNOWN;
    }
    case 'iter': {
      // `iter(loader)`: the same items, one at a time (`next(iter(loader))` is one batch).
      const v = c.args.positional.length === 1 && !c.args.hasSplat ? val(ev, c, a0) : UNKNOWN;
      return v.kind === 'tuple' ? v : UNKNOWN;
    }
    case 'next':
      // `next(it)`: one item (with a default, the default may come instead: unknown).
      return c.args.positional.length === 1 && !c.args.hasSplat ? itemOf(val(ev, c, a0)) : UNKNOWN;
    case 'zip': {
      // `for layer, layer_past in zip(self.layers, past_key_values)`: each item pairs one item of every argument.
      if (c.args.hasSplat || c.args.positional.length === 0) return UNKNOWN;
      return { kind: 'tuple', items: { kind: 'tuple', elements: c.args.positional.map((a) => itemOf(val(ev, c, a))) } };
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
    const iterName = iterable ? (rootName(ev, iterable) ?? ev.text(iterable)) : '';
    if (iterable && (isCacheName(iterName) || /past|cache/i.test(ev.text(iterable)))) return tensor({ fromCache: true });
    return comprehendedMask(ev, c, ev.eval(u, c.ctx));
  }
  // The pieces of a projection's width split by a head count joined back along the batch axis
  // (`tf.concat(tf.split(q, num_heads, axis=2), axis=0)`, TF1 multi-head code): the heads stacked on the batch axis,
  // each piece a head's width, so the projection's width is all heads' (ProjectionInfo.splitIntoHeads).
  // Stacked instead (`torch.stack(torch.split(k, size, dim=2), dim=0)`, coqui's GST attention): the pieces keep their
  // axes and the heads get a new axis of their own, so the result has one axis more than each piece.
  if (u?.type === 'call') {
    const pieces = ev.eval(u, c.ctx);
    const isStack = c.name.endsWith('.stack');
    const onBatch = headsOnBatch(ev, c, pieces);
    // A projection's heads stacked on a new axis: (H, B, T, d), of a rank the concatenation's reading would get wrong.
    // The rank is not claimed (the head width's relation to the widths the module is built with is for the callers
    // that build it, which the cut may not show), so nothing is judged on these keys and queries.
    if (onBatch) return isStack ? tensor() : onBatch;
    const rejoined = rejoinedPieces(ev, c, u, pieces);
    const piece = pieces.kind === 'tuple' ? pieces.elements?.[0] : undefined;
    if (rejoined && isStack && piece) return stacked(ev, c, piece);
    if (rejoined) return rejoined;
  }
  // A list of masks of unknown length bound to a name (`masks = [make_pad_mask(r, pad) for r in ids]`).
  if (u?.type === 'identifier') {
    const listed = ev.eval(u, c.ctx);
    if (listed.kind === 'tuple' && listed.items && !listed.elements) return comprehendedMask(ev, c, listed);
  }
  // A list built by appends in this function (`weights = []; for fc in self.fcs: weights.append(fc(z).view(b, c, 1, 1))`).
  const items = u && (u.type === 'list' || u.type === 'tuple') ? namedChildren(u) : u?.type === 'identifier' ? appendedItems(ev, u, c.node) : undefined;
  if (!items) return tensor();
  const vals = items.map((n) => tensorish(ev.eval(n, c.ctx)));
  // A piece named as a cache (`past_k`, `memory_k`) adds cached positions only when joined along the positions: along an
  // axis the other pieces' layout shows to be the heads or the features (`torch.cat([memory_k, k], dim=1)` of
  // (B, h, T, d) pieces), the name says nothing about the number of keys.
  const namedJoin = !joinAlongHeadsOrFeatures(ev, c, vals);
  const fromCache = items.map(
    (n, i) =>
      vals[i]?.fromCache ||
      (namedJoin && (isCacheName(rootName(ev, n) ?? '') || /past|cache|prev/i.test(ev.text(n)))) ||
      isGrowingState(ev, n, c.node, c.ctx.scope) ||
      isStoredBack(ev, n, c.node) ||
      isHandedBack(ev, n, c.node),
  );
  const cached = fromCache.some(Boolean);
  const fresh = vals.find((_v, i) => !fromCache[i]);
  const base = fresh ?? vals[0];
  if (!base) return tensor(); // torch.cat([]): nothing to join
  const ndim = vals.every((v) => v.ndim === base.ndim) ? base.ndim : undefined;
  const out: Mutable<AValue> = tensor({
    ...(ndim !== undefined ? { ndim, axes: joinedAxes(ev, c, vals, base, ndim) } : {}),
    ...(base.role ? { role: base.role, roleText: base.roleText } : {}),
    featLast: base.featLast,
    multiHead: vals.some((v) => v.multiHead) || undefined,
  });
  if (cached) out.fromCache = true;
  const joinedMask = cachedColumnsJoined(ev, c, items, vals) ?? joinedMaskOf(vals) ?? lengthPaddedOnes(ev, c, items, vals);
  if (joinedMask) out.mask = joinedMask;
  return c.name.endsWith('.stack') ? stacked(ev, c, out) : out;
}

/**
 * Splits whose second argument counts the pieces (`tf.split(x, num_or_size_splits, axis)`, `np.split` / `jnp.split`
 * / `np.array_split(x, indices_or_sections, axis)`, `torch.tensor_split`), not torch's `split(x, split_size, dim)`,
 * which gives each piece's width: a number or name there is how many pieces, and a list is TF's piece sizes or
 * NumPy's and JAX's split points.
 */
function sectionsSplit(ev: Evaluator, c: Call, fw: string, last: string): AValue | undefined {
  const counted =
    (last === 'split' && (fw === 'tf' || fw === 'numpy' || fw === 'jax')) || ((last === 'array_split' || last === 'tensor_split') && fw !== 'user');
  if (!counted || c.args.hasSplat) return undefined;
  const x = c.args.positional[0] ?? arg(c, 'value') ?? arg(c, 'ary') ?? arg(c, 'input');
  if (!x) return undefined;
  const countNode =
    c.args.positional[1] ??
    arg(c, 'num_or_size_splits') ??
    arg(c, 'indices_or_sections') ??
    arg(c, 'sections') ??
    arg(c, 'indices') ??
    arg(c, 'tensor_indices_or_sections');
  const axisNode = c.args.positional[2] ?? arg(c, fw === 'torch' ? 'dim' : 'axis');
  return splitValue(ev, c, tensorish(val(ev, c, x)), countNode, axisNode, 'sections', fw !== 'tf');
}

/**
 * The pieces of one split joined back along another axis (`torch.cat(torch.split(x, self._d, dim=-1), dim=0)`, GMAN's
 * heads stacked on the batch axis when no projection is known): each piece's layout, with the joined axis's size no
 * longer known (the piece's width along the split axis stays, as splitValue states it). Anything else (a cat of the
 * pieces along the split axis, a rank not known) is left to the generic join.
 */
function rejoinedPieces(ev: Evaluator, c: Call, inner: PyNode, pieces: AValue): AValue | undefined {
  const fn = childByField(inner, 'function');
  const name = fn ? ev.text(fn).split('.').pop() : undefined;
  if (!name || !['split', 'chunk', 'array_split', 'tensor_split'].includes(name)) return undefined;
  const piece = pieces.kind === 'tuple' ? pieces.elements?.[0] : undefined;
  if (!piece || piece.kind !== 'tensor' || piece.ndim === undefined || !piece.axes) return undefined;
  const axisNode = c.args.positional[1] ?? arg(c, 'axis') ?? arg(c, 'dim');
  const d = axisNode ? intOf(ev, c, axisNode) : 0;
  if (d === undefined) return undefined;
  const joined = d < 0 ? d + piece.ndim : d;
  if (joined < 0 || joined >= piece.ndim) return undefined;
  return { ...piece, axes: piece.axes.map((a, i) => (i === joined ? (a.label === 'batch' ? { label: 'batch' } : {}) : a)) };
}

/**
 * `arange(n)`: positions 0..n-1 along one axis, a position index. `arange(k, n)` (and a step of 1) with k a whole
 * number: the same index shifted by k. Any other start or step (`arange(S - 1, S - L - 1, -1)`, a descending range of
 * relative distances): positions in an order the code does not show, no index (AValue.unorderedRange).
 */
function arangeValue(ev: Evaluator, c: Call): AValue {
  const seq = { ndim: 1, axes: [{ label: 'seq' as const }] };
  const pos = c.args.positional;
  const startNode = pos.length >= 2 ? pos[0] : arg(c, 'start');
  const stepNode = pos[2] ?? arg(c, 'step') ?? arg(c, 'delta');
  const start = startNode ? intLiteral(ev.tree, unparen(startNode)) : 0;
  const step = stepNode ? intLiteral(ev.tree, unparen(stepNode)) : 1;
  if (c.args.hasSplat || start === undefined || step !== 1) return tensor({ ...seq, unorderedRange: true });
  return tensor({ ...seq, index: { axis: -1, offset: start } });
}

/** `tf.concat(pieces, axis=0)` of the head-count pieces of a projection's width (AValue.widthPiece): heads on the batch. */
function headsOnBatch(ev: Evaluator, c: Call, pieces: AValue): AValue | undefined {
  const piece = pieces.kind === 'tuple' ? pieces.elements?.[0] : undefined;
  const axisNode = c.args.positional[1] ?? arg(c, 'axis') ?? arg(c, 'dim');
  if (!piece?.widthPiece || !piece.proj || !axisNode || intOf(ev, c, axisNode) !== 0) return undefined;
  const { widthPiece: _widthPiece, ...rest } = piece;
  return { ...rest, multiHead: true, proj: { ...piece.proj, splitIntoHeads: true, stackedOnBatch: true } };
}

/** The extent along the joined axis written in a ones/zeros call (`np.zeros(K - n)`, `np.ones((1, n))` joined on axis 1). */
function joinedExtent(piece: PyNode, axis: number | undefined): PyNode | undefined {
  const u = unparen(piece);
  if (u.type !== 'call') return undefined;
  const args = childByField(u, 'arguments');
  const first = args ? namedChildren(args).find((n) => n.type !== 'keyword_argument' && n.type !== 'comment') : undefined;
  if (!first) return undefined;
  const shape = unparen(first);
  if (shape.type !== 'tuple' && shape.type !== 'list') return axis === undefined || axis === 0 || axis === -1 ? shape : undefined;
  const dims = namedChildren(shape).filter((n) => n.type !== 'comment');
  const at = axis === undefined ? 0 : axis < 0 ? dims.length + axis : axis;
  return dims[at];
}

/**
 * Ones and zeros joined along one axis, one of them as long as a length L and the other as long as a maximum less
 * that length (`np.concatenate([np.zeros(K - tlen), np.ones(tlen)])`, `torch.cat([torch.ones(n), torch.zeros(max_len
 * - n)])`): a padding mask written by hand, the block of L marking the real positions and the block of `max - L`
 * the padding, as ones zero-padded by F.pad are. Ones of length L make a keep mask (1 at real positions); ones of
 * length `max - L`, an ignore mask. Read from the sizes written: a subtraction whose right side is the other block's
 * length, word for word; anything else is no evidence.
 */
function lengthPaddedOnes(ev: Evaluator, c: Call, items: readonly PyNode[], vals: readonly AValue[]): MaskInfo | undefined {
  if (items.length !== 2 || c.name.endsWith('.stack')) return undefined;
  const [a, b] = vals;
  if (!a || !b || a.mask || b.mask || a.attn || b.attn) return undefined;
  const onesAt = a.ones && b.zeros ? 0 : b.ones && a.zeros ? 1 : -1;
  if (onesAt < 0) return undefined;
  const axisNode = arg(c, 'dim') ?? arg(c, 'axis') ?? c.args.positional[1];
  const axisVal = axisNode ? ev.eval(axisNode, c.ctx) : undefined;
  const axis = axisNode ? (axisVal?.kind === 'number' && Number.isInteger(axisVal.num) ? axisVal.num : NaN) : undefined;
  if (axis !== undefined && Number.isNaN(axis)) return undefined;
  const ext = items.map((n) => joinedExtent(n, axis));
  const norm = (n: PyNode): string => ev.text(n).replace(/\s+/g, '');
  // Which block is the padding: the one whose extent is `max - L`, L the other block's extent.
  const padAt = [0, 1].find((i) => {
    const e = ext[i] && unparen(ext[i]);
    const other = ext[1 - i];
    if (!e || !other || e.type !== 'binary_operator') return false;
    const l = childByField(e, 'left');
    const r = childByField(e, 'right');
    const op =
      l && r
        ? ev
            .text(e)
            .slice(l.end - e.start, r.start - e.start)
            .trim()
        : '';
    return op === '-' && !!r && norm(r) === norm(unparen(other));
  });
  if (padAt === undefined) return undefined;
  const dtype = vals[onesAt]?.dtype ?? 'float';
  const keep = padAt !== onesAt;
  return {
    polarity: keep ? 'keep' : 'ignore',
    dtype,
    padding: true,
    why: msg(keep ? PHRASES.onesOverLength : PHRASES.onesOverPadding, `\`${ev.text(c.node).replace(/\s+/g, ' ').slice(0, 60)}\``),
  };
}

/**
 * cat/stack of a comprehension's items whose number is not known, each a mask of one meaning
 * (`torch.stack([make_pad_mask(row, pad_id) for row in ids])`): the joined mask keeps that meaning. Its triangle, if
 * any, lies where it did only for a stack (cat moves it); a plain tensor otherwise.
 */
function comprehendedMask(ev: Evaluator, c: Call, listed: AValue): AValue {
  const item = listed.kind === 'tuple' && !listed.elements ? listed.items : undefined;
  const m = item?.kind === 'tensor' ? item.mask : undefined;
  if (!item || !m?.polarity) return tensor();
  if (c.name.endsWith('.stack')) {
    const { padAxes: _padAxes, ...kept } = m;
    return stacked(ev, c, tensor({ ...(item.ndim !== undefined ? { ndim: item.ndim, axes: item.axes } : {}), dtype: item.dtype, mask: kept }));
  }
  const { tri: _tri, align: _align, sizes: _sizes, padAxes: _padAxes, ...rest } = m;
  return tensor({ dtype: item.dtype, mask: rest });
}

/** A square causal triangle aligned top-left (`triu(full((T, T), -inf), 1)`, `tril(ones(T, T))`): its side, T. */
function squareTriangle(v: AValue): string | undefined {
  const m = v.mask;
  return m?.causal && m.align === 'top-left' && m.sizes && m.sizes[0] === m.sizes[1] && !m.cachedColumns ? m.sizes[0] : undefined;
}

/**
 * The value a mask gives to kept entries holds in the block `v`: zeros for an additive or an ignore (True = masked)
 * mask, ones for a keep mask.
 */
function keptBlock(m: MaskInfo, v: AValue): boolean {
  if (v.kind !== 'tensor' || v.mask || v.attn) return false;
  if (m.additive) return !!v.zeros;
  return m.polarity === 'keep' ? !!v.ones : m.polarity === 'ignore' ? !!v.zeros : false;
}

/**
 * A square causal triangle over the T new tokens joined along the key axis with a block of kept columns of another
 * width (`torch.cat([torch.zeros(T, start), tri], dim=-1)`, `torch.hstack([tri, zeros])`): the columns of the cache
 * a decode step's keys hold before the new ones. Placed first, the mask is bottom-right aligned (every new token
 * sees every cached key); placed last, the triangle lies over the first cached keys, top-left aligned over T queries
 * and start + T keys. The block's size must be written (`zeros(T, start)`, its rows the triangle's): the columns are
 * then as many as the keys only when the block is as wide as the cache.
 */
function cachedColumnsJoined(ev: Evaluator, c: Call, items: readonly PyNode[], vals: readonly AValue[]): MaskInfo | undefined {
  if (items.length !== 2 || c.name.endsWith('.stack')) return undefined;
  const triAt = vals.findIndex((v) => squareTriangle(v) !== undefined);
  const tri = vals[triAt];
  const block = vals[1 - triAt];
  const blockNode = items[1 - triAt];
  const side = tri && squareTriangle(tri);
  if (!tri?.mask || !block || !blockNode || side === undefined || !keptBlock(tri.mask, block)) return undefined;
  // Along the last axis: `dim=-1`, the second axis of 2-D pieces, or hstack of 2-D pieces.
  const dim = c.name.endsWith('.hstack') ? 1 : intOf(ev, c, c.args.positional[1] ?? arg(c, 'dim') ?? arg(c, 'axis'));
  const ndim = tri.ndim ?? (c.name.endsWith('.hstack') ? undefined : 2);
  if (dim !== -1 && !(dim === 1 && ndim === 2)) return undefined;
  const sizes = creationSizes(ev, blockNode);
  if (!sizes || sizes[0] !== side || sizes[1] === side) return undefined;
  return placedColumns(tri.mask, side, sizes[1], triAt === 1 ? 'left' : 'right');
}

/** The triangle's mask with `width` kept cache columns placed on `at` of it (cachedColumnsJoined, F.pad). */
function placedColumns(m: MaskInfo, side: string, width: string, at: 'left' | 'right'): MaskInfo {
  const { tri: _tri, align: _align, sizes: _sizes, ...rest } = m;
  const cachedColumns = { side: at, width };
  return at === 'left'
    ? { ...rest, causal: true, cachedColumns, align: 'bottom-right' }
    : { ...rest, causal: true, cachedColumns, align: 'top-left', sizes: [side, `${width}+${side}`] };
}

/**
 * `F.pad(tri, (start, 0), value=...)`: a square causal triangle padded on one side of its last axis (the keys) with
 * columns its mask keeps (0 on an additive or ignore mask, True or 1 on a keep mask), as cachedColumnsJoined joins them.
 */
function paddedCacheColumns(ev: Evaluator, c: Call, x: AValue, fillArg: PyNode | undefined): MaskInfo | undefined {
  const side = squareTriangle(x);
  const padNode = c.args.positional[1] ?? arg(c, 'pad');
  const pad = padNode ? unparen(padNode) : undefined;
  if (side === undefined || !x.mask || (pad?.type !== 'tuple' && pad?.type !== 'list')) return undefined;
  const sides = namedChildren(pad);
  const [left, right] = sides;
  if (sides.length !== 2 || !left || !right) return undefined;
  const fill = fillArg ? ev.text(fillArg).replace(/\s+/g, '') : '0';
  const keeps = x.mask.additive || x.mask.polarity === 'ignore' ? /^(0|0\.0|False)$/.test(fill) : x.mask.polarity === 'keep' && /^(1|1\.0|True)$/.test(fill);
  if (!keeps) return undefined;
  const zero = (n: PyNode): boolean => intLiteral(ev.tree, n) === 0;
  if (zero(right) && !zero(left)) return placedColumns(x.mask, side, ev.text(left).replace(/\s+/g, ''), 'left');
  if (zero(left) && !zero(right)) return placedColumns(x.mask, side, ev.text(right).replace(/\s+/g, ''), 'right');
  return undefined;
}

/**
 * The mask that pieces joined by cat/stack make. Masks with one meaning joined keep it; a constant block joined to them
 * (`torch.cat([torch.full((B, 1), True), pad_keep], dim=1)`, a position prepended for a CLS or memory token, or
 * `new_zeros`) holds one value everywhere, which takes the meaning the masks give True/1: the joined mask keeps that
 * meaning. Its triangle, if any, no longer lies where it did, so only the polarity and what the masks were made of stay.
 * Pieces with different meanings, or other pieces, make no mask of known meaning (the first piece's was kept before).
 */
function joinedMaskOf(vals: readonly AValue[]): MaskInfo | undefined {
  const masks = vals.flatMap((v) => (v.mask ? [v.mask] : []));
  const first = masks[0];
  if (!first) return undefined;
  const constant = (v: AValue): boolean => v.kind === 'tensor' && !v.mask && !v.attn && (!!v.ones || !!v.zeros);
  if (!vals.every((v) => v.mask || constant(v))) return undefined;
  if (masks.length === vals.length) return masks.every((m) => m.polarity === first.polarity && !!m.additive === !!first.additive) ? first : undefined;
  if (!first.polarity || first.additive || first.byName || first.documented) return undefined;
  if (!masks.every((m) => m.polarity === first.polarity && !m.additive && !m.byName && !m.documented)) return undefined;
  const { tri: _tri, align: _align, sizes: _sizes, ...rest } = first;
  return rest;
}

/**
 * The axes of pieces of one rank joined by cat/stack: each axis takes the label the pieces agree on (a piece that
 * does not know it defers to the others: `cat([h.repeat(1, T, 1), enc], dim=2)` keeps enc's batch and time axes).
 * On the joined axis (cat) the sizes add up: no length 1, no size text.
 */
/**
 * A `cat` whose literal dim is an axis some piece's layout labels the heads or the features (`dim=1` of (B, h, T, d)
 * pieces, `dim=-1` of features-last ones): the join does not add positions.
 */
function joinAlongHeadsOrFeatures(ev: Evaluator, c: Call, vals: readonly AValue[]): boolean {
  if (c.name.endsWith('.stack')) return false;
  const dimNode = c.args.positional[1] ?? arg(c, 'dim') ?? arg(c, 'axis');
  const d = dimNode ? intOf(ev, c, dimNode) : 0;
  if (d === undefined) return false;
  return vals.some((v) => {
    if (v.ndim === undefined || !v.axes) return false;
    const i = d < 0 ? d + v.ndim : d;
    const label = v.axes[i]?.label;
    return label === 'head' || label === 'feat';
  });
}

function joinedAxes(ev: Evaluator, c: Call, vals: readonly AValue[], base: AValue, ndim: number): AxisInfo[] | undefined {
  if (!vals.some((v) => v.axes)) return base.axes ? [...base.axes] : undefined;
  const isStack = c.name.endsWith('.stack');
  const dimNode = c.args.positional[1] ?? arg(c, 'dim') ?? arg(c, 'axis');
  const d = isStack ? undefined : dimNode ? intOf(ev, c, dimNode) : 0;
  const joined = d === undefined ? undefined : d < 0 ? d + ndim : d;
  // Which axis grows is known for a stack (none of these: its new axis comes later) or a cat with a literal dim.
  const sizesKnown = isStack || joined !== undefined;
  return Array.from({ length: ndim }, (_, i): AxisInfo => {
    const each = vals.map((v) => (v.axes ? v.axes[i] : undefined));
    const labels = [...new Set(each.map((a) => a?.label).filter((l) => l !== undefined))];
    const out: Mutable<AxisInfo> = {};
    if (labels.length === 1 && labels[0] !== undefined) out.label = labels[0];
    if (sizesKnown && i !== joined && each.every((a) => a?.size1)) out.size1 = true;
    const texts = [...new Set(each.map((a) => a?.sizeText))];
    if (sizesKnown && i !== joined && texts.length === 1 && texts[0] !== undefined) out.sizeText = texts[0];
    return out;
  });
}

/**
 * stack(tensors, dim): the pieces' layout with a new axis at dim (0 by default) that counts the pieces. Not of length 1
 * (the usual stack has several pieces), so a softmax over it is judged as over any other axis.
 */
function stacked(ev: Evaluator, c: Call, joined: AValue): AValue {
  const dimNode = c.args.positional[1] ?? arg(c, 'dim') ?? arg(c, 'axis');
  const d = dimNode ? intOf(ev, c, dimNode) : 0;
  if (d === undefined) return tensor();
  const out = mutable(unsqueezeValue(joined, d));
  delete out.lastSize1;
  if (out.axes && out.ndim !== undefined) {
    const p = d < 0 ? d + out.ndim : d;
    out.axes = out.axes.map((a, i) => (i === p ? {} : a));
  }
  return out;
}

/**
 * The values appended to a list named `name` in the function that uses it, when that is all the function does to
 * it: bound once to `[]`, then only `name.append(x)` before the use. Undefined otherwise (unknown contents).
 */
/**
 * `pad_sequence([torch.ones(n, dtype=torch.bool) for n in lengths], batch_first=True)`: every sequence all ones, padded
 * with zeros (the default padding_value) to the longest: 1 at each example's real positions, 0 in its padding, a keep
 * mask (padding along the last axis when batch_first). Undefined for any other pad_sequence (its usual padded ids).
 */
function paddedOnes(ev: Evaluator, c: Call): AValue | undefined {
  const seqNode = c.args.positional[0] ?? arg(c, 'sequences');
  const u = seqNode ? unparen(seqNode) : undefined;
  if (!u) return undefined;
  const comprehension = u.type === 'list_comprehension' || u.type === 'generator_expression';
  const body = comprehension ? childByField(u, 'body') : undefined;
  const items = comprehension
    ? body
      ? [body]
      : []
    : u.type === 'list' || u.type === 'tuple'
      ? namedChildren(u)
      : u.type === 'identifier'
        ? appendedItems(ev, u, c.node)
        : undefined;
  if (!items || items.length === 0) return undefined;
  const vals = items.map((n) => tensorish(ev.eval(n, c.ctx)));
  if (!vals.every((v) => v.ones && !v.mask && !v.attn)) return undefined;
  const padNode = arg(c, 'padding_value', 2);
  if (padNode) {
    const pad = ev.eval(padNode, c.ctx);
    if (!isZero(pad) && !(pad.kind === 'bool' && pad.truth === false)) return undefined;
  }
  const bfNode = arg(c, 'batch_first', 1);
  const batchFirst = bfNode ? ev.eval(bfNode, c.ctx) : undefined;
  const rows = batchFirst?.kind === 'bool' && batchFirst.truth === true;
  const dtype = vals[0]?.dtype ?? 'float';
  return tensor({
    ndim: 2,
    axes: rows ? [{ label: 'batch' }, { label: 'seq' }] : [{}, {}],
    dtype,
    mask: {
      polarity: 'keep',
      dtype,
      padding: true,
      ...(rows ? { padAxes: [-1] } : {}),
      why: msg(PHRASES.onesZeroPadded, `\`${ev.text(c.node).slice(0, 50)}\``, 'pad_sequence'),
    },
  });
}

/**
 * The items of an empty module list bound to a name or attribute (`self.layers = nn.ModuleList([])`) that the same
 * function fills only by `self.layers.append(modules)` after the binding: a list of unknown length whose every item is
 * the appended module list (`nn.ModuleList([norm, Attention(d)])`).
 * Undefined when the function binds the name again, adds to it any other way, appends at more than one place, or
 * appends anything else.
 */
function appendedModules(ev: Evaluator, c: Call): AValue | undefined {
  const assign = c.node.parent;
  const left = assign?.type === 'assignment' && childByField(assign, 'right') === c.node ? childByField(assign, 'left') : undefined;
  if (!assign || !left || (left.type !== 'identifier' && left.type !== 'attribute')) return undefined;
  const fn = enclosingFunction(assign);
  if (!fn) return undefined;
  const target = ev.text(left);
  const items: PyNode[] = [];
  let other = false;
  walk(fn, (n) => {
    if (other) return false;
    if (n !== fn && (n.type === 'function_definition' || n.type === 'class_definition')) return false;
    if (n.type === 'assignment' || n.type === 'augmented_assignment') {
      const l = childByField(n, 'left');
      if (n !== assign && l && ev.text(l) === target) other = true;
    } else if (n.type === 'call' && n.start >= assign.end) {
      const f = childByField(n, 'function');
      const obj = f?.type === 'attribute' ? childByField(f, 'object') : undefined;
      if (obj && ev.text(obj) === target) {
        const method = ev.text(childByField(f!, 'attribute') ?? f!);
        const args = namedChildren(childByField(n, 'arguments') ?? n);
        if (method === 'append' && args.length === 1 && args[0] && args[0].type !== 'keyword_argument') items.push(args[0]);
        else other = true;
      }
    }
    return true;
  });
  const only = items.length === 1 ? items[0] : undefined;
  if (other || !only) return undefined;
  const item = ev.eval(only, c.ctx);
  // Only module lists (`nn.ModuleList([norm, Attention(d), ff])`), unpacked by the loop: a list of single modules filled
  // so stays unknown, as before (Llama-style `self.layers.append(TransformerBlock(i, args))` blocks called with a mask
  // their model builds only for several queries, which ATT008 does not read through the call).
  return item.kind === 'tuple' && isModuleValue(item) ? { kind: 'tuple', items: item } : undefined;
}

/** A module (a layer, an instance of a class) or a module list of known modules (`nn.ModuleList([norm, Attention(d)])`). */
export function isModuleValue(v: AValue): boolean {
  if (v.kind === 'object' || v.kind === 'layer') return true;
  return v.kind === 'tuple' && !!v.elements && v.elements.length > 0 && v.elements.every((e) => e.kind === 'object' || e.kind === 'layer');
}

function appendedItems(ev: Evaluator, name: PyNode, at: PyNode): PyNode[] | undefined {
  let fn: PyNode | null | undefined = at.parent;
  while (fn && fn.type !== 'function_definition') fn = fn.parent;
  if (!fn) return undefined;
  const text = ev.text(name);
  const items: PyNode[] = [];
  let bindings = 0;
  let other = false;
  // The join rebinding the name to its result (`mask = np.concatenate(mask, axis=0)`), or any assignment after the
  // join outside a loop around it, cannot change what the list held when it was joined.
  let inLoop = false;
  for (let p = at.parent; p && p !== fn; p = p.parent) if (p.type === 'for_statement' || p.type === 'while_statement') inLoop = true;
  const afterJoin = (n: PyNode): boolean => (n.start <= at.start && at.end <= n.end) || (!inLoop && n.start >= at.end);
  walk(fn, (n) => {
    if (n !== fn && n.type === 'function_definition') return false;
    if ((n.type === 'assignment' || n.type === 'augmented_assignment') && afterJoin(n)) return true;
    if (n.type === 'assignment' || n.type === 'augmented_assignment') {
      const left = childByField(n, 'left');
      const right = childByField(n, 'right');
      const emptyList = (r: PyNode | undefined): boolean => !!r && unparen(r).type === 'list' && namedChildren(unparen(r)).length === 0;
      if (left && ev.text(left) === text) {
        if (n.type === 'assignment' && emptyList(right ?? undefined)) bindings++;
        else other = true;
      } else if (left && (left.type === 'pattern_list' || left.type === 'tuple_pattern')) {
        // `wavs, masks = [], []`: each name bound to its own empty list.
        const i = namedChildren(left).findIndex((t) => ev.text(t) === text);
        if (i >= 0) {
          const r = right ? unparen(right) : undefined;
          const parts = r && (r.type === 'expression_list' || r.type === 'tuple') ? namedChildren(r) : undefined;
          if (n.type === 'assignment' && parts?.length === namedChildren(left).length && emptyList(parts[i])) bindings++;
          else other = true;
        }
      }
    } else if (n.type === 'call' && n.end <= at.start) {
      const f = childByField(n, 'function');
      const obj = f?.type === 'attribute' ? childByField(f, 'object') : undefined;
      if (obj && ev.text(obj) === text) {
        const method = ev.text(childByField(f!, 'attribute') ?? f!);
        const args = namedChildren(childByField(n, 'arguments') ?? n);
        if (method === 'append' && args.length === 1 && args[0] && args[0].type !== 'keyword_argument') items.push(args[0]);
        else other = true;
      }
    }
    return true;
  });
  return !other && bindings === 1 && items.length > 0 ? items : undefined;
}

// ------------------------------------------------------------------------------------------------ exports used by rules

// The evaluator reaches comparisons and index-assignment fills through this module.
export { evalComparison, setItemFill } from './mask-ops';

export { scaleTarget, dimOfName, isHeadCountName, isScaleName };

/** Padding grows the padded axes (`F.pad(x, (0, 1))`): no axis is known to have length 1 any more. */
function withoutLength1(x: AValue): AValue {
  if (!x.lastSize1 && !x.axes?.some((a) => a.size1)) return x;
  const out = mutable(x);
  delete out.lastSize1;
  if (x.axes) out.axes = x.axes.map((a) => (a.label ? { label: a.label } : {}));
  return out;
}

/**
 * `expand_dims(x, axis)`: one axis, or (NumPy, JAX) a tuple of them, `jnp.expand_dims(m, axis=(0, 2))`, each a
 * position in the result. Non-negative positions are inserted in increasing order, as NumPy places them; a tuple with
 * a negative position needs the rank, and without it the value keeps no facts (as an unknown axis does).
 */
function expandDimsValue(ev: Evaluator, c: Call, x: AValue, axisNode: PyNode | undefined): AValue {
  const node = axisNode ? unparen(axisNode) : undefined;
  if (!node || (node.type !== 'tuple' && node.type !== 'list')) return unsqueezeValue(x, intOf(ev, c, axisNode));
  const items = namedChildren(node).map((n) => intOf(ev, c, n));
  const rank = x.kind === 'tensor' ? x.ndim : undefined;
  const positions = items.map((a) => (a === undefined ? undefined : a >= 0 ? a : rank === undefined ? undefined : a + rank + items.length));
  if (positions.length === 0 || positions.some((p) => p === undefined || p < 0)) return unsqueezeValue(x, undefined);
  let out = x;
  for (const p of (positions as number[]).sort((a, b) => a - b)) out = unsqueezeValue(out, p);
  return out;
}

/** A mask reversed along an axis (`flip`, `[::-1]`): reversed again, it is back in order. */
function reverseMask(m: MaskInfo): MaskInfo {
  if (!m.reversed) return { ...m, reversed: true };
  const { reversed: _reversed, ...rest } = m;
  return rest;
}
