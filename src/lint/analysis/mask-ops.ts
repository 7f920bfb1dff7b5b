// Mask-building transfer functions: what comparisons, logical operators, triangles, fills and `where` do to a
// value's mask lattice (MaskInfo: keep / ignore / additive, causal alignment, padding axes), and where a mask
// is handed to code that reads it (a MaskSite: masked_fill, where, index assignment, library mask parameters).
// Shape, reduction and matmul transfer functions live in ops.ts; the algebra on MaskInfo itself in masks.ts.
import { argument, intLiteral, operatorText } from '../syntax/python';
import { boundCount } from './bound-counts';
import { childByField, childrenByField, enclosingFunction, namedChildren, unparen, walk, type PyNode } from '../syntax/tree';
import { displayName, type MaskConsumer } from './apis';
import type { Evaluator } from './evaluator';
import type { Ctx } from './facts';
import type { Def, Scope } from './scopes';
import { causalBoundOf, combineMasks, flipMask, infOfAdditive, triMask, withMaskDtype } from './masks';
import { isPadIdName, isTokenIdsName, maskOfName } from './names';
import { msg, type Template } from '../message';
import { PHRASES } from './phrases';
import { arg, intOf, rootName, tensorish, val, type Call } from './call';
import { broadcastResult, stripFacts } from './shape-ops';
import { addOp, isUnchangedCut, join, markCut, number, tensor, UNKNOWN, type AValue, type DType, type MaskInfo } from './values';

// ================================================================================================ helpers

function isZero(v: AValue): boolean {
  return v.kind === 'number' && v.num === 0;
}

/** A tensor of zeros that is no mask nor attention (`jnp.zeros(shape)`, `jnp.full(shape, 0.0)`, `torch.zeros_like(s)`). */
function zeroTensor(v: AValue): boolean {
  return v.kind === 'tensor' && !v.mask && !v.attn && ((!!v.zeros && v.fillValue === undefined) || v.fillValue === 0);
}

// ================================================================================================ dispatch

/** Tensor methods that build, combine or read masks; undefined for every other method. */
export function maskMethod(ev: Evaluator, c: Call, t: AValue): AValue | undefined {
  const m = c.name;
  const a0 = c.args.positional[0];
  const a1 = c.args.positional[1];
  switch (m) {
    case 'masked_fill':
    case 'masked_fill_':
      return maskedFill(ev, c, t, a0 ?? arg(c, 'mask'), a1 ?? arg(c, 'value'));
    case 'where':
      return where(ev, c, a0 ?? arg(c, 'condition'), c.recvNode, a1 ?? arg(c, 'other'), t);
    case 'isinf':
    case 'isneginf':
    case 'isfinite': {
      const m0 = c.recvNode ? infOfAdditive(t.mask, m === 'isfinite' ? 'finite' : 'inf', `\`${ev.text(c.node)}\``) : undefined;
      return tensor({ ndim: t.ndim, axes: t.axes, dtype: 'bool', ...(m0 ? { mask: m0 } : {}) });
    }
    case 'logical_not':
    case 'bitwise_not':
    case 'logical_not_': {
      if (t.mask && c.recvNode) {
        const f = flipMask(t.mask, `\`${ev.text(c.recvNode)}.${m}()\``, 'bool');
        return f ? { ...t, mask: f, dtype: 'bool' } : stripFacts(t);
      }
      return tensor({ ndim: t.ndim, axes: t.axes, dtype: 'bool' });
    }
    case 'eq':
    case 'ne':
    case 'gt':
    case 'lt':
    case 'ge':
    case 'le':
    case 'equal': {
      const op = { eq: '==', equal: '==', ne: '!=', gt: '>', lt: '<', ge: '>=', le: '<=' }[m];
      return c.recvNode && a0 ? compare(ev, op, t, val(ev, c, a0), c.recvNode, a0, c.ctx) : tensor({ dtype: 'bool' });
    }
    case 'logical_and':
    case 'logical_or':
    case 'bitwise_and':
    case 'bitwise_or':
      return maskLogic(t, val(ev, c, a0), m.endsWith('and') ? 'and' : 'or');
    case 'maximum':
    case 'minimum':
    case 'fmax':
    case 'fmin':
      return zeroOneExtremum(t, val(ev, c, a0 ?? arg(c, 'other') ?? arg(c, 'y')), m === 'maximum' || m === 'fmax' ? 'or' : 'and');
    case 'tril':
    case 'tril_':
    case 'triu':
    case 'triu_':
      return triValue(ev, c, t, m.startsWith('tril') ? 'lower' : 'upper', a0 ?? arg(c, 'diagonal'), m, c.recvNode);
    case 'fill_diagonal_': {
      // `hide = ones(L, L, dtype=bool).triu(); hide.fill_diagonal_(False)`: a triangle whose diagonal is rewritten is
      // no longer the triangle it was built as (evaluator's editedTriangle, for index writes): it stays causal and
      // keeps its polarity, and which rows it empties is no longer read from its construction.
      if (t.kind !== 'tensor' || !t.mask?.tri || t.attn) return undefined;
      const { tri: _tri, ...rest } = t.mask;
      return { ...t, mask: { ...rest, causal: true } };
    }
    case 'repeat_interleave':
      // A mask repeated along an axis (one copy per head: `attn_mask.repeat_interleave(h, dim=0)`) means the same; the
      // other axes keep their length 1 (`keep.view(B, 1, N, 1).repeat_interleave(bs, dim=2)` is still constant along keys).
      if (!t.mask || !(a1 ?? arg(c, 'dim'))) return undefined;
      const d = intOf(ev, c, a1 ?? arg(c, 'dim'));
      const at = d === undefined || t.ndim === undefined ? undefined : d < 0 ? t.ndim + d : d;
      const keeps = (ax: NonNullable<AValue['axes']>[number], i: number): boolean => at !== undefined && i !== at && ax.size1 === true;
      return {
        ...t,
        ...(t.axes ? { axes: t.axes.map((ax, i) => ({ ...(ax.label ? { label: ax.label } : {}), ...(keeps(ax, i) ? { size1: true } : {}) })) } : {}),
      };
    default:
      return undefined;
  }
}

const TRIANGLE_FUNCTIONS = new Set(['torch', 'numpy', 'jax.numpy', 'tensorflow.experimental.numpy'].flatMap((m) => [`${m}.tril`, `${m}.triu`]));
/** `where(condition, x, y)`: x where the condition holds, y elsewhere (CNTK's `element_select(flag, value_if_true, value_if_false)` too). */
const WHERE_FUNCTIONS = new Set([
  'torch.where',
  'numpy.where',
  'jax.numpy.where',
  'tensorflow.where',
  'jax.lax.select',
  'cntk.element_select',
  'cntk.ops.element_select',
]);
const EQUALITY_FUNCTIONS: Readonly<Record<string, string>> = {
  'tensorflow.equal': '==',
  'tensorflow.math.equal': '==',
  'tensorflow.not_equal': '!=',
  'tensorflow.math.not_equal': '!=',
};
const NOT_FUNCTIONS = new Set(['tensorflow.logical_not', 'tensorflow.math.logical_not', 'torch.logical_not']);

/** Library functions that build or combine masks (by qualified name); undefined for every other function. */
/** FlexAttention's mask builders: `create_block_mask(mask_mod, B, H, Q_LEN, KV_LEN)`, `create_mask(mod_fn, ...)`. */
const FLEX_MASK_BUILDERS = new Set(['torch.nn.attention.flex_attention.create_block_mask', 'torch.nn.attention.flex_attention.create_mask']);

/**
 * A FlexAttention `mask_mod(b, h, q_idx, kv_idx)` returns True where the query may attend to the key (PyTorch's
 * documentation of `create_block_mask`). Its body is evaluated with `q_idx` as the query positions and `kv_idx` as the
 * key positions, as `arange(L)[:, None]` and `arange(S)[None, :]` are, so `q_idx >= kv_idx` is a keep (lower) triangle
 * and `kv_idx < lengths[b]` a keep padding mask; what it returns is then checked as a mask that must be True = attend.
 */
function flexMaskMod(ev: Evaluator, c: Call, qname: string): AValue {
  const fnNode = c.args.positional[0] ?? arg(c, 'mask_mod') ?? arg(c, 'mod_fn');
  const fn = fnNode ? val(ev, c, fnNode) : undefined;
  if (!fnNode || fn?.kind !== 'function' || !fn.fn) return tensor();
  const positions = (axis: -1 | -2): AValue => tensor({ ndim: 2, axes: [{ label: 'seq' }, { label: 'seq' }], index: { axis, offset: 0 } });
  const mask = ev.summaryCall(fn.fn.scope, [UNKNOWN, UNKNOWN, positions(-2), positions(-1)], new Map());
  if (mask.mask?.polarity && !mask.mask.byName && !mask.mask.additive)
    ev.facts.mask.push({
      node: c.node,
      ctx: c.ctx,
      display: qname.slice(qname.lastIndexOf('.') + 1),
      param: 'mask_mod',
      expects: 'keep',
      convention: 'api',
      maskNode: fnNode,
      mask,
    });
  return tensor();
}

/**
 * transformers' helpers that expand a (B, S) attention_mask (1 = attend, the tokenizer's) into the additive 4-D mask
 * its attention layers add to the scores: `_prepare_4d_attention_mask(mask, dtype, tgt_len)`, and the causal and SDPA
 * variants, whose first argument is the same 2-D mask.
 */
const HF_MASK_EXPANDERS: Readonly<Record<string, string>> = {
  'transformers.modeling_attn_mask_utils._prepare_4d_attention_mask': 'mask',
  'transformers.modeling_attn_mask_utils._prepare_4d_attention_mask_for_sdpa': 'mask',
  'transformers.modeling_attn_mask_utils._prepare_4d_causal_attention_mask': 'attention_mask',
  'transformers.modeling_attn_mask_utils._prepare_4d_causal_attention_mask_for_sdpa': 'attention_mask',
};

/**
 * The 2-D mask given to one of transformers' expanders is read as 1 = attend (checked as an API's mask argument), and
 * what it returns is additive (0 where attended, the dtype's minimum elsewhere), so `.bool()` of it is True where masked.
 */
function hfMaskExpander(ev: Evaluator, c: Call, qname: string, param: string): AValue {
  const node = c.args.positional[0] ?? arg(c, param);
  const given = node && unparen(node).type !== 'none' ? val(ev, c, node) : undefined;
  const display = qname.slice(qname.lastIndexOf('.') + 1);
  if (node && given) ev.facts.mask.push({ node: c.node, ctx: c.ctx, display, param, expects: 'keep', convention: 'api', maskNode: node, mask: given });
  if (!given?.mask?.polarity || given.mask.byName) return tensor({ ndim: 4, dtype: 'float' });
  const causal = qname.includes('causal');
  return tensor({
    ndim: 4,
    dtype: 'float',
    mask: {
      additive: true,
      dtype: 'float',
      padding: true,
      padAxes: [-1],
      ...(causal ? { causal: true } : {}),
      why: msg(PHRASES.builtFrom, `\`${ev.text(c.node).slice(0, 50)}\``, given.mask.why),
    },
  });
}

export function maskFunction(ev: Evaluator, c: Call, qname: string): AValue | undefined {
  const last = qname.slice(qname.lastIndexOf('.') + 1);
  const p = c.args.positional;
  // tf.sequence_mask(lengths, maxlen): True at positions before each length (a keep mask over the last axis).
  if (qname === 'tensorflow.sequence_mask') {
    const lengths = val(ev, c, p[0] ?? arg(c, 'lengths'));
    const ndim = lengths.kind === 'tensor' && lengths.ndim !== undefined ? lengths.ndim + 1 : undefined;
    const why = msg(PHRASES.trueBeforeLengths, `\`${ev.text(c.node)}\``);
    return tensor({
      ...(ndim !== undefined ? { ndim, axes: Array.from({ length: ndim }, () => ({})) } : {}),
      dtype: 'bool',
      mask: { polarity: 'keep', dtype: 'bool', padding: true, padAxes: [-1], why },
    });
  }
  if (last === 'generate_square_subsequent_mask') return causalAdditive(ev, c);
  // A NumPy mask brought into torch is the same mask (`torch.from_numpy(np.triu(np.ones((T, T)), k=1))`).
  if (qname === 'torch.from_numpy') {
    const a = val(ev, c, p[0]);
    return a.kind === 'tensor' && a.mask ? a : undefined;
  }
  if (qname === 'flax.linen.make_attention_mask' || qname === 'flax.linen.attention.make_attention_mask') {
    // pairwise AND of query-side and key-side validity flags: True = may attend, if the inputs mean "valid".
    const qm = val(ev, c, p[0]);
    const km = val(ev, c, p[1]);
    if (qm.mask?.polarity && km.mask?.polarity === qm.mask.polarity) {
      return tensor({
        dtype: 'bool',
        mask: {
          polarity: qm.mask.polarity,
          dtype: 'bool',
          padding: true,
          padAxes: [-1, -2],
          why: msg(PHRASES.builtFrom, `\`${ev.text(c.node).slice(0, 50)}\``, qm.mask.why),
        },
      });
    }
    return tensor({ dtype: 'bool' });
  }
  if (FLEX_MASK_BUILDERS.has(qname)) return flexMaskMod(ev, c, qname);
  const expanded = HF_MASK_EXPANDERS[qname];
  if (expanded) return hfMaskExpander(ev, c, qname, expanded);
  if (qname === 'flax.linen.make_causal_mask' || qname === 'flax.linen.attention.make_causal_mask') {
    return tensor({ dtype: 'bool', mask: triMask({ region: 'lower', k: 0 }, 'bool', `\`${ev.text(c.node).slice(0, 50)}\``) });
  }
  if (qname === 'tensorflow.linalg.band_part' || qname === 'tensorflow.matrix_band_part') {
    return bandPart(ev, c, val(ev, c, p[0]), p[1] ?? arg(c, 'num_lower'), p[2] ?? arg(c, 'num_upper'));
  }
  if (TRIANGLE_FUNCTIONS.has(qname)) {
    const kNode = arg(c, qname.startsWith('torch.') ? 'diagonal' : 'k', 1);
    return triValue(ev, c, val(ev, c, p[0]), last === 'tril' ? 'lower' : 'upper', kNode, last, p[0]);
  }
  if (WHERE_FUNCTIONS.has(qname))
    return where(ev, c, p[0] ?? arg(c, 'condition'), p[1] ?? arg(c, 'input') ?? arg(c, 'x'), p[2] ?? arg(c, 'other') ?? arg(c, 'y'));
  const eqOp = EQUALITY_FUNCTIONS[qname];
  if (eqOp) return p[0] && p[1] ? compare(ev, eqOp, val(ev, c, p[0]), val(ev, c, p[1]), p[0], p[1], c.ctx) : tensor({ dtype: 'bool' });
  if (NOT_FUNCTIONS.has(qname)) {
    const xNode = p[0] ?? arg(c, 'input') ?? arg(c, 'x');
    return maskMethod(
      ev,
      { ...c, name: 'logical_not', recv: val(ev, c, xNode), recvNode: xNode, args: { ...c.args, positional: p.slice(1) } },
      tensorish(val(ev, c, xNode)),
    );
  }
  return undefined;
}

/**
 * A constant written into scores that does not mask (zero, a tiny or positive number, +inf): a number, or a tensor
 * filled with one (`torch.full_like(scores, 0.0)`, `torch.zeros_like(scores)`), as that number; undefined otherwise.
 */
export function weakFillValue(v: AValue): AValue | undefined {
  if (v.kind === 'number') return v.num !== undefined && !isMaskingFill(v) ? v : undefined;
  if (v.kind !== 'tensor' || v.mask || v.attn) return undefined;
  if (v.fillValue !== undefined && v.fillFinfo === undefined && !isMaskingFill(v)) return number({ num: v.fillValue });
  return v.zeros && v.fillValue === undefined ? number({ num: 0 }) : undefined;
}

/**
 * A condition that tests values rather than positions (`torch.isnan(scores)`, `~torch.isfinite(scores)`,
 * `scores.isinf()`), or compares the values it selects from (`scores < t`), bound to a name first or not: a clean-up
 * or pruning of those values, not a mask of positions. A mention of the values for their shape alone
 * (`m.expand_as(scores)`) tests nothing.
 */
export function testsItself(ev: Evaluator, condNode: PyNode, valuesNode: PyNode): boolean {
  const name = rootName(ev, valuesNode);
  const u = unparen(condNode);
  const conds = [u];
  if (u.type === 'identifier') for (const d of ev.resolve(u, ev.text(u)) ?? []) if (d.value) conds.push(unparen(d.value));
  const mentions = (n: PyNode): boolean => !!name && new RegExp(`(^|[^\\w.])${name.replace(/[.]/g, '\\.')}\\b`).test(ev.text(n));
  return conds.some((c) => /\bis(?:nan|inf|finite|neginf|posinf)\b/.test(ev.text(c)) || (c.type === 'comparison_operator' && mentions(c)));
}

/**
 * A scalar whose value the code does not show (a constructor argument, a config field whose class is not in view, a
 * name imported from a module outside the workspace): it may be a masking fill or not; no evidence either way.
 */
export function isUnshownScalar(v: AValue): boolean {
  if (v.kind === 'unknown' || v.kind === 'module') return true;
  return v.kind === 'number' && v.num === undefined && !v.finfo && !v.maskingFill;
}

/** A large negative or -inf fill (what masking writes). */
export function isMaskingFill(v: AValue): boolean {
  if (v.kind === 'tensor' && v.fillValue !== undefined) return v.fillValue <= -1e4;
  if (v.kind !== 'number') return false;
  if (v.finfo && !v.finfoMax) return true;
  // A masking fill on every path, a different one on each (`FP16_MIN if dtype == tf.float16 else -1e9`).
  if (v.maskingFill) return true;
  return v.num !== undefined && v.num <= -1e4;
}

/**
 * A per-example (B, S) mask placed along one axis of a larger tensor: records where its S axis went (`axis`, a
 * negative index) and what it was (`source`, the text of a name), so that a product of the two placements can be
 * recognised (pairProduct). `sourceRank` is the rank the operation shows the source has (2 for `b j` or for two
 * slices); nothing is recorded for other ranks or for sources that are not plain names.
 */
export function spreadMask(ev: Evaluator, out: AValue, sourceNode: PyNode | undefined, sourceRank: number | undefined, axis: number | undefined): AValue {
  if (!out.mask || !sourceNode || sourceRank !== 2 || axis === undefined || (axis !== -1 && axis !== -2)) return out;
  const u = unparen(sourceNode);
  return { ...out, mask: { ...out.mask, spread: { source: ev.text(u).replace(/\s+/g, ' '), axis } } };
}

/** Where `m[items]` puts the last axis of a 2-D m (all items `:` or None, no ellipsis), else undefined. */
export function subscriptSpread(ev: Evaluator, subs: readonly PyNode[]): { rank: number; axis: number } | undefined {
  let rank = 0;
  let last = -1;
  // `m[..., :, None]` / `m[..., None, :]`: the leading axes whatever they are (blocks of a padding mask), the last
  // one placed as `m[:, :, None]` / `m[:, None, :]` place it; read as the (B, S) case.
  const first = subs[0];
  const leading = subs.length === 3 && first !== undefined && unparen(first).type === 'ellipsis';
  for (const [i, s] of subs.entries()) {
    const u = unparen(s);
    if (u.type === 'slice' && ev.text(u).trim() === ':') {
      rank++;
      last = i;
    } else if (leading && i === 0) rank++;
    else if (u.type !== 'none') return undefined;
  }
  return last < 0 ? undefined : { rank, axis: last - subs.length };
}

/**
 * `m[:, None, :, None] * m[:, None, None, :]` (or `&`, or `rearrange`/`unsqueeze` forms): one (B, S) mask spread over
 * the query axis and over the key axis and multiplied, a pair kept only where both of its positions are. Only a
 * keep mask gives that product a meaning (with True at padding it would select the pairs of two padding positions),
 * so the product is a keep mask padded along both axes, whatever the source's name said.
 */
export function pairProduct(lv: AValue, rv: AValue): AValue | undefined {
  const m = lv.mask;
  const a = m?.spread;
  const b = rv.mask?.spread;
  if (!m || !rv.mask || !a || !b || a.axis === b.axis) return undefined;
  // A query mask times a key mask (`q_mask[:, :, None] * k_mask[:, None, :]`, the key side permuted or flipped
  // first) is read the same way: with True at padding the product would select pairs of two padding positions.
  if ((m.polarity === 'ignore' && !m.byName) || (rv.mask.polarity === 'ignore' && !rv.mask.byName)) return undefined;
  // Both terms flipped to True at padding from a name (`mask_d.eq(0)`, `~src_mask`): read as the pair of keep masks the
  // product only makes sense of, but what the code wrote is True where both positions are padding (MaskInfo.paddingPair).
  const zeros = (t: MaskInfo): boolean => (t.polarity === 'ignore' && !!t.byName) || (!t.polarity && !!t.zerosOf);
  const paddingPair = zeros(m) && zeros(rv.mask);
  const dtype = lv.dtype ?? m.dtype;
  return tensor({
    ...(lv.ndim !== undefined && rv.ndim !== undefined ? { ndim: Math.max(lv.ndim, rv.ndim) } : {}),
    ...(dtype ? { dtype } : {}),
    mask: {
      polarity: 'keep',
      padding: true,
      padAxes: [-2, -1],
      pairJoin: 'and',
      ...(dtype ? { dtype } : {}),
      ...(paddingPair ? { paddingPair: true as const } : {}),
      why:
        a.source === b.source
          ? msg(paddingPair ? PHRASES.pairOfPaddingMask : PHRASES.pairOfMask, `\`${a.source}\``)
          : msg(
              paddingPair ? PHRASES.pairOfPaddingMasks : PHRASES.pairOfMasks,
              `\`${a.axis === -2 ? a.source : b.source}\``,
              `\`${a.axis === -2 ? b.source : a.source}\``,
            ),
    },
  });
}

export function maskLogic(lv: AValue, rv: AValue, op: 'and' | 'or'): AValue {
  // A count of masks (0 to 2) bitwise-and another mask is no logical and (2 & 1 is 0).
  if (op === 'and' && (lv.mask?.count || rv.mask?.count)) return broadcastResult(stripFacts(lv), stripFacts(rv));
  if (op === 'and') {
    const pair = pairProduct(lv, rv);
    if (pair) return pair;
  }
  if (lv.mask && rv.mask) {
    const m = combineMasks(lv.mask, rv.mask, op);
    const ndim = lv.ndim !== undefined && rv.ndim !== undefined ? Math.max(lv.ndim, rv.ndim) : undefined;
    return tensor({ ...(ndim !== undefined ? { ndim, axes: Array.from({ length: ndim }, () => ({})) } : {}), ...(m ? { mask: m } : {}), dtype: 'bool' });
  }
  if (lv.mask && rv.kind !== 'tensor') return lv;
  // A causal triangle with a tensor the code shows nothing of (`future | pad` of a helper's result): the result still
  // contains the triangle's True entries (or) or lies within them (and).
  const [tri, other] = lv.mask && !rv.mask ? [lv, rv] : rv.mask && !lv.mask ? [rv, lv] : [];
  const bound = tri?.mask && other?.kind === 'tensor' && !other.attn && !other.tokenIds ? causalBoundOf(tri.mask, undefined) : {};
  if (tri?.mask && bound.causalBound)
    return {
      ...broadcastResult(lv, rv),
      mask: { why: msg(PHRASES.combined, tri.mask.why, op === 'and' ? '&' : '|', 'a tensor of unknown meaning'), ...bound },
      dtype: 'bool',
    };
  return broadcastResult(lv, rv);
}

/**
 * `maximum(a, b)` / `minimum(a, b)` of two 0/1 masks of one polarity (`tf.maximum(pad_mask, look_ahead_mask)`): the
 * elementwise max is 1 where either is (their or), the min where both are (their and). Undefined (the generic
 * transfer decides) unless both are 0/1 masks by construction: an additive mask's max is not a logical operation.
 */
function zeroOneExtremum(lv: AValue, rv: AValue, op: 'and' | 'or'): AValue | undefined {
  if (!lv.mask || !rv.mask || lv.mask.additive || rv.mask.additive) return undefined;
  const m = combineMasks(lv.mask, rv.mask, op);
  if (!m) return undefined;
  const dtype = lv.dtype === rv.dtype ? lv.dtype : undefined;
  const ndim = lv.ndim !== undefined && rv.ndim !== undefined ? Math.max(lv.ndim, rv.ndim) : undefined;
  const { why: _why, ...facts } = m;
  return tensor({
    ...(ndim !== undefined ? { ndim, axes: Array.from({ length: ndim }, () => ({})) } : {}),
    ...(dtype ? { dtype } : {}),
    mask: { ...facts, dtype: dtype ?? m.dtype, why: msg(PHRASES.combined, lv.mask.why, op === 'or' ? 'max' : 'min', rv.mask.why) },
  });
}

/** A 0/1 mask by construction, or a tensor whose name says mask. */
export function isMaskLike(ev: Evaluator, v: AValue, node: PyNode): boolean {
  if (v.mask) return true;
  const name = rootName(ev, node);
  return !!name && namesAMask(name) && !/head_mask/i.test(name);
}

/**
 * The name says the tensor is a mask: `mask`, `attn_mask`, `tmask`, `causal_masks`. A name whose only "mask" is
 * the participle (`masked_logp`, `masked_scores`, `unmasked`) names a value after masking, the data and not the
 * mask: `p * masked_logp` is an entropy term, not weights times a mask.
 */
export function namesAMask(name: string): boolean {
  return /mask(?!ed)/i.test(name);
}

export function isHeadMask(ev: Evaluator, node: PyNode): boolean {
  const name = rootName(ev, node) ?? '';
  return /head_mask|layer_head_mask|head_weight/i.test(name);
}

export function evalComparison(ev: Evaluator, node: PyNode, ctx: Ctx): AValue {
  const operands = namedChildren(node);
  const ops = childrenByField(node, 'operators').map((o) => ev.text(o));
  if (operands.length !== 2 || ops.length !== 1) return { kind: 'bool' };
  const op = ops[0] ?? ''; // one operator (checked above)
  const [a, b] = operands;
  if (!a || !b) return { kind: 'bool' }; // two operands (checked above)
  if (op === 'in' || op === 'not in') return stringMembership(ev, op, a, b, node, ctx) ?? { kind: 'bool' };
  if (op === 'is' || op === 'is not') return { kind: 'bool' };
  const av = ev.eval(a, ctx);
  const bv = ev.eval(b, ctx);
  const switched = stringSwitch(op, av, bv, node) ?? dtypeSwitch(op, av, bv, node);
  if (switched) return switched;
  return compare(ev, op, av, bv, a, b, ctx);
}

/**
 * `mode == "scaled"` where both strings are known in this context (a literal, or what this call passed): a flag
 * with that truth. A parameter with no caller in view (`unbound`) is not known, whatever its default.
 */
function stringSwitch(op: string, av: AValue, bv: AValue, node: PyNode): AValue | undefined {
  if (op !== '==' && op !== '!=') return undefined;
  // `mask_mode == "tril"` where this call passed None (or left out a None default, `mask_mode=None`): None equals no
  // string. A parameter with no caller in view is not known (`unbound`).
  const noneVsString = (n: AValue, s: AValue): boolean =>
    n.kind === 'none' && !n.unbound && s.kind === 'string' && s.str !== undefined && !s.unbound && !s.maybeNone;
  if (noneVsString(av, bv) || noneVsString(bv, av)) return { kind: 'bool', truth: op === '!=', setAt: node };
  if (av.kind !== 'string' || bv.kind !== 'string' || av.str === undefined || bv.str === undefined) return undefined;
  if (av.unbound || bv.unbound || av.maybeNone || bv.maybeNone) return undefined;
  return { kind: 'bool', truth: (av.str === bv.str) === (op === '=='), setAt: node };
}

/**
 * `mask.dtype == torch.bool` (or `!=`) where the tensor's dtype is known in this context (a boolean mask built or
 * passed here, a float one): a flag with that truth, so an `if`/`elif` chain over dtypes runs only its arm for the
 * mask the code really holds. Two kinds (bool, integer, floating) that differ are unequal; a floating dtype of
 * unknown width against another floating one says nothing.
 */
function dtypeSwitch(op: string, av: AValue, bv: AValue, node: PyNode): AValue | undefined {
  if (op !== '==' && op !== '!=') return undefined;
  if (av.kind !== 'dtype' || bv.kind !== 'dtype' || !av.dtypeName || !bv.dtypeName) return undefined;
  const same = dtypeEquality(av.dtypeName, bv.dtypeName);
  return same === undefined ? undefined : { kind: 'bool', truth: same === (op === '=='), setAt: node };
}

/** Whether two known dtypes are equal: undefined for a floating dtype of unknown width against another floating one. */
export function dtypeEquality(a: DType, b: DType): boolean | undefined {
  const family = (d: DType): string => (d === 'bool' || d === 'int' ? d : 'float');
  if (family(a) !== family(b)) return false;
  if (a === b) return a !== 'float' ? true : undefined;
  return a === 'float' || b === 'float' ? undefined : false;
}

/**
 * `kind in ("k", "key", "keys")` (or `not in`) where the string is known in this context and the container is a
 * tuple, list or set written out of string literals: a flag with that truth, as `kind == "key"` is (a string switch
 * with aliases per arm). Any other container (a name, a non-literal element) is not known.
 */
function stringMembership(ev: Evaluator, op: string, a: PyNode, b: PyNode, node: PyNode, ctx: Ctx): AValue | undefined {
  const box = unparen(b);
  if (box.type !== 'tuple' && box.type !== 'list' && box.type !== 'set') return undefined;
  const items = namedChildren(box).filter((c) => c.type !== 'comment');
  const strs = items.map((c) => (c.type === 'string' ? ev.eval(c, ctx) : undefined));
  if (items.length === 0 || strs.some((v) => v?.kind !== 'string' || v.str === undefined)) return undefined;
  const av = ev.eval(a, ctx);
  if (av.kind !== 'string' || av.str === undefined || av.unbound || av.maybeNone) return undefined;
  const found = strs.some((v) => v?.kind === 'string' && v.str === av.str);
  return { kind: 'bool', truth: found === (op === 'in'), setAt: node };
}

/** Conversions that carry a list of lengths into an array as it is (`np.asarray(lens)`, `torch.tensor(lengths)`). */
const AS_ARRAY = /(^|\.)(asarray|array|tensor|as_tensor|from_numpy|LongTensor|IntTensor|convert_to_tensor)$/;

/**
 * The name of the lengths a position index is compared with: the root name of the expression (`lengths[:, None]`,
 * `x_lens.unsqueeze(1)`), looking through a conversion into an array (`np.asarray(lens)[:, None]`).
 */
function lengthsName(ev: Evaluator, node: PyNode): string {
  let n = unparen(node);
  for (let i = 0; i < 8; i++) {
    while (n.type === 'subscript') n = unparen(childByField(n, 'value') ?? n);
    const f = n.type === 'call' ? childByField(n, 'function') : undefined;
    // A method on the result (`.unsqueeze(1)`, `.to(device)`): its object.
    if (f?.type === 'attribute' && !AS_ARRAY.test(ev.text(f))) {
      const obj = childByField(f, 'object');
      if (obj && unparen(obj).type !== 'identifier') {
        n = unparen(obj);
        continue;
      }
    }
    const first = f && AS_ARRAY.test(ev.text(f)) ? namedChildren(childByField(n, 'arguments') ?? n)[0] : undefined;
    if (!first || first.type === 'keyword_argument') break;
    n = unparen(first);
  }
  return rootName(ev, n) ?? ev.text(n);
}

/**
 * Lengths written as a column: `lens[:, None]`, `lens[:, np.newaxis]`, `lens.unsqueeze(1)` / `unsqueeze(-1)`,
 * `lens.view(-1, 1)` / `reshape(-1, 1)` (a vector of one length per sequence given a trailing axis of length 1).
 */
function lengthsColumn(ev: Evaluator, n0: PyNode): boolean {
  const n = unparen(n0);
  if (n.type === 'subscript') {
    const items = childrenByField(n, 'subscript').map((x) => ev.text(x).replace(/\s+/g, ''));
    return items.length === 2 && items[0] === ':' && /^(?:None|np\.newaxis|numpy\.newaxis)$/.test(items[1] ?? '');
  }
  if (n.type !== 'call') return false;
  const fn = childByField(n, 'function');
  if (fn?.type !== 'attribute') return false;
  const method = ev.text(childByField(fn, 'attribute') ?? fn);
  const args = namedChildren(childByField(n, 'arguments') ?? n).map((x) => ev.text(x).replace(/\s+/g, ''));
  if (method === 'unsqueeze') return args.length === 1 && (args[0] === '1' || args[0] === '-1');
  if (method === 'view' || method === 'reshape') return args.length === 2 && args[0] === '-1' && args[1] === '1';
  return false;
}

function compare(ev: Evaluator, op: string, av: AValue, bv: AValue, a: PyNode, b: PyNode, ctx: Ctx): AValue {
  if (av.kind !== 'tensor' && bv.kind !== 'tensor' && av.kind !== 'unknown' && bv.kind !== 'unknown') return { kind: 'bool' };
  const ndim = av.ndim !== undefined && bv.ndim !== undefined ? Math.max(av.ndim, bv.ndim) : av.kind === 'tensor' && bv.kind !== 'tensor' ? av.ndim : undefined;
  const shape = ndim !== undefined ? { ndim, axes: Array.from({ length: ndim }, () => ({})) } : {};
  // Scores cut to a triangle compared with 0 (`torch.triu(scores) != 0`): the triangle they were cut to, as
  // triu/tril of ones gives it (True on the kept side for `!=`, the other side for `==`). Only the value of the call
  // itself or of a name bound to it alone, so arithmetic on the cut scores in between reads nothing.
  const cut = triCutCompared(ev, op, av, bv, a, b, ctx) ?? triCutCompared(ev, op, bv, av, b, a, ctx);
  if (cut) return tensor({ ...shape, dtype: 'bool', mask: cut });
  // Causal masks from positions: arange(T)[:, None] >= arange(T)[None, :]
  if (av.index && bv.index && av.index.axis !== bv.index.axis) {
    const tri = indexCompare(op, av.index, bv.index);
    if (tri) {
      const [qNode, kNode] = av.index.axis === -2 ? [a, b] : [b, a];
      const qSize = arangeSize(ev, qNode);
      const kSize = arangeSize(ev, kNode);
      const sizes = qSize && kSize ? ([qSize, kSize] as const) : undefined;
      const align = triangleAlign(ev, tri.region, tri.k, undefined, sizes);
      return tensor({
        ...shape,
        dtype: 'bool',
        mask: { ...triMask(tri, 'bool', `\`${ev.text(a)} ${op} ${ev.text(b)}\``), ...(align ? { align } : {}), ...(sizes ? { sizes } : {}) },
      });
    }
  }
  // Padding masks from lengths: arange(S)[None, :] < lengths[:, None] is True at valid positions (keep);
  // >= marks the padding (ignore).
  const lengthMask = (posFirst: boolean): AValue | undefined => {
    const [pos, len, lenNode] = posFirst ? [av, bv, b] : [bv, av, a];
    if (!pos.index || len.index || len.mask || len.unorderedRange) return undefined;
    // What the bound counts, read as in the loop form (`m[i, :n] = True`, bound-counts.ts): a count of padding
    // (`W - lens`, `(ids == pad_id).sum(-1)`) puts True before it at the left padding; one that may count either
    // (`W - n`, `pad_len`) gives no polarity.
    const counted = boundCount(ev, lenNode, ctx);
    if (counted === 'unclear') return undefined;
    const padCount = counted === 'padding';
    const lenName = lengthsName(ev, lenNode);
    if (!padCount && !/(^|_)(len|lens|length|lengths|seq_lens?|seqlens?|valid_lens?|n_tokens|num_tokens|ntokens)($|_)|lengths?$|lens$/i.test(lenName))
      return undefined;
    const o = posFirst ? op : mirror(op);
    const before = o === '<' ? true : o === '>=' ? false : undefined;
    if (before === undefined) return undefined;
    const keep = before !== padCount;
    const shown = `\`${ev.text(a)} ${op} ${ev.text(b)}\``;
    const why = padCount
      ? msg(before ? PHRASES.trueBeforePadCounts : PHRASES.truePastPadCounts, shown)
      : msg(before ? PHRASES.trueBeforeLengths : PHRASES.truePastLengths, shown);
    const m: MaskInfo = {
      polarity: keep ? 'keep' : 'ignore',
      dtype: 'bool',
      padding: true,
      ...(pos.index.axis === -1 ? { padAxes: [-1] } : {}),
      ...(padCount ? {} : { lengthBound: lenName }),
      why,
    };
    // A row of positions (`arange(T)[None, :]`, `arange(T).expand(B, T)`: two axes) against the lengths made a column
    // (`lens[:, None]`, `lens.unsqueeze(1)`): the lengths are one per sequence, so the mask is (B, T) even where their
    // own rank is not shown, and a later `unsqueeze(2)` appends an axis after the positions' (a (B, T, 1) mask).
    const rank = shape.ndim === undefined && pos.ndim === 2 && lengthsColumn(ev, lenNode) ? { ndim: 2, axes: [{}, {}] } : shape;
    return tensor({ ...rank, dtype: 'bool', mask: m });
  };
  const fromLengths = lengthMask(true) ?? lengthMask(false);
  if (fromLengths) return fromLengths;
  const ordered = orderAcrossAxes(ev, op, av, bv, a, b);
  if (ordered) return tensor({ ...shape, dtype: 'bool', mask: ordered });
  // Padding masks from token ids.
  const padAgainst = (ids: AValue, idsNode: PyNode, other: AValue, otherNode: PyNode): boolean => {
    const otherName = rootName(ev, otherNode) ?? ev.text(otherNode);
    const idsName = rootName(ev, idsNode) ?? '';
    if (isPadIdName(otherName) || /pad/i.test(ev.text(otherNode))) return ids.kind === 'tensor' || ids.kind === 'unknown';
    if (other.kind === 'number' && other.num === 0 && tokenIdsNamed(ids, idsName) && !ids.mask && !picksFromLastAxis(ev, idsNode)) return true;
    return false;
  };
  const fromIds = (ids: AValue, idsNode: PyNode): AValue => {
    const keep = op === '!=';
    const why = `\`${ev.text(a)} ${op} ${ev.text(b)}\``;
    const m: MaskInfo = {
      polarity: keep ? 'keep' : 'ignore',
      dtype: 'bool',
      padding: true,
      padAxes: [-1],
      why: msg(keep ? PHRASES.trueAtRealTokens : PHRASES.trueAtPadding, why),
    };
    void idsNode;
    return tensor({ ...(ids.ndim !== undefined ? { ndim: ids.ndim, axes: ids.axes } : {}), dtype: 'bool', mask: m });
  };
  // A comparison of token ids read as a padding mask over their last axis: `keep` is its polarity (undefined: no
  // padding comparison), the two phrases say why, at real tokens or at padding.
  const idsPaddingMask = (ids: AValue, idsNode: PyNode, keep: boolean | undefined, atTokens: Template, atPadding: Template): AValue | undefined => {
    if (keep === undefined || !tokenIdsNamed(ids, rootName(ev, idsNode) ?? '') || picksFromLastAxis(ev, idsNode)) return undefined;
    const why = msg(keep ? atTokens : atPadding, `\`${ev.text(a)} ${op} ${ev.text(b)}\``);
    return tensor({
      ...(ids.ndim !== undefined ? { ndim: ids.ndim, axes: ids.axes } : {}),
      dtype: 'bool',
      mask: { polarity: keep ? 'keep' : 'ignore', dtype: 'bool', padding: true, padAxes: [-1], why },
    });
  };
  // Token ids against a negative padding id (`x < 0`, `ids >= 0`, `phoneme_ids != -1`): an embedding has no row for a
  // negative id, so the negative entries are the padding (or a mask token the code clears before the lookup) and the
  // others the tokens. With padding id 0 instead, `ids < 0` is all False and `ids >= 0` all True: read in the meaning
  // below, a use that gets it the wrong way round still hides every token (filled where `~(ids < 0)` or `ids >= 0`).
  const negativeIds = (ids: AValue, idsNode: PyNode, other: AValue, o: string): AValue | undefined => {
    if (other.kind !== 'number' || other.num === undefined || ids.mask || !Number.isInteger(other.num)) return undefined;
    const n = other.num;
    const keep =
      (o === '>=' && n === 0) || (o === '>' && n === -1) || (o === '!=' && n < 0)
        ? true
        : (o === '<' && n === 0) || (o === '<=' && n === -1) || (o === '==' && n < 0)
          ? false
          : undefined;
    return idsPaddingMask(ids, idsNode, keep, PHRASES.trueAtRealTokensNegativePad, PHRASES.trueAtPaddingNegativePad);
  };
  // Token ids against the padding id 0 by order: `input_ids > 0` is True at real tokens, `input_ids < 1` at padding.
  const orderedIds = (ids: AValue, idsNode: PyNode, other: AValue, o: string): AValue | undefined => {
    if (other.kind !== 'number' || ids.mask) return undefined;
    const keep =
      (o === '>' && other.num === 0) || (o === '>=' && other.num === 1)
        ? true
        : (o === '<' && other.num === 1) || (o === '<=' && other.num === 0)
          ? false
          : undefined;
    return idsPaddingMask(ids, idsNode, keep, PHRASES.trueAtRealTokensPadZero, PHRASES.trueAtPaddingPadZero);
  };
  // Features summed over their last axis against 0 (`x.sum(dim=-1) != 0`, `x.abs().sum(-1) == 0`): padded positions
  // hold zero vectors, so `!=` is True at real positions (a keep mask over them) and `==` at the padding.
  const featureSums = (sum: AValue, other: AValue, o: string): AValue | undefined => {
    const r = sum.reduced;
    const of = r?.of;
    if (r?.kind !== 'sum' || !of || of.kind !== 'tensor' || other.kind !== 'number' || other.num !== 0 || (o !== '==' && o !== '!=')) return undefined;
    const lastAxis = r.axis === -1 || (r.axis !== undefined && r.axis !== 'all' && of.ndim !== undefined && r.axis === of.ndim - 1);
    if (!lastAxis || of.mask || of.attn || of.tokenIds || of.ones || of.zeros || of.index) return undefined;
    const keep = o === '!=';
    const why = msg(keep ? PHRASES.trueAtNonzeroFeatures : PHRASES.trueAtZeroFeatures, `\`${ev.text(a)} ${op} ${ev.text(b)}\``);
    return tensor({
      ...(sum.ndim !== undefined ? { ndim: sum.ndim, axes: sum.axes } : {}),
      dtype: 'bool',
      mask: { polarity: keep ? 'keep' : 'ignore', dtype: 'bool', padding: true, padAxes: [-1], why },
    });
  };
  const summed = featureSums(av, bv, op) ?? featureSums(bv, av, mirror(op));
  if (summed) return summed;
  const byOrder = orderedIds(av, a, bv, op) ?? orderedIds(bv, b, av, mirror(op));
  if (byOrder) return byOrder;
  const negative = negativeIds(av, a, bv, op) ?? negativeIds(bv, b, av, mirror(op));
  if (negative) return negative;
  if ((op === '==' || op === '!=') && padAgainst(av, a, bv, b)) return fromIds(av, a);
  if ((op === '==' || op === '!=') && padAgainst(bv, b, av, a)) return fromIds(bv, b);
  // Comparisons of a mask with a constant keep or flip it.
  const [m, c, mNode, flipOrder] = av.mask ? [av, bv, a, false] : bv.mask ? [bv, av, b, true] : [undefined, undefined, undefined, false];
  if (m && c && mNode && m.mask) {
    const constant = c.kind === 'number' ? c.num : c.kind === 'bool' ? (ev.text(flipOrder ? a : b) === 'True' ? 1 : 0) : undefined;
    const finfoLike = c.kind === 'number' && (c.finfo !== undefined || c.num === -Infinity);
    const o = flipOrder ? mirror(op) : op;
    const why = `\`${ev.text(a)} ${op} ${ev.text(b)}\``;
    if (m.mask.additive) {
      // additive == 0 → keep; additive == -inf / < 0 → ignore
      if ((o === '==' && constant === 0) || (o === '>=' && constant === 0) || (o === '!=' && finfoLike))
        return tensor({ ...shape, dtype: 'bool', mask: { ...m.mask, additive: undefined, polarity: 'keep', dtype: 'bool', why } });
      if ((o === '==' && finfoLike) || (o === '<' && constant === 0) || (o === '!=' && constant === 0))
        return tensor({ ...shape, dtype: 'bool', mask: { ...m.mask, additive: undefined, polarity: 'ignore', dtype: 'bool', why } });
      return tensor({ ...shape, dtype: 'bool' });
    }
    // A count of masks (`pad + subsequent`, 0 to 2): only nonzero and zero are a logical reading of it.
    if (constant !== undefined && m.mask.count) {
      const { count: _count, ...or } = m.mask;
      const nonzero = (o === '!=' && constant === 0) || (o === '>' && constant >= 0 && constant < 1) || (o === '>=' && constant > 0 && constant <= 1);
      const zero = (o === '==' && constant === 0) || (o === '<' && constant > 0 && constant <= 1) || (o === '<=' && constant >= 0 && constant < 1);
      if (nonzero) return { ...m, dtype: 'bool', mask: withMaskDtype({ ...or, why: msg(PHRASES.sameAs, why, or.why) }, 'bool') };
      const f = zero ? flipMask(or, why, 'bool') : undefined;
      return tensor({ ...shape, ndim: m.ndim, axes: m.axes, dtype: 'bool', ...(f ? { mask: f } : {}) });
    }
    if (constant !== undefined) {
      const same =
        (o === '==' && constant === 1) ||
        (o === '!=' && constant === 0) ||
        (o === '>' && constant >= 0 && constant < 1) ||
        (o === '>=' && constant > 0 && constant <= 1);
      const flip =
        (o === '==' && constant === 0) ||
        (o === '!=' && constant === 1) ||
        (o === '<' && constant > 0 && constant <= 1) ||
        (o === '<=' && constant >= 0 && constant < 1);
      if (same) return { ...m, dtype: 'bool', mask: withMaskDtype({ ...m.mask, why: msg(PHRASES.sameAs, why, m.mask.why) }, 'bool') };
      if (flip) {
        const f = flipMask(m.mask, why, 'bool');
        return tensor({ ...shape, ndim: m.ndim, axes: m.axes, dtype: 'bool', ...(f ? { mask: f } : {}) });
      }
    }
    return tensor({ ...shape, dtype: 'bool' });
  }
  return tensor({ ...shape, dtype: 'bool' });
}

/**
 * Where a subscript or `unsqueeze` puts the last axis of a value spread for a pairwise comparison: `t[..., :, None]`,
 * `t[:, :, None]`, `t.unsqueeze(-1)` put it on the query axis (-2); `t[..., None, :]`, `t[:, None, :]`,
 * `t.unsqueeze(-2)` on the key axis (-1). Undefined for anything else.
 */
function pairSpreadAxis(ev: Evaluator, node: PyNode): -1 | -2 | undefined {
  const u = unparen(node);
  if (u.type === 'subscript') {
    const items = childrenByField(u, 'subscript').map((s) => unparen(s));
    if (items.length < 2 || !items.every((s) => s.type === 'none' || s.type === 'ellipsis' || (s.type === 'slice' && ev.text(s).trim() === ':')))
      return undefined;
    const [before, last] = items.slice(-2);
    if (last?.type === 'none' && before?.type !== 'none') return -2;
    if (last?.type === 'slice' && before?.type === 'none') return -1;
    return undefined;
  }
  if (u.type === 'call') {
    const fn = childByField(u, 'function');
    if (fn?.type !== 'attribute' || ev.text(childByField(fn, 'attribute') ?? fn) !== 'unsqueeze') return undefined;
    const args = namedChildren(childByField(u, 'arguments') ?? u);
    const only = args.length === 1 ? args[0] : undefined;
    const axis = only ? ev.text(only).replace(/\s+/g, '') : undefined;
    return axis === '-1' ? -2 : axis === '-2' ? -1 : undefined;
  }
  return undefined;
}

/**
 * An order comparison of a value spread over the query axis with one spread over the key axis (`bq_t[:, :, :, None]
 * < bkv_t[:, :, None, :]`, positions of sorted or bucketed tokens; `seg[:, None, :] <= seg[:, :, None]`): the causal
 * comparison `arange` masks make, on the positions the code carries. True where the key comes after the query is
 * the future (ignore); True where it comes before (or at) the query keeps. Masks, scores, queries and keys compared
 * so are not positions, and give nothing.
 */
function orderAcrossAxes(ev: Evaluator, op: string, av: AValue, bv: AValue, a: PyNode, b: PyNode): MaskInfo | undefined {
  if (op !== '<' && op !== '<=' && op !== '>' && op !== '>=') return undefined;
  const positions = (v: AValue): boolean => (v.kind === 'tensor' || v.kind === 'unknown') && !v.mask && !v.attn && !v.role && !v.index;
  if (!positions(av) || !positions(bv)) return undefined;
  const axA = pairSpreadAxis(ev, a);
  const axB = pairSpreadAxis(ev, b);
  if (axA === undefined || axB === undefined || axA === axB) return undefined;
  // Normalised to `key OP query`.
  const o = axA === -1 ? op : mirror(op);
  const keyLater = o === '>' || o === '>=';
  const why = msg(keyLater ? PHRASES.trueWhereKeyLater : PHRASES.trueWhereKeyEarlier, `\`${ev.text(a)} ${op} ${ev.text(b)}\``);
  return { polarity: keyLater ? 'ignore' : 'keep', causal: true, dtype: 'bool', why };
}

function mirror(op: string): string {
  switch (op) {
    case '<':
      return '>';
    case '>':
      return '<';
    case '<=':
      return '>=';
    case '>=':
      return '<=';
    default:
      return op;
  }
}

/** i (query position, axis -2) compared with j (key position, axis -1) → a triangular region. */
function indexCompare(
  op: string,
  a: { axis: number; offset: number },
  b: { axis: number; offset: number },
): { region: 'upper' | 'lower'; k: number } | undefined {
  // Normalise to  j OP i + d  where j is the key index (axis -1), i the query index (axis -2).
  let o = op;
  let ji: [typeof a, typeof b];
  if (a.axis === -1 && b.axis === -2) ji = [a, b];
  else if (a.axis === -2 && b.axis === -1) {
    ji = [b, a];
    o = mirror(op);
  } else return undefined;
  const d = ji[1].offset - ji[0].offset; // j + oj OP i + oi  →  j OP i + (oi - oj)
  switch (o) {
    case '<=':
      return { region: 'lower', k: d };
    case '<':
      return { region: 'lower', k: d - 1 };
    case '>':
      return { region: 'upper', k: d + 1 };
    case '>=':
      return { region: 'upper', k: d };
    default:
      return undefined;
  }
}

export function tokenizerAttentionMask(source: string, keyConvention = false): AValue {
  return tensor({
    ndim: 2,
    axes: [{ label: 'batch' }, { label: 'seq' }],
    dtype: 'int',
    mask: {
      polarity: 'keep',
      dtype: 'int',
      padding: true,
      padAxes: [-1],
      why: msg(PHRASES.tokenizerMask, source),
      ...(keyConvention ? { keyConvention: true } : {}),
    },
  });
}

function maskedFill(ev: Evaluator, c: Call, target0: AValue, maskNode: PyNode | undefined, fillNode: PyNode | undefined): AValue {
  const target = tensorish(target0);
  if (!maskNode || !fillNode) return target;
  const mask = ev.eval(maskNode, c.ctx);
  const fill = ev.eval(fillNode, c.ctx);
  ev.facts.fill.push({ node: c.node, ctx: c.ctx, how: 'masked_fill', target, targetNode: c.recvNode, fillNode, fill, mask, maskNode, maskSelectsFill: true });
  const masking = isMaskingFill(fill);
  // Only fills of attention scores or of masks being built are attention masking (not beam-search logits). Zeros
  // filled with a large negative value where a mask known by construction is True build an additive mask
  // (`torch.zeros(B, S).masked_fill(ids == pad_id, -inf)`), whatever the names.
  const buildsAdditive = !!(target.zeros && mask.mask?.polarity && !mask.mask.byName);
  // A mask filled where the same mask says (`m.float().masked_fill(m == 0, -inf)`): the mask changing form, judged where
  // the additive result is read, not here (a transpose may still follow).
  const ownConversion = masking && !!target.mask && !target.attn && !!mask.mask && convertsOwnMask(ev, c.recvNode, maskNode);
  const named = masking && !ownConversion && (attentionTarget(ev, target, c.recvNode) || buildsAdditive);
  // Values the code shows nothing of (not a mask being built, not scores or weights): a masking fill of them is judged
  // where a softmax then reads them (the step stays on their path, below).
  const unshown = masking && !named && opaqueLogits(target);
  // Pairwise scores filled and handed back unread (`logits = logits.masked_fill(tril, -1e4); return logits`, a global
  // pointer's span logits a loss or a decoder scores): they are attention scores only where a softmax normalises them.
  const returned = named && target.attn?.stage === 'scores' && target.attn.formedAt && returnedUnread(ev, c) ? target.attn.formedAt : undefined;
  if (named || unshown)
    ev.facts.mask.push({
      node: c.node,
      ctx: c.ctx,
      display: 'masked_fill',
      param: 'mask',
      expects: 'ignore',
      convention: 'fill',
      maskNode,
      mask,
      ...(unshown ? { softmaxOf: c.node } : {}),
      ...(returned ? { normalisedAt: returned, returnedFrom: enclosingFunction(c.node) } : {}),
    });
  if (target.attn?.stage === 'scores') {
    if (masking) return addOp(target, { kind: 'mask', node: c.node, how: 'fill', maskNode });
    return target;
  }
  if (target.attn?.stage === 'weights') {
    if (isNanMask(ev, maskNode)) return target;
    if (isZero(fill) || masking) {
      ev.facts.weightsMask.push({ node: c.node, ctx: c.ctx, weights: target, maskNode });
      return { ...target, attn: { ...target.attn, postMask: [...(target.attn.postMask ?? []), c.node] } };
    }
    return target;
  }
  // Logits not known as attention scores (additive attention energies `v(tanh(W x)).squeeze(-1)`, a sum over the
  // features) filled out at masked positions: a masked softmax's input, not a mask being built. The step is kept.
  if (masking && !target.mask && (target.proj !== undefined || target.reduced !== undefined))
    return addOp(target, { kind: 'mask', node: c.node, how: 'fill', maskNode });
  // So are values a method receives without knowing what they are (`def forward_attention(self, value, scores, mask)`
  // evaluated on its own), filled at a mask's positions: the step stays on the value's path, so a softmax of it is
  // known to be of masked logits. (Zeros, ones or a constant filled so are masks being built, below.)
  // The mask may be a name that says so or a boolean the call computes (`adj <= 0`, `~mask`, `torch.logical_not(mask)`:
  // a GAT's logits filled where there is no edge, a helper's scores filled where its mask is False).
  if (
    masking &&
    !target.mask &&
    !target.attn &&
    !target.zeros &&
    !target.ones &&
    target.fillValue === undefined &&
    (isMaskLike(ev, mask, maskNode) || computedBoolean(ev, mask, maskNode))
  )
    return addOp(target, { kind: 'mask', node: c.node, how: 'fill', maskNode });
  // masked_fill never changes the receiver's dtype: a mask built in float32 (`torch.zeros(..., dtype=torch.float32)`)
  // stays float32 through every fill, so a second fill of it is judged in float32 too.
  const kept = target.dtype ? { dtype: target.dtype } : {};
  // A boolean mask filled where it is itself True with a nonzero value (`m.masked_fill(m, float("-inf"))`) stays that
  // boolean mask: the value is cast to the receiver's dtype, True, so nothing changes (no additive mask is made).
  if (
    ownConversion &&
    target.dtype === 'bool' &&
    target.mask?.dtype === 'bool' &&
    unparen(maskNode).type !== 'comparison_operator' &&
    sameValue(ev, c.recvNode, maskNode)
  )
    return target;
  // Building an additive mask: float_mask.masked_fill(mask == 0, -inf)
  if (masking && mask.mask && mask.mask.polarity) {
    return tensor({
      ndim: target.ndim ?? mask.ndim,
      axes: target.axes ?? mask.axes,
      ...kept,
      mask: {
        ...mask.mask,
        additive: true,
        polarity: undefined,
        dtype: 'float',
        builtFrom: mask.mask.polarity,
        negInf: fill.kind === 'number' && fill.num === -Infinity ? true : undefined,
        ...(ownConversion ? { ownConversion: true as const } : {}),
        why: msg(PHRASES.filledLargeNegative, mask.mask.why),
      },
    });
  }
  // Zeros filled with a large negative value where a mask whose meaning is not known is True
  // (`bias = torch.zeros(B, H, L, S); bias.masked_fill_(attn_mask, float("-inf"))`, or a comparison of a tensor whose
  // meaning is not known, `masked_fill(pad == 0, float("-inf"))`): an additive bias all the same, -inf wherever that
  // mask is True. Added to the scores it masks them, whichever positions those are.
  if (
    masking &&
    target.zeros &&
    !target.mask &&
    (isMaskLike(ev, mask, maskNode) || (mask.dtype === 'bool' && unparen(maskNode).type === 'comparison_operator'))
  ) {
    const { polarity: _p, builtFrom: _b, byName: _n, nameSource: _s, ...facts } = mask.mask ?? {};
    return tensor({
      ndim: target.ndim ?? mask.ndim,
      axes: target.axes ?? mask.axes,
      ...kept,
      mask: { ...facts, additive: true, dtype: 'float', why: msg(PHRASES.filledLargeNegative, mask.mask?.why ?? `\`${ev.text(maskNode)}\``) },
    });
  }
  if (target.mask?.additive && isZero(fill)) return target;
  const zeroOne = zeroOneFill(target, mask, fill, `\`${ev.text(c.node)}\``);
  if (zeroOne) return zeroOne;
  // A mask filled, where another mask says, with a value the code does not show (a parameter, a config field of a class
  // not in view, an imported constant): those positions now hold a value nobody knows, so the result is no longer the
  // mask it was (`keep.float().masked_fill(keep == 0, cfg.neg)` is additive if that value is -inf, still a 0/1 mask if it
  // is 0). What it means is not known: silent downstream, never the receiver's meaning kept.
  if (target.mask && fillNotShown(fill)) {
    return tensor({ ndim: target.ndim, axes: target.axes, ...kept });
  }
  return target;
}

/**
 * A boolean the fill's mask expression computes: one comparison (`adj <= 0`, `mask == 0`), a bitwise negation (`~m`),
 * or a call whose value is boolean (`torch.logical_not(m)`, `m.eq(0)`, `m.bool()`). masked_fill takes a boolean mask,
 * so such an expression there says which positions are filled, whatever the name it reads.
 */
function computedBoolean(ev: Evaluator, mask: AValue, maskNode: PyNode): boolean {
  const u = unparen(maskNode);
  if (u.type === 'comparison_operator') {
    const ops = childrenByField(u, 'operators').map((o) => ev.text(o));
    return ops.length === 1 && !['is', 'is not', 'in', 'not in'].includes(ops[0] ?? '');
  }
  if (u.type === 'unary_operator') return ev.text(u).trimStart().startsWith('~');
  return u.type === 'call' && mask.kind === 'tensor' && mask.dtype === 'bool';
}

/**
 * The fill's mask is the receiver's own mask (`allowed.float().masked_fill(allowed == 0, -inf)`, `m.masked_fill(~m,
 * -1e9)`): the same name at the root of both, read through a comparison, a negation or method calls.
 */
function convertsOwnMask(ev: Evaluator, recvNode: PyNode | undefined, maskNode: PyNode): boolean {
  const recv = recvNode ? rootName(ev, recvNode) : undefined;
  if (!recv) return false;
  let m = unparen(maskNode);
  while (m.type === 'comparison_operator' || m.type === 'unary_operator' || m.type === 'not_operator') {
    const first = namedChildren(m)[0];
    if (!first) return false;
    m = unparen(first);
  }
  return rootName(ev, m) === recv;
}

/** The receiver and the mask are the same name, written as it is (`m.masked_fill(m, v)`). */
function sameValue(ev: Evaluator, recvNode: PyNode | undefined, maskNode: PyNode): boolean {
  const r = recvNode ? unparen(recvNode) : undefined;
  const m = unparen(maskNode);
  return !!r && r.type === 'identifier' && m.type === 'identifier' && ev.text(r) === ev.text(m);
}

/**
 * A fill value the code does not show: anything but a number, a truth value or a scalar tensor whose value is known
 * (or known to mask): a name imported from outside the workspace, a config field, a parameter nobody passes.
 */
function fillNotShown(fill: AValue): boolean {
  if (fill.kind === 'number') return fill.num === undefined && !fill.finfo && !fill.maskingFill;
  if (fill.kind === 'bool') return fill.truth === undefined;
  if (fill.kind === 'tensor') return fill.fillValue === undefined;
  return true;
}

/**
 * All ones with 0 filled where a mask is True (`torch.ones_like(ids).masked_fill(ids == pad_id, 0)`) is 1 where the
 * mask is False: the mask flipped. All zeros with 1 filled so (`torch.zeros_like(ids).masked_fill(pad, 1)`) is the
 * mask itself. Only for a mask whose meaning its construction shows; other fills of ones or zeros say nothing.
 */
function zeroOneFill(target: AValue, mask: AValue, fill: AValue, how: string): AValue | undefined {
  const m = mask.mask;
  if (!m?.polarity || m.byName || m.additive || (!target.ones && !target.zeros)) return undefined;
  const value = fill.kind === 'bool' ? (fill.truth === undefined ? undefined : Number(fill.truth)) : fill.kind === 'number' ? fill.num : undefined;
  const dtype = target.dtype;
  const shape = { ndim: target.ndim ?? mask.ndim, axes: target.axes ?? mask.axes, ...(dtype ? { dtype } : {}) };
  if (target.ones && value === 0) {
    const flipped = flipMask(m, how, dtype);
    return flipped ? tensor({ ...shape, mask: flipped }) : undefined;
  }
  if (target.zeros && value === 1) return tensor({ ...shape, mask: { ...m, ...(dtype ? { dtype } : {}), why: msg(PHRASES.flippedOf, how, m.why) } });
  return undefined;
}

function isNanMask(ev: Evaluator, node: PyNode): boolean {
  return /isnan|isinf|\.all\(|\.any\(/.test(ev.text(node));
}

/**
 * Zeroing weights where a condition holds is not masking when the condition is NaN/inf clean-up
 * (`torch.isnan(w)`) or is computed from the weights themselves (`w.abs() < t`, `prune = w < t` bound first):
 * that is pruning, a deliberate change of the distribution.
 */
function conditionOnWeights(ev: Evaluator, condNode: PyNode, weightsNode: PyNode): boolean {
  if (isNanMask(ev, condNode)) return true;
  const name = rootName(ev, weightsNode);
  if (!name) return false;
  const re = new RegExp(`(^|[^\\w.])${name.replace(/[.]/g, '\\.')}\\b`);
  const texts = [ev.text(condNode)];
  const u = unparen(condNode);
  if (u.type === 'identifier') for (const d of ev.resolve(u, ev.text(u)) ?? []) if (d.value) texts.push(ev.text(d.value));
  return texts.some((t) => re.test(t) || /isnan|isinf/.test(t));
}

/** A tensor the code shows nothing of: no mask, no attention stage, no constant content, not a size or an index. */
function opaqueLogits(v: AValue): boolean {
  return (
    v.kind === 'tensor' &&
    !v.mask &&
    !v.attn &&
    !v.zeros &&
    !v.ones &&
    v.fillValue === undefined &&
    !v.identity &&
    !v.tokenIds &&
    v.dtype !== 'bool' &&
    v.dtype !== 'int'
  );
}

/** Attention scores, or a mask/bias under construction (by its facts or its name). */
function attentionTarget(ev: Evaluator, target: AValue, node: PyNode | undefined): boolean {
  if (target.attn?.stage === 'scores' || target.mask) return true;
  const name = node ? rootName(ev, node) : undefined;
  // Attention-specific names only: plain "scores"/"logits" also name beam-search and detection scores.
  return !!name && /mask|bias|attn|^att$|attention|energy|^dots$|^sim$/i.test(name);
}

/** torch.where(cond, x, y): which side is the fill decides what cond must mean. */
function where(ev: Evaluator, c: Call, condNode: PyNode | undefined, xNode: PyNode | undefined, yNode: PyNode | undefined, xv?: AValue): AValue {
  if (!condNode || !xNode || !yNode) return tensor();
  const cond = ev.eval(condNode, c.ctx);
  const x = xv ?? ev.eval(xNode, c.ctx);
  const y = ev.eval(yNode, c.ctx);
  const xFill = isMaskingFill(x);
  const yFill = isMaskingFill(y);
  // `target` where the condition selects (maskSelectsFill) or leaves (not) the positions that get `fill`
  const recordFill = (target: AValue, targetNode: PyNode, fill: AValue, fillNode: PyNode, maskSelectsFill: boolean): void => {
    ev.facts.fill.push({ node: c.node, ctx: c.ctx, how: 'where', target, targetNode, fillNode, fill, mask: cond, maskNode: condNode, maskSelectsFill });
  };
  // One operand is the fill, the other the values kept: `where(cond, x, fill)` keeps x where cond holds (a keep mask),
  // `where(cond, fill, y)` fills where cond holds (an ignore mask).
  const keptAgainstFill = (kept: AValue, keptNode: PyNode, fill: AValue, fillNode: PyNode, condSelectsFill: boolean): AValue => {
    recordFill(kept, keptNode, fill, fillNode, condSelectsFill);
    // Zeros on the kept side, a number or a tensor of them (`lax.select(m, jnp.zeros(shape), jnp.full(shape, -1e10))`,
    // Flax's way of turning a mask into a bias): an additive bias built from the condition.
    const zeroKept = isZero(kept) || zeroTensor(kept);
    const named = kept.attn?.stage === 'scores' || zeroKept || attentionTarget(ev, kept, keptNode);
    // Logits the code shows nothing of, chosen against a masking fill: judged where a softmax reads the choice (as masked_fill).
    const unshown = !named && isMaskingFill(fill) && opaqueLogits(kept);
    if (named || unshown)
      ev.facts.mask.push({
        node: c.node,
        ctx: c.ctx,
        display: displayName(c.name) || 'where',
        param: 'condition',
        expects: condSelectsFill ? 'ignore' : 'keep',
        convention: 'fill',
        maskNode: condNode,
        mask: cond,
        ...(unshown ? { softmaxOf: c.node } : {}),
      });
    if (kept.attn?.stage === 'scores' || unshown) return addOp(kept, { kind: 'mask', node: c.node, how: 'where', maskNode: condNode });
    if (zeroKept && cond.mask?.polarity)
      return tensor({
        ndim: cond.ndim,
        axes: cond.axes,
        mask: { ...cond.mask, additive: true, polarity: undefined, dtype: 'float', builtFrom: cond.mask.polarity },
      });
    return tensorish(kept);
  };
  if (yFill && !xFill) return keptAgainstFill(x, xNode, y, yNode, false);
  if (xFill && !yFill) return keptAgainstFill(y, yNode, x, xNode, true);
  // Two parameters chosen between, read with no caller: the callers say which is the fill (importer-calls.ts).
  if (c.ctx.bindings === undefined && isParameter(ev, xNode, c.ctx) && isParameter(ev, yNode, c.ctx)) ev.facts.whereOfParams.add(c.ctx.scope);
  // Scores chosen against a constant that does not mask (`torch.where(keep, scores, 0.0)`): recorded as a fill of the
  // scores, so ATT007 can say the other positions keep a weight after the softmax; the scores are not masked by it.
  // So is a tensor filled with such a constant (`torch.full_like(scores, 0.0)`, `torch.zeros_like(scores)`).
  const weakFill = (v: AValue): boolean => weakFillValue(v) !== undefined;
  if (x.attn?.stage === 'scores' && weakFill(y) && !weakFill(x)) {
    recordFill(x, xNode, y, yNode, false);
    return x;
  }
  if (y.attn?.stage === 'scores' && weakFill(x) && !weakFill(y)) {
    recordFill(y, yNode, x, xNode, true);
    return y;
  }
  // Zeros chosen against a constant too small to mask (`torch.where(pad, -1e-9, 0.0)`, a typo for -1e9): an additive
  // bias being built with a fill that does not mask, recorded so that ATT007 can judge it where the code says it builds
  // a bias (by the name it is bound to). Nothing is masked by it.
  const tiny = (v: AValue): boolean => v.kind === 'number' && v.num !== undefined && v.num !== 0 && Math.abs(v.num) <= 1e-3;
  const zeroSide = (v: AValue): boolean => isZero(v) || zeroTensor(v);
  if (zeroSide(x) && tiny(y)) recordFill(x, xNode, y, yNode, false);
  else if (zeroSide(y) && tiny(x)) recordFill(y, yNode, x, xNode, true);
  // Zeroing attention weights after softmax: torch.where(mask, w, 0.), torch.where(~mask, torch.zeros_like(w), w).
  const zeroLike = (v: AValue): boolean => isZero(v) || (v.kind === 'tensor' && v.zeros === true && !v.mask);
  const selfCondition = (wNode: PyNode): boolean => conditionOnWeights(ev, condNode, wNode);
  if (x.attn?.stage === 'weights' && zeroLike(y) && !selfCondition(xNode)) {
    ev.facts.weightsMask.push({ node: c.node, ctx: c.ctx, weights: x, maskNode: condNode });
    return { ...x, attn: { ...x.attn, postMask: [...(x.attn.postMask ?? []), c.node] } };
  }
  if (y.attn?.stage === 'weights' && zeroLike(x) && !selfCondition(yNode)) {
    ev.facts.weightsMask.push({ node: c.node, ctx: c.ctx, weights: y, maskNode: condNode });
    return { ...y, attn: { ...y.attn, postMask: [...(y.attn.postMask ?? []), c.node] } };
  }
  // Features zeroed at some positions (`tf.where(keep, queries, tf.zeros_like(queries))`, padding cleared before the
  // heads are split): the same tensor, its layout and projection kept.
  const plain = (v: AValue): boolean => v.kind === 'tensor' && !v.mask && !v.attn && !v.zeros;
  if (plain(x) && zeroLike(y)) return x;
  if (plain(y) && zeroLike(x)) return y;
  return choiceOfKeepMasks(ev, c, x, y) ?? join(tensorish(x), tensorish(y));
}

/**
 * A boolean mask chosen per example between an all-True mask and another mask (`torch.where(focus, eye(n),
 * ones(n, n))`): a mask that is True everywhere masks nothing when True means keep and everything when True means
 * ignore, so the choice is written in the keep convention, and the other side with it (an identity, a keep mask).
 */
function choiceOfKeepMasks(ev: Evaluator, c: Call, x: AValue, y: AValue): AValue | undefined {
  const allTrue = (v: AValue): boolean => v.kind === 'tensor' && !!v.ones && !v.mask && v.dtype === 'bool';
  const keepSide = (v: AValue): boolean =>
    v.kind === 'tensor' &&
    v.dtype !== 'float' &&
    (allTrue(v) || (!!v.identity && !v.mask) || (v.mask?.polarity === 'keep' && !v.mask.byName && !v.mask.additive));
  if (!(allTrue(x) && keepSide(y)) && !(allTrue(y) && keepSide(x))) return undefined;
  const joined = join(tensorish(x), tensorish(y));
  return {
    ...joined,
    dtype: 'bool',
    mask: { polarity: 'keep', dtype: 'bool', why: msg(PHRASES.choiceWithAllTrue, `\`${ev.text(c.node).replace(/\s+/g, ' ').slice(0, 50)}\``) },
  };
}

/**
 * x[mask] = -inf, and JAX's functional form `x.at[mask].set(-inf)`, a copy of x written so (`base`: the array, x, when
 * the subscript's value is not: `x.at`).
 */
export function setItemFill(ev: Evaluator, prev: AValue, target: PyNode, fillNode: PyNode, fill: AValue, ctx: Ctx, base?: PyNode): AValue {
  const subs = childrenByField(target, 'subscript');
  const maskNode = subs[0];
  if (subs.length !== 1 || !maskNode) return behindFullSlices(ev, prev, target, subs, fill, ctx);
  // `m[np.isnan(m)] = 0.0` on an additive mask: its NaN (0 × -inf where a 0/1 mask was multiplied by -inf) replaced
  // by a finite number, as `nan_to_num` does.
  const written = base ?? childByField(target, 'value');
  if (prev.mask?.additive && written && fill.kind === 'number' && fill.num !== undefined && Number.isFinite(fill.num) && nanTestOf(ev, maskNode, written))
    noteNanCleared(ev, written, target, true);
  if (!isMaskingFill(fill)) {
    // Scores written with a constant that does not mask, where a boolean index selects (`scores[pad] = 0.0`,
    // `scores.at[pad].set(0.0)`): recorded as a fill of the scores, as masked_fill's is (ATT007 says the positions
    // keep their weight); the scores are not masked by it.
    const weak = fill.kind === 'number' ? weakFillValue(fill) : undefined;
    if (weak && prev.attn?.stage === 'scores') {
      const mask = ev.eval(maskNode, ctx);
      if (mask.mask || mask.dtype === 'bool') {
        const targetNode = base ?? childByField(target, 'value');
        ev.facts.fill.push({ node: target, ctx, how: 'setitem', target: prev, targetNode, fillNode, fill, mask, maskNode, maskSelectsFill: true });
      }
    }
    // A mask written, where an index selects, with a value the code does not show (`m[m == 0] = cfg.neg`): as for
    // masked_fill, it is no longer the mask it was, and what it means is not known.
    if (prev.mask && fillNotShown(fill)) {
      const { mask: _mask, ...rest } = prev;
      return rest;
    }
    return prev;
  }
  const mask = ev.eval(maskNode, ctx);
  ev.facts.fill.push({
    node: target,
    ctx,
    how: 'setitem',
    target: prev,
    targetNode: base ?? childByField(target, 'value'),
    fillNode,
    fill,
    mask,
    maskNode,
    maskSelectsFill: true,
  });
  if (mask.mask && attentionTarget(ev, prev, base ?? childByField(target, 'value')))
    ev.facts.mask.push({ node: target, ctx, display: 'index assignment', param: 'index', expects: 'ignore', convention: 'fill', maskNode, mask });
  if (prev.attn?.stage === 'scores') return addOp(prev, { kind: 'mask', node: target, how: 'setitem', maskNode });
  // Weights already normalised, written in place at masked positions (`att[~mask] = -inf` after the softmax,
  // possibly in a helper that receives them): a mask applied after the softmax, on the caller's tensor too.
  if (prev.attn?.stage === 'weights' && !isNanMask(ev, maskNode)) {
    ev.facts.weightsMask.push({ node: target, ctx, weights: prev, maskNode, inPlace: true });
    return { ...prev, attn: { ...prev.attn, postMask: [...(prev.attn.postMask ?? []), target] } };
  }
  return filledByIndex(ev, prev, target, mask, base) ?? prev;
}

/**
 * Scores filled with a masking value where a mask selects on their trailing axes, every leading axis taken whole
 * (`KQ[:, :, ~causal] = float("-inf")`, `s[..., ~keep] = -1e9`; session 49): every position the mask selects is
 * filled, for each leading index, before the softmax, so the scores are masked. Recorded on the scores only (a mask
 * op, as a one-index fill records): which axes the mask lines up with is not read here, so it is no mask site or fill
 * fact for the rules that read those.
 */
function behindFullSlices(ev: Evaluator, prev: AValue, target: PyNode, subs: readonly PyNode[], fill: AValue, ctx: Ctx): AValue {
  if (prev.attn?.stage !== 'scores' || !isMaskingFill(fill)) return prev;
  const whole = (s: PyNode): boolean => s.type === 'ellipsis' || (s.type === 'slice' && ev.text(s).trim() === ':');
  const picked = subs.filter((s) => !whole(s));
  const maskNode = picked[0];
  if (picked.length !== 1 || !maskNode || subs.at(-1) !== maskNode) return prev;
  const mask = ev.eval(maskNode, ctx);
  if (!mask.mask && mask.dtype !== 'bool') return prev;
  return addOp(prev, { kind: 'mask', node: target, how: 'setitem', maskNode });
}

/**
 * An additive mask filled by index: `bias = zeros(L, L); bias[keep == 0] = -inf`, or a 0/1 mask overwritten where
 * it selects itself (`m = tril(ones(L, L)); m[m == 0] = -inf; m[m == 1] = 0`). What it holds after the fill is 0
 * (or the rest of a 0/1 mask, set to 0 next) and a large negative number: an additive mask, no longer a 0/1 one.
 */
function filledByIndex(ev: Evaluator, prev: AValue, target: PyNode, selector: AValue, array?: PyNode): AValue | undefined {
  if (prev.kind !== 'tensor' || prev.attn) return undefined;
  const base = array ?? childByField(target, 'value');
  const sub = childrenByField(target, 'subscript')[0];
  if (!base || !sub) return undefined;
  const baseText = ev.text(unparen(base));
  let selfSelected = false;
  walk(sub, (n) => {
    if (n.type === 'identifier' && ev.text(n) === baseText) selfSelected = true;
  });
  if (!(prev.mask && selfSelected) && !(prev.zeros && !prev.mask && selector.mask)) return undefined;
  const builtFrom = selector.mask?.polarity;
  const { polarity: _polarity, byName: _byName, nameSource: _nameSource, ...rest } = prev.mask ?? selector.mask!;
  return { ...prev, zeros: undefined, mask: { ...rest, additive: true, dtype: 'float', ...(builtFrom ? { builtFrom } : {}) } };
}

/**
 * A fill whose result leaves its function unread: returned as it is (`return s.masked_fill(m, v)`), or bound to a name
 * (or filled in place on one) that the rest of the function reads only in its return statements.
 */
function returnedUnread(ev: Evaluator, c: Call): boolean {
  return returnedUnreadAt(ev, c.node, /_$/.test(ev.text(childByField(c.node, 'function') ?? c.node)) ? c.recvNode : undefined);
}

/**
 * The value computed at `node` is returned from its function and read nowhere else there: directly (`return x * m`), or
 * bound to a name (or, for an in-place op, its receiver `inPlace`) that only return statements read afterwards. With
 * `whole`, those returns must hand the name back as it is, alone or in a tuple (`return w`, `return s, w`; not
 * `return w.log()`).
 */
export function returnedUnreadAt(ev: Evaluator, node: PyNode, inPlace?: PyNode, whole = false): boolean {
  const fn = enclosingFunction(node);
  if (!fn) return false;
  // Up through parentheses, method chains (`.float()`) and the tuple of a return.
  let n: PyNode = node;
  while (n.parent && ['parenthesized_expression', 'expression_list', 'attribute', 'call', 'tuple'].includes(n.parent.type)) n = n.parent;
  const up = n.parent;
  if (!up) return false;
  if (up.type === 'return_statement') return true;
  let name: PyNode | undefined;
  let stmt: PyNode | undefined;
  if (up.type === 'assignment' && childByField(up, 'right')?.id === n.id) {
    name = childByField(up, 'left');
    stmt = up.parent ?? undefined;
  } else if (up.type === 'expression_statement' && inPlace) {
    name = inPlace;
    stmt = up;
  }
  if (!name || !stmt || unparen(name).type !== 'identifier') return false;
  const id = ev.text(unparen(name));
  let reads = 0;
  let other = false;
  walk(fn, (x) => {
    if (other) return false;
    if (x.type === 'function_definition' && x.id !== fn.id) return false;
    if (x.type !== 'identifier' || ev.text(x) !== id || x.start <= stmt.end) return true;
    let s: PyNode | undefined = x.parent ?? undefined;
    while (s && !/statement$|^assignment$/.test(s.type)) s = s.parent ?? undefined;
    if (s?.type === 'return_statement' && (!whole || handedBackWhole(x, s))) reads++;
    else other = true;
    return false;
  });
  return reads > 0 && !other;
}

/** `x` is the value of the return `ret` or an element of the tuple it returns (through parentheses). */
function handedBackWhole(x: PyNode, ret: PyNode): boolean {
  let p = x.parent;
  while (p && p.id !== ret.id && ['parenthesized_expression', 'expression_list', 'tuple'].includes(p.type)) p = p.parent;
  return p?.id === ret.id;
}

/**
 * tril/triu of ones (or a boolean tensor): a causal mask. A literal diagonal gives the exact triangle; a variable one
 * (`triu(ones, diagonal=d)`, a window or an offset) still gives the polarity, since the upper triangle is the future
 * side whatever its offset. The diagonal also shows the alignment: 0 (1 for triu) is top-left, `S - L` bottom-right.
 */
function triValue(ev: Evaluator, c: Call, base0: AValue, region: 'upper' | 'lower', kNode: PyNode | undefined, fnName: string, baseNode?: PyNode): AValue {
  const base = tensorish(base0);
  // A triangle cut out of attention weights already normalised (`torch.tril(weights)` after the softmax): a causal
  // mask applied after the softmax, the rows no longer sum to 1 (ATT006 judges it, renormalisation included).
  if (base.attn?.stage === 'weights') {
    ev.facts.weightsMask.push({ node: c.node, ctx: c.ctx, weights: base, maskNode: c.node });
    return { ...base, attn: { ...base.attn, postMask: [...(base.attn.postMask ?? []), c.node] } };
  }
  // A diagonal offset the caller passes (`triu(ones(t, S), diagonal=past_length + 1)` with `past_length=0` a parameter,
  // the cache length at the cached calls): its default is the value of the calls without a cache, not a fixed offset,
  // so it shows neither the exact triangle nor its alignment; the side of the diagonal still gives the polarity.
  const k = kNode ? (offsetFromCaller(ev, kNode) ? undefined : intOf(ev, c, kNode)) : 0;
  // Attention scores cut to a triangle (`weights = torch.triu(weights)`, then `torch.where(weights != 0, weights, -inf)`):
  // still the scores, zero on the other side of the diagonal; `!= 0` of them reads the triangle (compare).
  if (base.attn?.stage === 'scores' && !base.mask && (!kNode || k !== undefined)) {
    return markCut({ ...base, triCut: { region, k: k ?? 0, node: c.node, text: ev.text(c.node) } });
  }
  const why = `\`${ev.text(c.node).length <= 60 ? ev.text(c.node) : fnName}\``;
  const sizes = baseNode ? creationSizes(ev, baseNode) : undefined;
  const align = triangleAlign(ev, region, k, kNode, sizes);
  const placed = { ...(align ? { align } : {}), ...(sizes ? { sizes } : {}) };
  if (base.fillValue !== undefined && base.fillValue <= -1e4 && region === 'upper') {
    // triu(full(-inf), 1): additive causal mask
    return {
      ...tensor({
        ndim: base.ndim,
        axes: base.axes,
        dtype: 'float',
        mask: {
          additive: true,
          causal: true,
          ...(base.fillValue === -Infinity ? { negInf: true as const } : {}),
          ...(k !== undefined ? { tri: { region, k } } : {}),
          why,
          ...placed,
        },
      }),
      ...factoryOf(base),
    };
  }
  // A diagonal that is minus a size the code does not fix (`tril(ones, diagonal=-self.sliding_window)`): the triangle
  // lies that many keys behind each query, so tril marks the keys that fell out of the window (to be ignored) and triu
  // the window's keys and the future alike. Neither is the causal keep or ignore side: its meaning is not known.
  if (k === undefined && kNode && negatedOffset(kNode)) return tensor({ ndim: base.ndim, axes: base.axes, dtype: base.dtype });
  // A diagonal whose sign the code does not show: a difference other than the keys' offset over the queries
  // (`diagonal = past_length - sliding_window - 1`, also bound to a name first, or a parameter defaulting to a negative
  // number), or a literal two or more keys off the main diagonal (`tril(ones, -4)`, `triu(ones, 3)`): the edge of a
  // band or of a window, not of the causal triangle, so which side is kept is not known (HF's sliding-window mask
  // fills `tril(ones, diagonal=past - window - 1)`: the keys too far back).
  if (bandEdge(ev, region, k, kNode, align)) return { ...tensor({ ndim: base.ndim, axes: base.axes, dtype: base.dtype }), ...factoryOf(base) };
  // A boolean tensor that is not already a triangle counts as ones (a triangle of a triangle is a band, not a mask).
  if (base.ones || (base.mask?.tri === undefined && !base.mask?.causal && base.dtype === 'bool' && base.ones !== false)) {
    const dtype = base.dtype ?? 'float';
    const mask: MaskInfo =
      k !== undefined
        ? triMask({ region, k }, dtype, why)
        : {
            polarity: region === 'upper' ? 'ignore' : 'keep',
            causal: true,
            dtype,
            why: msg(region === 'upper' ? PHRASES.trueFutureSideOfDiagonal : PHRASES.trueOnAndBeforeDiagonal, why, `\`${ev.text(kNode!)}\``),
          };
    return { ...tensor({ ndim: base.ndim, axes: base.axes, dtype, mask: { ...mask, ...placed } }), ...factoryOf(base) };
  }
  return { ...tensor({ ndim: base.ndim, axes: base.axes, dtype: base.dtype }), ...factoryOf(base) };
}

/** A triangle cut from a factory's tensor keeps its default dtype (values.ts: factoryScope). */
function factoryOf(base: AValue): { factoryScope?: number } {
  return base.factoryScope !== undefined ? { factoryScope: base.factoryScope } : {};
}

/**
 * A diagonal offset that is not a literal and reads a parameter with a default (directly or through a local name bound
 * from it): `diagonal=past_length + 1`, `offset = start_pos; tril(ones, diagonal=offset)`. The number the evaluator
 * gives it is the default's, what a call that leaves it out passes, not what the callers that pass it do.
 */
function offsetFromCaller(ev: Evaluator, node: PyNode, depth = 0): boolean {
  if (depth > 2 || unparen(node).type === 'integer') return false;
  let found = false;
  walk(node, (n) => {
    if (found) return false;
    if (n.type === 'attribute') return false;
    if (n.type !== 'identifier') return true;
    for (const d of ev.resolve(n, ev.text(n)) ?? []) {
      if (d.param ? d.param.default !== undefined : d.value !== undefined && offsetFromCaller(ev, d.value, depth + 1)) found = true;
    }
    return false;
  });
  return found;
}

/**
 * `torch.triu(scores) != 0` (or `== 0`, also with the cut scores under a name bound once): the triangle as a mask. Also
 * the cut scores under a parameter a call passes them to as the cut itself (`def keep_nonzero(w, fill): return
 * torch.where(w != 0, w, fill)` called with `w = torch.triu(w)`), or under a name bound once to a call of a function
 * whose return is the cut (`w = cut_upper(w)` with `def cut_upper(w): return torch.triu(w)`), in this file or another
 * (the crossing marks the copy, values.ts: markCut): what the code writes, not a name.
 */
function triCutCompared(ev: Evaluator, op: string, sv: AValue, zv: AValue, sNode: PyNode, zNode: PyNode, ctx: Ctx): MaskInfo | undefined {
  const cut = sv.triCut;
  if (!cut || (op !== '!=' && op !== '==') || zv.kind !== 'number' || zv.num !== 0 || intLiteral(ev.tree, unparen(zNode)) !== 0) return undefined;
  const u = unparen(sNode);
  const defs = u.type === 'identifier' ? (ev.resolve(u, ev.text(u)) ?? []) : [];
  const only = defs.length === 1 ? defs[0] : undefined;
  const at = u.type === 'identifier' ? (only?.value ? unparen(only.value) : undefined) : u;
  const written = !!cut.node && at?.id === cut.node.id;
  if (!written && !(isUnchangedCut(sv) && (cutParameter(ev, only, cut, ctx) || cutReturned(ev, at, cut, ctx)))) return undefined;
  const m = triMask({ region: cut.region, k: cut.k }, 'bool', `\`${cut.text}\``);
  return op === '!=' ? m : flipMask(m, `\`${ev.text(sNode)} == ${ev.text(zNode)}\``, 'bool');
}

/**
 * A parameter the call of this context passes the cut to as the cut itself; a context of another file's call (the cut
 * crossed without its node) counts when the crossing showed it (importer-calls.ts marks the copy).
 */
function cutParameter(ev: Evaluator, def: Def | undefined, cut: NonNullable<AValue['triCut']>, ctx: Ctx): boolean {
  if (def?.kind !== 'param' || ctx.bindings === undefined) return false;
  if (!cut.node) return true;
  const call = ctx.callSite;
  if (call?.type !== 'call') return false;
  const param = ctx.scope.params.find((p) => p.name === def.name);
  if (!param) return false;
  const args = ev.argsOf(call);
  const self = ctx.scope.params.some((p) => p.kind === 'positional' && p.index === 0 && p.name === 'self') ? 1 : 0;
  const arg =
    args.keywords.get(param.name)?.value ?? (param.kind === 'positional' && param.index !== undefined ? args.positional[param.index - self] : undefined);
  // The argument as the caller's context reads it (a name it bound to a helper's result is read there).
  const callerScope = enclosingFunction(call, true);
  const callerCtx = callerScope ? ev.defaultCtx(ev.sr.scopeOfNode.get(callerScope.id) ?? ev.sr.module) : ev.defaultCtx(ev.sr.module);
  return !!arg && writesCut(ev, arg, cut.node.id, callerCtx);
}

/** A call of a function of this file whose return is the cut as written (`return torch.triu(w)`), or of another file's (marked). */
function cutReturned(ev: Evaluator, at: PyNode | undefined, cut: NonNullable<AValue['triCut']>, ctx: Ctx): boolean {
  const fn = at?.type === 'call' ? childByField(at, 'function') : undefined;
  if (fn?.type !== 'identifier') return false;
  if (!cut.node) return true;
  const callee = ev.eval(fn, ctx);
  const scope = callee.kind === 'function' ? callee.fn?.scope : undefined;
  return !!scope && scope.returns.some((r) => unparen(r).id === cut.node?.id);
}

/**
 * `node` is the tri call `cutId` itself, or a name bound once to it or to a call of a function of this file whose return
 * is it (`w = cut_upper(w)`, then `keep_nonzero(w, fill)`).
 */
function writesCut(ev: Evaluator, node: PyNode, cutId: number, ctx?: Ctx): boolean {
  const u = unparen(node);
  if (u.id === cutId) return true;
  if (u.type !== 'identifier') return false;
  const defs = ev.resolve(u, ev.text(u)) ?? [];
  const value = defs.length === 1 ? defs[0]?.value : undefined;
  if (!value) return false;
  const v = unparen(value);
  if (v.id === cutId) return true;
  const fn = v.type === 'call' ? childByField(v, 'function') : undefined;
  if (!ctx || fn?.type !== 'identifier') return false;
  const callee = ev.eval(fn, ctx);
  const scope = callee.kind === 'function' ? callee.fn?.scope : undefined;
  return !!scope && ev.owns(scope) && scope.returns.some((r) => unparen(r).id === cutId);
}

/** An argument passing scores cut to a triangle as the cut itself (the value the cut made, written there or named once). */
export function passesCut(ev: Evaluator, node: PyNode, v: AValue, ctx: Ctx): boolean {
  if (!v.triCut || !isUnchangedCut(v)) return false;
  if (v.triCut.node) return writesCut(ev, node, v.triCut.node.id, ctx);
  // A cut another file handed back (its return showed the cut itself, cross-file.ts): passed on as that call's result.
  const u = unparen(node);
  const defs = u.type === 'identifier' ? (ev.resolve(u, ev.text(u)) ?? []) : [];
  const value = u.type === 'identifier' ? (defs.length === 1 && defs[0]?.value ? unparen(defs[0].value) : undefined) : u;
  return value?.type === 'call' && childByField(value, 'function')?.type === 'identifier';
}

/** A function of another file handing back scores cut to a triangle as the cut itself (`return torch.triu(w)`). */
export function returnsCut(scope: Scope, v: AValue): boolean {
  const id = v.triCut?.node?.id;
  return id !== undefined && isUnchangedCut(v) && scope.returns.some((r) => unparen(r).id === id);
}

/**
 * A triangle's diagonal that marks a band's or a window's edge rather than the causal one: a literal two or more keys
 * off the main diagonal on the side away from it (tril below -1, triu above 1), or a non-literal offset whose sign the
 * code does not show (a difference, a negation, a name bound to one, a parameter defaulting to a negative number), not
 * the keys' offset over the queries (`S - L`, the bottom-right alignment, already read by triangleAlign).
 */
function bandEdge(ev: Evaluator, region: 'upper' | 'lower', k: number | undefined, kNode: PyNode | undefined, align: MaskInfo['align']): boolean {
  if (!kNode) return false;
  if (k !== undefined) return region === 'lower' ? k <= -2 : k >= 2;
  if (align === 'bottom-right') return false;
  return signUnshown(ev, kNode, 0);
}

function signUnshown(ev: Evaluator, node: PyNode, depth: number): boolean {
  const u = unparen(node);
  if (depth > 3) return false;
  if (u.type === 'unary_operator') return u.children[0]?.type === '-';
  if (u.type === 'binary_operator') {
    const op = operatorText(ev.tree, u);
    if (op === '-') return true;
    if (op !== '+') return false;
    const l = childByField(u, 'left');
    const r = childByField(u, 'right');
    return (!!l && signUnshown(ev, l, depth + 1)) || (!!r && signUnshown(ev, r, depth + 1));
  }
  if (u.type !== 'identifier') return false;
  const defs = ev.resolve(u, ev.text(u)) ?? [];
  return defs.some((d) => {
    const v = d.param ? d.param.default : d.value;
    return v !== undefined && v !== null && signUnshown(ev, v, depth + 1);
  });
}

/** `-w`, `-(w - 1)`, `-self.window + 1`: a diagonal offset written as minus a size. */
function negatedOffset(node: PyNode): boolean {
  let u = unparen(node);
  if (u.type === 'binary_operator') u = unparen(childByField(u, 'left') ?? u);
  return u.type === 'unary_operator' && u.children[0]?.type === '-';
}

/** The last two sizes of `torch.ones(L, S)`, `torch.full((L, S), v)`, `x.new_ones(L, S)` (following one assignment). */
export function creationSizes(ev: Evaluator, node: PyNode, depth = 0): readonly [string, string] | undefined {
  const u = unparen(node);
  if (u.type === 'identifier' && depth === 0) {
    const defs = ev.resolve(u, ev.text(u)) ?? [];
    const only = defs.length === 1 ? defs[0] : undefined;
    return only?.value ? creationSizes(ev, only.value, 1) : undefined;
  }
  if (u.type !== 'call') return undefined;
  const fn = childByField(u, 'function');
  if (!fn || !/(^|\.)(new_)?(ones|zeros|full|empty)$/.test(ev.text(fn))) return undefined;
  const list = childByField(u, 'arguments');
  const positional = list ? namedChildren(list).filter((a) => a.type !== 'keyword_argument') : [];
  const first = positional[0] ? unparen(positional[0]) : undefined;
  const full = /full$/.test(ev.text(fn));
  const dims = first && (first.type === 'tuple' || first.type === 'list') ? namedChildren(first) : full ? [] : positional;
  const [rows, cols] = dims.slice(-2);
  if (dims.length < 2 || !rows || !cols) return undefined;
  const text = (n: PyNode): string => ev.text(n).replace(/\s+/g, '');
  return [text(rows), text(cols)];
}

function triangleAlign(
  ev: Evaluator,
  region: 'upper' | 'lower',
  k: number | undefined,
  kNode: PyNode | undefined,
  sizes: readonly [string, string] | undefined,
): MaskInfo['align'] {
  if (k !== undefined) return (region === 'lower' && k === 0) || (region === 'upper' && k === 1) ? 'top-left' : undefined;
  if (!kNode || !sizes) return undefined;
  const d = ev.text(kNode).replace(/\s+/g, '');
  const shift = `${sizes[1]}-${sizes[0]}`;
  if (region === 'lower' ? d === shift : d === `${shift}+1` || d === `1+${shift}`) return 'bottom-right';
  return undefined;
}

function bandPart(ev: Evaluator, c: Call, base0: AValue, lowerNode: PyNode | undefined, upperNode: PyNode | undefined): AValue {
  const base = tensorish(base0);
  const lower = intOf(ev, c, lowerNode);
  const upper = intOf(ev, c, upperNode);
  const why = `\`${ev.text(c.node)}\``;
  if (!base.ones) return tensor({ ndim: base.ndim, axes: base.axes });
  if (lower === -1 && upper !== undefined && upper >= 0)
    return tensor({ ndim: base.ndim, axes: base.axes, dtype: 'float', mask: triMask({ region: 'lower', k: upper }, 'float', why) });
  if (upper === -1 && lower !== undefined && lower >= 0)
    return tensor({ ndim: base.ndim, axes: base.axes, dtype: 'float', mask: triMask({ region: 'upper', k: -lower }, 'float', why) });
  // `band_part(ones, 0, 0)`: the diagonal of ones, as torch.eye is (also when stored under a name first).
  if (lower === 0 && upper === 0) return tensor({ ndim: base.ndim, axes: base.axes, dtype: 'float', identity: true });
  return tensor({ ndim: base.ndim, axes: base.axes });
}

/** Reports every mask argument of a consumer (SDPA, MultiheadAttention, Transformer layers, flax, keras). */
export function maskConsumerArgs(ev: Evaluator, c: Call, consumer: MaskConsumer, offset = 0): void {
  // `layer(x, x, x, **kwargs)`: the keywords a caller bound into `**kwargs` (`model(x, key_padding_mask=pad)`).
  const spread = c.args.dictSplat ? ev.eval(c.args.dictSplat, c.ctx).kwargs : undefined;
  for (const p of consumer.params) {
    const push = (maskNode: PyNode, mask: AValue): void => {
      ev.facts.mask.push({
        node: c.node,
        ctx: c.ctx,
        display: consumer.display,
        param: p.name,
        expects: p.expects,
        convention: 'api',
        maskNode,
        mask,
        ...(p.additive ? { floatAdded: true as const } : {}),
      });
    };
    const node = argument(c.args, p.name, p.pos !== undefined ? p.pos - offset : undefined);
    const passedOn = !node && c.args.dictSplat ? spread?.find(([name]) => name === p.name)?.[1] : undefined;
    if (passedOn && c.args.dictSplat && passedOn.kind !== 'none') push(c.args.dictSplat, passedOn);
    else if (node && p.list) {
      // `mask=[query_mask, value_mask]`: each mask of the list, where the code writes it (a list held elsewhere is not read).
      const u = unparen(node);
      if (u.type === 'list' || u.type === 'tuple')
        for (const el of namedChildren(u)) if (unparen(el).type !== 'none' && el.type !== 'comment') push(el, ev.eval(el, c.ctx));
    } else if (node && unparen(node).type !== 'none') push(node, ev.eval(node, c.ctx));
  }
}

export function causalAdditive(ev: Evaluator, c: Call): AValue {
  return tensor({
    ndim: 2,
    axes: [{ label: 'seq' }, { label: 'seq' }],
    dtype: 'float',
    mask: { additive: true, negInf: true, tri: { region: 'upper', k: 1 }, why: msg(PHRASES.additiveCausal, `\`${ev.text(c.node)}\``) },
  });
}

/** `start:stop` texts of a slice (undefined where left out), or undefined for anything but a plain slice. */
function sliceBounds(ev: Evaluator, node: PyNode): { start?: string; stop?: string } | undefined {
  const u = unparen(node);
  if (u.type !== 'slice') return undefined;
  const colons = u.children.filter((ch) => ch.type === ':');
  const colon = colons[0];
  if (colons.length !== 1 || !colon) return undefined;
  const text = (n: PyNode | undefined): string | undefined => (n ? ev.text(n).replace(/\s+/g, '') : undefined);
  return {
    start: text(u.children.find((ch) => ch.named && ch.end <= colon.start)),
    stop: text(u.children.find((ch) => ch.named && ch.start >= colon.end)),
  };
}

/**
 * Rows and columns cut from a top-left causal buffer (`self.bias[:, :, :T, :S]` keeps the top-left corner;
 * `self.bias[:, :, S - T:S, :S]` takes the last T rows, i.e. a bottom-right aligned mask).
 */
export function sliceCausalMask(ev: Evaluator, sliced: AValue, subs: readonly PyNode[]): AValue {
  const m = sliced.mask;
  if (m && subs.length === 1 && subs[0]) return sliceCausalRows(ev, sliced, subs[0]);
  if (!m || subs.length < 2) return sliced;
  const topLeftBuffer = m.align === 'top-left' || (m.tri && ((m.tri.region === 'lower' && m.tri.k === 0) || (m.tri.region === 'upper' && m.tri.k === 1)));
  if (!topLeftBuffer) return sliced;
  const [rowsNode, colsNode] = subs.slice(-2); // at least two (checked above)
  const rows = rowsNode && sliceBounds(ev, rowsNode);
  const cols = colsNode && sliceBounds(ev, colsNode);
  if (!rows || !cols || (cols.start !== undefined && cols.start !== '0')) return sliced;
  const { sizes: _sizes, ...rest } = m;
  if (rows.start === undefined || rows.start === '0') {
    return { ...sliced, mask: { ...rest, align: 'top-left', ...(rows.stop && cols.stop ? { sizes: [rows.stop, cols.stop] as const } : {}) } };
  }
  if (rows.stop !== undefined && rows.stop === cols.stop) return { ...sliced, mask: { ...rest, align: 'bottom-right' } };
  return { ...sliced, mask: rest };
}

/**
 * Rows cut from a square top-left causal mask of S×S (`torch.tril(torch.ones(S, S))`): the first L rows
 * (`[:L]`) stay top-left aligned over L queries and S keys; the last L rows (`[-L:]`, `[S - L:]`) are the
 * bottom-right aligned mask.
 */
function sliceCausalRows(ev: Evaluator, sliced: AValue, sub: PyNode): AValue {
  const m = sliced.mask!;
  if (m.align !== 'top-left' || !m.sizes || m.sizes[0] !== m.sizes[1] || sliced.ndim !== 2) return sliced;
  const rows = sliceBounds(ev, sub);
  if (!rows) return sliced;
  const n = m.sizes[1];
  const { sizes: _sizes, align: _align, ...rest } = m;
  if ((rows.start === undefined || rows.start === '0') && rows.stop !== undefined)
    return { ...sliced, mask: { ...rest, align: 'top-left', sizes: [rows.stop, n] } };
  const fromEnd = rows.start?.startsWith('-') ? rows.start.slice(1) : undefined;
  const last = rows.stop === undefined || rows.stop === n;
  if (last && rows.start !== undefined && (fromEnd !== undefined || rows.start.startsWith(`${n}-`)))
    return { ...sliced, mask: { ...rest, align: 'bottom-right' } };
  return { ...sliced, mask: rest };
}

/** The length of the `arange` a position index comes from (`torch.arange(L)[:, None]`, `pos = torch.arange(S)`). */
function arangeSize(ev: Evaluator, node: PyNode, depth = 0): string | undefined {
  let u = unparen(node);
  while (u.type === 'subscript') u = unparen(childByField(u, 'value') ?? u);
  if (u.type === 'identifier' && depth === 0) {
    const defs = ev.resolve(u, ev.text(u)) ?? [];
    const only = defs.length === 1 ? defs[0] : undefined;
    return only?.value && only.path.length === 0 ? arangeSize(ev, only.value, 1) : undefined;
  }
  if (u.type !== 'call') return undefined;
  const fn = childByField(u, 'function');
  const list = childByField(u, 'arguments');
  const positional = list ? namedChildren(list).filter((x) => x.type !== 'keyword_argument') : [];
  const only = positional[0];
  if (!fn || !/(^|\.)arange$/.test(ev.text(fn)) || positional.length !== 1 || !only) return undefined;
  return ev.text(only).replace(/\s+/g, '');
}

// ================================================================================================ polarity by use

/** Methods that change a mask's shape or dtype, never its meaning. */
const SHAPE_ONLY_METHODS = new Set([
  'unsqueeze',
  'expand',
  'expand_as',
  'view',
  'reshape',
  'squeeze',
  'repeat',
  'contiguous',
  'bool',
  'float',
  'long',
  'int',
  'to',
  'type_as',
]);

/** The name a mask expression reads through indexing and shape/dtype-only calls (`m[:, None]`, `rearrange(m, ...)`). */
function maskRoot(ev: Evaluator, node: PyNode): PyNode | undefined {
  let n: PyNode | undefined = unparen(node);
  while (n) {
    if (n.type === 'identifier') return n;
    if (n.type === 'subscript') n = childByField(n, 'value');
    else if (n.type === 'call') {
      const f = childByField(n, 'function');
      const first = namedChildren(childByField(n, 'arguments') ?? n)[0];
      if (f?.type === 'attribute' && SHAPE_ONLY_METHODS.has(ev.text(childByField(f, 'attribute') ?? f))) n = childByField(f, 'object');
      else if (f?.type === 'identifier' && ev.text(f) === 'rearrange' && first) n = first;
      else return undefined;
    } else return undefined;
    n = n ? unparen(n) : undefined;
  }
  return undefined;
}

/**
 * Whether the function inverts the parameter itself (`~mask`, `torch.logical_not(mask)`, `mask.logical_not()`)
 * outside the first argument of a masked_fill: a second use of the parameter, independent of its fills.
 */
export function invertsParam(ev: Evaluator, scope: Scope, def: Def): boolean {
  const body = childByField(scope.node, 'body');
  if (!body) return false;
  const readsParam = (n: PyNode | undefined): boolean => {
    const root = n ? unparen(n) : undefined;
    return root?.type === 'identifier' && (ev.sr.uses[root.id] ?? []).includes(def);
  };
  let found = false;
  walk(body, (n) => {
    if (found) return false;
    if (n.type === 'call') {
      const f = childByField(n, 'function');
      const fname = f?.type === 'attribute' ? ev.text(childByField(f, 'attribute') ?? f) : f ? ev.text(f) : '';
      if (fname === 'masked_fill' || fname === 'masked_fill_') {
        // The fill's own mask argument is what polarityByFill reads; only its other arguments are walked.
        for (const a of namedChildren(childByField(n, 'arguments') ?? n).slice(1))
          walk(a, (m) => {
            found ||= isInversion(m);
            return !found;
          });
        return false;
      }
      if (fname === 'logical_not') {
        const args = namedChildren(childByField(n, 'arguments') ?? n);
        if (f?.type === 'attribute' && fname === 'logical_not' && args.length === 0) found = readsParam(childByField(f, 'object'));
        else found = readsParam(args[0]);
      }
    }
    found ||= isInversion(n);
    return !found;
  });
  return found;

  function isInversion(n: PyNode): boolean {
    return n.type === 'unary_operator' && ev.text(n).trimStart().startsWith('~') && readsParam(childByField(n, 'argument'));
  }
}

/** `node` sits in an `if`/`elif`/`else` arm (below `top`) of a chain whose conditions test `name`'s dtype. */
function underDtypeTest(ev: Evaluator, node: PyNode, top: PyNode, name: string): boolean {
  const test = new RegExp(`\\b${name}\\s*\\.\\s*(dtype\\b|is_floating_point\\b)|is_floating_point\\(\\s*${name}\\s*\\)`);
  for (let p = node.parent; p && p !== top; p = p.parent) {
    if (p.type !== 'if_statement') continue;
    const arms = [p, ...p.children.filter((c) => c.type === 'elif_clause')];
    if (arms.some((a) => test.test(ev.text(childByField(a, 'condition') ?? a).slice(0, 200)))) return true;
  }
  return false;
}

/**
 * A mask parameter whose name says nothing about its meaning (`mask`), which its own function fills where it is
 * True with a large negative value (`dots.masked_fill(mask, -torch.finfo(dots.dtype).max)`, through indexing and
 * shape ops only): the function states that True means blocked, for its other uses of the parameter too (the same
 * mask handed to SDPA on a fast path). Undefined unless every masked_fill of the parameter in the function fills it
 * that way (an inverted use, `masked_fill(~mask, ...)`, leaves the meaning unstated). Weak evidence, as a name is:
 * a caller passing a mask of known construction decides instead.
 */
export function polarityByFill(ev: Evaluator, scope: Scope, def: Def, name: string): MaskInfo | undefined {
  const body = childByField(scope.node, 'body');
  if (!body || !ev.text(body).includes('masked_fill')) return undefined;
  let fills = 0;
  let other = false;
  walk(body, (n) => {
    if (other || n.type !== 'call') return !other;
    const f = childByField(n, 'function');
    const method = f?.type === 'attribute' ? ev.text(childByField(f, 'attribute') ?? f) : '';
    if (method !== 'masked_fill' && method !== 'masked_fill_') return true;
    const [a0, a1] = namedChildren(childByField(n, 'arguments') ?? n);
    if (!a0 || !a1 || a0.type === 'keyword_argument' || a1.type === 'keyword_argument') return true;
    const root = maskRoot(ev, a0);
    const reads = root !== undefined && (ev.sr.uses[root.id] ?? []).includes(def);
    if (!reads) {
      // The parameter inside another form (`~mask`, `mask == 0`): the function does not use it one way only.
      if (new RegExp(`\\b${name}\\b`).test(ev.text(a0))) other = true;
      return true;
    }
    // A fill in an arm chosen by the parameter's dtype (`if mask.dtype == torch.bool:`) states the meaning of masks
    // of that dtype only: the other arms read other masks (a float keep mask made additive with `1 - mask`).
    if (underDtypeTest(ev, n, body, name)) other = true;
    else if (isMaskingFill(ev.eval(a1, ev.defaultCtx(scope)))) fills++;
    else other = true;
    return true;
  });
  if (other || fills === 0) return undefined;
  return {
    polarity: 'ignore',
    why: msg(PHRASES.filledWhereTrue, `\`${name}\``, `\`${scope.name}\``),
    byName: true,
    nameSource: `${name} (filled in ${scope.name}:${scope.id})`,
  };
}

/**
 * `labels[..., 0]`, `ids[:, -1]`: an integer in the last place of a subscript of two places or more (or after an
 * ellipsis) picks one entry of the last axis. What is compared is one channel of a one-hot tensor or one token per
 * row, not a token at every position: compared with 0 it is no padding mask over the positions.
 */
function picksFromLastAxis(ev: Evaluator, node: PyNode): boolean {
  const u = unparen(node);
  if (u.type !== 'subscript') return false;
  const idx = u.children.filter((c) => c.field === 'subscript');
  const last = idx[idx.length - 1];
  return idx.length >= 2 && !!last && intLiteral(ev.tree, last) !== undefined;
}

/**
 * Token ids, by the value or its name; never a value the code names as a mask (`hidden_states, attention_mask =
 * inputs` takes the token-id-ness of `inputs` to every element, but what is stored as `attention_mask` is a mask,
 * often the additive one inside a layer, whose `!= 0` marks the positions to remove).
 */
function tokenIdsNamed(ids: AValue, name: string): boolean {
  if (name && maskOfName(name)) return false;
  return !!ids.tokenIds || isTokenIdsName(name);
}

/** `node` is a name bound only as a parameter of the function `ctx` reads (`big_neg` in `def fill(keep, s, big_neg)`). */
function isParameter(ev: Evaluator, node: PyNode, ctx: Ctx): boolean {
  const u = unparen(node);
  if (u.type !== 'identifier') return false;
  const name = ev.text(u);
  const defs = ev.resolve(u, name) ?? [];
  return defs.length > 0 && defs.every((d) => d.kind === 'param') && ctx.scope.params.some((p) => p.name === name);
}

/** `torch.isnan(x)`, `np.isnan(x)` or `x.isnan()` of the very expression `x` written (same text). */
function nanTestOf(ev: Evaluator, node: PyNode, x: PyNode): boolean {
  const u = unparen(node);
  if (u.type !== 'call') return false;
  const fn = childByField(u, 'function');
  if (fn?.type !== 'attribute') return false;
  const method = ev.text(childByField(fn, 'attribute') ?? fn);
  if (method !== 'isnan') return false;
  const receiver = childByField(fn, 'object');
  const first = namedChildren(childByField(u, 'arguments') ?? u)[0];
  const tested = receiver && /^(?:torch|np|numpy|jnp|cp)$/.test(ev.text(receiver)) ? first : receiver;
  return !!tested && ev.text(unparen(tested)) === ev.text(unparen(x));
}

/**
 * A NaN replacement (`replacement`: a `nan_to_num` call, an index assignment under `isnan`) of `x`: the products
 * `0/1 mask × -inf` it clears, recorded by node (`Facts.nanReplaced`, read by ATT007). x is the product itself, or a
 * name bound to it that the replacement cleans in place or whose name the result is bound to again (`m =
 * np.nan_to_num(m)`); a copy cleaned under another name leaves the name that holds the NaN as it was.
 */
export function noteNanCleared(ev: Evaluator, x: PyNode, replacement: PyNode, inPlace: boolean): void {
  const u = unparen(x);
  if (u.type === 'binary_operator') {
    ev.facts.nanReplaced.add(u);
    return;
  }
  if (u.type !== 'identifier') return;
  const name = ev.text(u);
  if (!inPlace) {
    let r = replacement;
    while (r.parent?.type === 'parenthesized_expression') r = r.parent;
    const assign = r.parent;
    const left = assign?.type === 'assignment' && childByField(assign, 'right')?.id === r.id ? childByField(assign, 'left') : undefined;
    if (!left || left.type !== 'identifier' || ev.text(left) !== name) return;
  }
  const defs = ev.resolve(u, name) ?? [];
  for (const d of defs) {
    const v = d.kind === 'assign' && d.value ? unparen(d.value) : undefined;
    if (v?.type === 'binary_operator') ev.facts.nanReplaced.add(v);
  }
}
