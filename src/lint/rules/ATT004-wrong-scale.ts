// ATT004: a scale that is there but wrong: d instead of sqrt(d), sqrt(d_model) on per-head scores,
// scaling twice, or scaling after softmax.
import { widthPower, type ScaleSite, type SdpaSite, type SoftmaxSite } from '../analysis/facts';
import { axisAt, type AValue, type DimInfo, type ScaleOp } from '../analysis/values';
import { callerClass, heldValue } from '../analysis/call';
import { armDeadInCtx } from '../analysis/flags';
import { alternatives, byNode, consumersOf, hasRoles, isInverseSqrtDim, isT5Family, scaleOps, testOracle } from './evidence';
import { defineTemplates, msg, type MessageParts } from '../message';
import { apiName, insertKeyword, quote, type FixSpec, type RelatedSpec, type Rule, type RuleContext } from './rule';
import { factorDefinitions } from './related';
import { childByField, namedChildren, unparen } from '../syntax/tree';

const T = defineTemplates({
  softmaxBeforeScaling: 'the softmax is applied here, before this scaling',
  scalesWeights:
    '{0} scales the attention weights after softmax; the scale belongs on the scores before softmax (after softmax it only rescales rows that should sum to 1).',
  oneOverDim: '{0} is 1/{1}, one over a dimension, not 1/sqrt({2}): the logits become too small and the attention nearly uniform. Use {1} ** -0.5.',
  dividedByDim:
    'The scores are divided by {0}, a dimension, instead of its square root: the logits become too small and the attention nearly uniform. Use sqrt({1}).',
  queriesDividedByDim:
    'The queries are divided by {0}, a dimension, instead of its square root: the scores they give become too small and the attention nearly uniform. Use sqrt({1}).',
  keysDividedByDim:
    'The keys are divided by {0}, a dimension, instead of its square root: the scores they give become too small and the attention nearly uniform. Use sqrt({1}).',
  dividedByInverse:
    '{0} is already 1/sqrt({1}): dividing by it multiplies the scores by sqrt({1}) instead of dividing, so the logits grow with the head size and the softmax saturates. Multiply by it instead.',
  multipliedByDim:
    'The scores are multiplied by {0} (a dimension to the power {1}) instead of divided by sqrt(d): the logits grow with the head size and the softmax saturates.',
  fromHeadCount: 'The scale {0} is built from the number of heads, not the head dimension: divide the scores by sqrt(head_dim).',
  headsFloorWidth:
    'The scale {0} floor-divides the number of heads by {1}, the width the code splits into those heads: the quotient is 0 (a head is wider than one feature), so the scores are multiplied by 0 and the attention is uniform. Use true division, {2} / {1}, which is 1/head_dim.',
  keyCount:
    "The scale {0} uses {1}, the number of keys (the sequence axis of the keys or values, the scores' key axis), not the key dimension: the scaling then changes with the input length. Divide by sqrt(head_dim).",
  sequenceLength:
    'The scale {0} uses {1}, a sequence length (a non-feature axis of the queries), not the key dimension: the scaling then changes with the input length. Divide by sqrt(head_dim).',
  projectionInput:
    "The scale {0} uses {1}, the width going into the query projection, not the dimension of each head's q and k: divide the scores by sqrt(head_dim) instead.",
  modelWidth: 'The scale {0} uses the model width ({1}), but these are per-head scores: divide by sqrt of the head dimension (d_model / n_heads) instead.',
  boundToModelWidth:
    'The scale {0} uses {1}, which every construction of {2} binds to the same value as {3}, the width split into its heads ({4}, line {5}): these are per-head scores, so divide by sqrt of the head dimension ({3} / n_heads) instead.',
  boundToModelWidthElsewhere:
    'The scale {0} uses {1}, which every construction of {2} binds to the same value as {3}, the width split into its heads ({4} in {5}): these are per-head scores, so divide by sqrt of the head dimension ({3} / n_heads) instead.',
  constructedHere: '{0} is built here, with {1} as wide as {2}',
  splitWidthInCaller:
    'The scale {0} uses {1}, the width of the projection that the call in {2} splits into heads before it passes the queries and keys here, but these are per-head scores: divide by sqrt of the head dimension ({1} / n_heads) instead.',
  headOfWholeWidth:
    "The scale {0} is one head's width ({1}), but the queries and keys are never split into heads: each score is a dot product over all {2} features of the projection, so the logits are sqrt of the head count too large. Divide by sqrt({2}), or split q, k and v into heads.",
  keysFormed: 'the scores are formed here, from whole {0}-wide projections',
  kernelOneOverDim:
    '{0} is given {1}, one over a dimension ({2}): the scores are divided by the dimension instead of its square root, so the logits become too small. Pass {3}=1/sqrt(...) of it or leave {3} out (the default).',
  kernelTimesDim: '{0} is given {1}, which multiplies the scores by a dimension (power {2}) instead of dividing by its square root: the softmax saturates.',
  kernelModelWidth: '{0} is given {1}, 1/sqrt of the model width {2}, but these are per-head scores: use 1/sqrt(head_dim) (the default).',
  scaledBy: '{0} is scaled by {1} here',
  scaledTwiceExplicit:
    '{0} is already scaled by {1}, and {2} is given {3}={4} as well: the scores are scaled twice (by 1/d in all). Pass {3}=1.0 or drop the manual scaling.',
  scaledTwiceDefault: '{0} is already scaled by {1}, and {2} scales by 1/sqrt(E) again because no {3}= is given: the scores are scaled twice.',
  passUnitFix: 'Pass {0}=1.0 (the input is already scaled; changes the weights)',
  ignoredScale:
    '{0} gets no {1}=, so it scales by its default 1/sqrt(E), but this code computes its own scale {2} ({3}) and never hands it to the kernel: the fused path ignores that scale.',
  passScaleFix: 'Pass {0}={1} (changes the weights)',
  scaleNeverPassed: 'the scale {0} is computed here and never passed to {1}',
  twiceOnPath: 'The scores are scaled by 1/sqrt(d) twice on this path ({0} and {1}): the logits end up divided by d.',
  sameScaleTwiceQueries:
    'The same scale {0} is applied to the queries and again to the scores they form ({1}): the logits are scaled by its square, 1/d where it is 1/sqrt(d) (its default here). Apply it once.',
  sameScaleTwiceKeys:
    'The same scale {0} is applied to the keys and again to the scores they form ({1}): the logits are scaled by its square, 1/d where it is 1/sqrt(d) (its default here). Apply it once.',
  sameScaleFirstQueries: 'the queries are scaled by {0} here',
  sameScaleFirstKeys: 'the keys are scaled by {0} here',
  firstFactor: 'the first 1/sqrt(d) factor {0} is applied here',
  calleeScalesAgain: 'the called function scales by {0} again here',
  eachOperand:
    'The queries and the keys are each scaled by 1/sqrt(d) ({0} and {1}), so their product, the scores, is divided by d, a dimension, not by its square root: the logits become too small and the attention nearly uniform. Scale only one of them, or scale the scores once.',
  otherOperand: 'the other operand is scaled by {0} here',
  eachDividedByDim:
    'The queries and the keys are each divided by {0}, which grows with the dimension {1} itself, not with its fourth root: their product, the scores, is divided by the square of it, so the logits become far too small and the attention nearly uniform. Divide the scores once by sqrt({1}) instead.',
  sqrtFix: 'Use sqrt({0}) (changes the weights)',
});
import { factorReapplied, isKernelScaleName, scaleForm } from './scale-defs';

/** Calls that are a multiplication or a division of their receiver or first argument (ops.ts reads them so). */
const CALL_OPERATORS: ReadonlyMap<string, '*' | '/'> = new Map([
  ['mul', '*'],
  ['mul_', '*'],
  ['multiply', '*'],
  ['elemwise_mul', '*'],
  ['broadcast_mul', '*'],
  ['div', '/'],
  ['div_', '/'],
  ['divide', '/'],
  ['true_divide', '/'],
  ['elemwise_div', '/'],
  ['broadcast_div', '/'],
]);
import { constructionsPassSame, constructionsPassSameWithHeads, firstConstruction } from '../analysis/importer-calls';
import { lineOf } from '../analysis/workspace';
import {
  boundSizeTexts,
  classLayerWidth,
  computedFromTheOperand,
  fieldOf,
  headCountUsed,
  helperParamOnlyByName,
  lastReshapeSizes,
  sameProjectionWidth,
  splitByHeadCount,
} from '../analysis/name-evidence';
import { originRef } from '../analysis/portable';
import type { Def, Scope } from '../analysis/scopes';
import { operatorText } from '../syntax/python';
import type { PyNode } from '../syntax/tree';
import { dimOfName, isHeadCountName } from '../analysis/names';
import { keepReciprocal } from '../analysis/post-softmax-masks';
import { namedWeightsFactorUnshown } from './weights-factor';
import { constantNumber, fusedPartWidth } from '../analysis/module-constants';
import { rootedNameNode } from '../analysis/ops';
import { widerWidthProduct } from '../analysis/width-products';

/**
 * `heads // width` under square roots, `float()`/`int()`, parentheses or a positive power: `np.sqrt((self.heads //
 * self.channels))`, `(self.heads // self.channels) ** 0.5`. Group 1 is the numerator, group 2 the width.
 */
const FLOOR_HEADS = /^(?:[\w.]*(?:sqrt|float|int)\(|\()*\s*([A-Za-z_][\w.]*)\s*\/\/\s*([A-Za-z_][\w.]*)\s*\)*(?:\s*\*\*\s*(?:0?\.5|1|2))?\s*\)*$/;

/**
 * A factor written as the inverse square root of a size: a -0.5 power (`d ** -0.5`, `float(d) ** (-0.5)`) or one over a
 * root (`1 / math.sqrt(d)`, `1.0 / np.sqrt(d)`, `torch.rsqrt(d)`), not a root (`d ** (1 / 2)`, a pooled length's root).
 */
const INVERTED_ROOT = /\*\*\s*\(?\s*-\s*0?\.5\b|\b1(?:\.0*)?\s*\/\s*(?:math\.|np\.|torch\.|jnp\.)?sqrt\b|\brsqrt\b/;

export const ATT004: Rule = {
  meta: {
    code: 'ATT004',
    name: 'wrong-scale',
    severity: 'warning',
    fix: 'unsafe',
    docs: {
      summary: 'The attention scale is wrong: d instead of sqrt(d), sqrt(d_model) for per-head scores, applied twice, or after softmax.',
      whatItDoes:
        "Classifies every factor that multiplies or divides q, k, the scores or the weights: a dimension (`d_k`, `k.size(-1)`, `self.head_dim`; a name that says it is a root or an inverse, `self.sqrt_att_head_size`, `inv_sqrt_dim`, is not read as a dimension, and no name is read at all in a method whose class did not parse, such as a cookiecutter template's `class TF{{cookiecutter.camelcase_modelname}}SelfAttention`, whose `self.` definitions are then missing), its square root, or a named scale whose definition it follows (`self.scale = head_dim ** -0.5`, `self.scaling = config.hidden_size ** -0.5`: a constructor's config object is read by its fields, and a field a config dataclass declares only as a number (`d_model: int = 768`, in this file or in config.py, read through `cfg: ModelConfig`) by its name; a temperature its caller binds, `ScaledDotProductAttention(temperature=d_k ** 0.5)`; a named scale kept in a range, `jnp.maximum(self.tau, 0.01)`). It reports a division by the dimension itself (also one head's width over a constant, `head_dim ** 1 / float(4)`, which `**` makes head_dim / 4; the queries and the keys each divided by it are one finding, at the query, also when the two are written with different names of one value, `d ** VAL_1 / 4` and `d ** VAL_2 / 4` with both constants 1; or by a scale that is already 1/sqrt(d): `/ self.scale` with `self.scale = head_dim ** -0.5`, or `/= theta_x.shape[-1] ** -0.5`, also of a size whose name places it nowhere, `logits.div(self.scale)` with `self.scale = float(attention_dim) ** -0.5` (session 47: dividing by any size's inverse root multiplies the logits by its root; the inversion written in the factor or its definition, `** -0.5`, `1 / math.sqrt(d)`, not a root such as `self.pooled ** (1 / 2)` of `int(n / inter)`; not a literal, nor a length read off another axis), also on scores of operands with no query/key names, a non-local block's conv features `matmul(theta_x, phi_x)`, when the factor is the size their product sums over and a softmax follows, unless the operands are unit-normalised (cosine logits); also the width of the projection's input, `B, N, C = x.shape` then `/ C`, whatever follows it, a temperature included), a square root of the model width (`d_model`, `embed_dim`, the `C` that was split into heads, the number of heads times one head's width read off 4-D q or k, `B, H, L, D = k.size()` then `sqrt(H * D)`) on multi-head scores (also a head width held by a constructor parameter, `sqrt(self.d_k)`, that every construction of the class the workspace shows binds to the same value as the width of the projection that is split into heads, with more than one head: `Dense(d_model)`, `MultiHeadAttention(h, d_k, d_model)` after `h = 8`, `d_k = 512`, `d_model = 512`; heads stacked on the batch axis count as a split too, equal pieces of the projection's width joined back along axis 0 (TF1's `tf.concat(tf.split(q, num_heads, axis=2), axis=0)` after `tf.layers.dense(inputs, num_units)`, divided by `tf.constant(num_units ** 0.5)`; `torch.cat(torch.split(q, d_head, dim=-1), dim=0)`), not pieces of the sequence axis (blocks stacked on the batch); `torch.split`'s second argument is each piece's width (`torch.split(q, self.d, dim=-1)`: pieces d wide, so `self.d ** 0.5` is the size the scores sum over), while TensorFlow's, NumPy's and JAX's `split` and `array_split` take a count of pieces (`tf.split(q, K, axis=-1)` of a `K * d` axis: pieces d wide); not when one head is built or a value is not shown; not a name the code builds a wider width from, a product with another name (not a module constant bound to a number, which counts as that number, as a literal does) that is no ratio, part count or extent (`D = K * d`, `nn.Linear(K * d, K * d)`, in the class, at module level of the file, or in every file that builds the class, with the name it passes: GMAN's `self._d ** 0.5` on heads of width d): one piece of that width, whatever its name says (`dim * mlp_ratio`, `dim * n_parts`, `seq_len * dim` say nothing); not when a caller binds that name to one head's width, `C // n_heads`, nor when every construction of the class passes the same value for it and for the head width the split of the queries states, `self.head_dim` of `view(B, T, self.n_heads, 3 * self.head_dim)`, nor for a last axis named `D` of a tensor already split into heads, nor for the size the product itself sums over wherever it sits (`D` of `einsum('bhdl,bhds->bhls', q, k)` with `q: (B, H, D, L)`, `d_k` unpacked from keys stated as `(B, H, d, S)`), nor when the query projection is as wide as the factor times a head count (`nn.Linear(query_dim, dim * heads)`, or `inner = dim * heads` bound once in the constructor: each head is `dim` wide, whatever the name says), nor when the factor holds, in the context of the constructions in view, the same width as the per-head size the queries' view states (`ScaledDotProduct(temperature=dim_key ** 0.5)` beside `view(b, n, self.heads, self.dim_key)`, built `MultiHead(heads, dim, dim)`: both hold the caller's `dim`), nor on scores whose queries are their projection's whole output, never split into heads (no head axis: a fourth axis of a stack of decoder layers, `query_proj(hs)` of `hs: [L, B, Q, C]`, is no head axis), nor on single-head scores: with one head, whether the queries have no head axis or one of length 1, and a fused `nn.Linear(dim, 3 * dim)` cut into q, k and v, its part count also held in a module-level constant, `dim * N_PARTS` with `N_PARTS = 3`, the model width is the head width), the converse, one head's width `d_model // num_heads` on scores of queries and keys that are whole outputs of `nn.Linear(·, d_model)` never split into heads (also copies of one layer, `clones(nn.Linear(d_model, d_model), 4)`, by a helper of this or another file, applied in `[lin(x) for lin, x in zip(self.linears, (query, key, value))]`; not when the head width is not that projection width divided, nor when another context shows the scores split, nor when the factor's `self.` attribute is, in the class forming the scores, only that projection's own width, `self.n_hidden = n_hidden` beside `nn.Linear(dim, n_hidden)`, whatever a caller building one module per head binds it to), a square root of the width going into a query projection that narrows it or is split into several heads (not a factor that is the projection's output width as well, by name or by the number a module constant holds: `nn.Linear(d_model, d_k)` with `d_model = d_k = 16`, then `/ math.sqrt(d_k)`, session 47) (`nn.Linear(n_embd, head_size)`, or a class of the file written as one, its input times a weight its constructor shapes `(n_in, n_out)`, `jnp.dot(x, self.weights)`, then `C ** -0.5` with `B, T, C = x.shape`; or the data times a learned weight whose creation writes its two sizes as names, read as `nn.Linear` of those widths: `self.w_q = nn.Parameter(torch.randn(d_in, d_out))` then `x @ self.w_q` and `math.sqrt(self.d_in)`, `(d_out, d_in)` used as `x @ self.w_q.T`, TF's `tf.Variable(tf.random.truncated_normal([d_in, d_out]))` with `tf.matmul`, also in a literal dict or in a dict the class fills with such weights only, read under a key the code computes (`self.w[name + str(i)] = glorot(d_in, d_out)` in loops, or a dict comprehension, read as `self.w['q' + str(i)]`), or made by a helper of this or another file, `glorot(d_in, d_out)`, read with the sizes its call writes; not queries against learned keys or memory slots, `q @ self.keys`, which are scores; arguments bound with `functools.partial`, also under `jax.jit` or `torch.compile`, count as the call's; not when the projection's width is the input's times a count the code does not show, `nn.Linear(d, d * n_parts)`, `d * self.cfg.parts` with the config not in view: each part may be as wide as the input; not when every construction of the class the workspace shows, in the file or in a file importing it, passes the same value for both widths, `Head(block_size, n_embd, n_embd)`: one head as wide as the embedding (also when a module-level helper of the file forms the scores for the class's method, `wei = scores(q, k, C)`), or, for a fused projection split into heads, for the input width and the head width the split states (`nn.Linear(in_dim, 3 * head_dim * n_heads)`, `view(B, T, self.n_heads, 3 * self.head_dim)` then `chunk(3, dim=-1)`, built `SelfAttention(d_model, d_model, n_heads)`), or, when the input width is a module-level constant (`n_embd = 32` in the file, or imported from a config module), passes that constant or its value as the head width, `Head(n_embd)`, a name an importing file takes from the same module and that no function rebinds), two 1/sqrt(d) factors on one path (not a 1/sqrt of a size read off another axis than the features, `math.sqrt(rows)` with `rows, cols, batch, embed = x.shape`: tied row attention's scores sum over the rows too, so `head_dim ** -0.5 / math.sqrt(rows)` is one scaling; nor one 1/sqrt per axis an einsum sums over, `einsum('b r h i d, b r h j d -> b h i j', q, k) * self.scale * num_rows ** -0.5`, which sums over the rows r and the features d: one normalisation of a sum over r times d terms; also when a helper of another workspace file returns the scaled `q`; also when a module scales q and then calls a function of its file that scales q again, directly or through a name bound to it or to one of several such functions, `attn_fn = chunked_attention if flag else attention`, reported at the caller's factor since the function is right for its other callers; one scaling written once in a comprehension over `(q, k, v)` counts once; including a pre-scaled `q` given to `F.scaled_dot_product_attention`, `flash_attn_func`, xformers' `memory_efficient_attention` or `jax.nn.dot_product_attention`, which scale by 1/sqrt(E) again unless `scale=` / `softmax_scale=` is passed, or which are handed `scale=` 1/sqrt(d) on top; not keys (or queries) multiplied by a factor known only by a name that says scale, whose value the code does not show to be 1/sqrt(d) (session 48): a learned per-head gain, `q * self.q_scale` with `self.q_scale = nn.Parameter(torch.ones(heads, 1, 1))`, or a tensor's quantisation scale, `k_fp8.to(torch.float16) * k_scale` (an FP8 cache dequantised before the kernel); the queries and the keys each divided by sqrt(C) are reported as what they are, scores divided by C, the same bug as `/ d_k`, unless a temperature then scales the scores (LoFTR-style matching, `einsum('nlc,nsc->nls', feat0, feat1) / temperature`), where the 1/C is a deliberate normalisation of each feature set and the temperature sets the sharpness), a scale applied to the weights after softmax (not a count of positions read off an axis other than the features, multiplied or divided in once, `w * N` with `B, N, C = x.shape`: the weights against the uniform 1/N, or attention pooling that keeps a sum's magnitude, where its root, `w / math.sqrt(N)`, stays reported; not the reciprocal of a keep probability, `scale = 1 / (1 - float(ratio))` then `np.where(mask, w * scale, 0)`: inverted dropout written by hand; not a quantise-dequantise round trip that divides the weights by a factor and multiplies them by the same factor in one function, `clamp(w / a_scale, -448, 448).to(torch.float8_e4m3fn)` then `* a_scale`; and, for a factor known only by its name (`self.tau`, `alpha`, `v_scale`), not a coefficient of a blend of the weights with another term, `attn * self.alpha + prev_attn * (1 - self.alpha)`, nor a parameter of the function that has no default and that no call in the file or in a file importing it passes, an FP8 kernel's `p * v_scale`, nor a value computed from these very scores, `keep_scale = torch.sigmoid(torch.logsumexp(s, -1) - self.sink)`: a learned temperature on the weights alone, `attn / jnp.maximum(self.tau, 0.01)`, or a helper's `temperature` that a caller passes, stays reported), and a `scale=`/`softmax_scale=` handed to a fused kernel (`jax.nn.dot_product_attention`'s `scale=` too) that is 1/d, a dimension, or 1/sqrt of the model width on per-head scores (the width going into a query projection split into heads, `B, T, C = x.size()` then `scale=C ** -0.5`, included); the queries and the keys each scaled by the same fourth root, `q * C ** -0.25` and `k * C ** -0.25`, are judged as one 1/sqrt(C) on the scores, once, at the query; a whole number written where a width goes (`/ 64`, `/ math.sqrt(64)`, `64 ** -0.5`) is read as one head's width where it equals the size the scores' product sums over as the code states it (`view(B, T, 8, 64)`), so `/ 64` is a division by the dimension and two `math.sqrt(64)` factors are two scalings, and so is a constant on the scores, or on the queries or keys that form them, that is that width or one over it, written out or held by a named scale (`* 64 ** -1`, `self.scale = 1.0 / 64`, `/ self.temperature` with `self.temperature = 64`, `q = q / 64`, a temperature module built with `temperature=64`), while its root (`self.temperature = 8`) is the right scale; a number handed to a kernel as its scale (`scale=1.0 / 64`, `softmax_scale=1 / 64`, `scale=64`, also a named `self.scale = 1.0 / 64` or a constant imported from a config module) is compared with the queries' stated width the same way, and left alone when the width is not stated (`view(B, T, 3, 8, -1)`); a factor applied by a call (`torch.mul(scores, c)`, `tf.multiply`, `scores.div(64)`) is read as the operator it stands for; a factor applied to queries and keys broadcast against each other before their features are summed (`(q[..., :, None, :] * k[..., None, :, :] * s).sum(-1)`, `tf.reduce_sum(q_ * k_ * scale, -1)`) is a factor on the scores the sum forms, and judged as one; and a fused kernel (`F.scaled_dot_product_attention`, flash-attn's `flash_attn_func`) called without `scale=`/`softmax_scale=` although the module computes its own scale with a factor beyond 1/sqrt(d) (a layer-index or YaRN factor, a constant, 1/d) (its 1/sqrt(d) also written with an exponent a name or a config field holds, `self.head_dim ** self.cfg.power` with the field -0.5): the kernel then silently uses its default. A sqrt of the head width multiplied into q or k on their way to such a kernel called without `scale=`, next to a scale of the module's own (`q = q * self.scale / (q.shape[-1] ** -0.5)`, also written in one factor, `q * (self.scale / (dim_head ** -0.5))`, with a caller that binds the scale to a number, `Attend(scale=qk_norm_scale)`), is not reported: it cancels the kernel's default 1/sqrt(E), so the net scale is the module's (a way to hand a custom scale to a kernel that takes none); alone, or on the way to a product written by hand, it is, except where the code says unscaled attention is meant (a test's reference that compares the kernel with unscaled attention under a tolerance, `self.assertLess(diff, 5e-5)`, or the T5 family: the kernel then runs at scale 1, ATT003's question). A factor on a fresh random draw (`np.random.randn(d, d_k) * np.sqrt(2.0 / d)`, `nn.Parameter(torch.randn(d, d) / math.sqrt(d))`: a projection's initialiser, its spread set once and then trained; also a draw of a NumPy generator, `rng = np.random.default_rng(seed)` then `rng.normal(size=(B, T, d)) / np.sqrt(d)`, in this file or imported) is no second 1/sqrt(d) on the logits. A fused kernel call in an `if`/`elif` arm that a context cannot take (`if backend == \"sdpa\":` in a helper whose callers leave `backend=\"flash_attn\"` at its default, or an arm after a condition known True) is not judged in that context. A learned weight multiplied into the data as it was initialised (`x @ self.V.t()` with `self.V = nn.Parameter(torch.randn(r, d) / math.sqrt(d))`, also when the class re-creates the parameter elsewhere) is a projection: its fan-in initialisation is no factor on q or k. A weight scaled where it is used (`x @ (self.wq / math.sqrt(d))`) still is one. A view that adds axes and ends in -1 (`qkv(x).view(B, N, 3, 4, -1)`, a literal head count) may split the projection's width, so `q.shape[-1]` after it is not read as the model width; a width read before the split still is. So may a reshape whose sizes the code does not show (an einops pattern held in an attribute, `rearrange(t, self.split, h=h)`), and `unflatten(-1, (heads, -1))` does: the queries are then not known to be whole projections, and one head's width on their scores is not reported. Sizes given as one tuple bound to a name in the function, `heads_shape = (B, -1, self.n_heads, self.d_head)` then `q.view(heads_shape)`, are read as written out (cross-attention to a text context of another length). A name in the scale that sizes a non-feature axis of the queries (`math.sqrt(T)` with `q: (B, H, T, D)`) is reported as a sequence length, and so is a size read off the query axis of the very queries whose matmul forms the scores, whatever name holds it (`dk = q.shape[1]` of `(B, N, d)` queries, `q.size(1)`, `q.shape[-2]`, before `q @ k.transpose(1, 2)`, also when a helper of the file forms the product; a positive index only where the queries' rank is known, by the code or a stated shape; not an einsum or a transposed left operand, which may contract that axis); not the size of an axis of length 1 (the head count a caller passes as 1, `CausalSelfAttention(h_dim, max_T, 1)`, inside `sqrt(C // self.n_heads)`). A factor held in a local assigned once (`norm = math.sqrt(T)` then `/ norm`, `norm = np.sqrt(self.heads // self.channels)`) is read through that definition, whatever the local is called. The width going into a projection that keeps it (`nn.Linear(n_embed, n_embed)`, then `_, T, C = x.shape` and `C ** -0.5`) is the model width when the queries are then split into several heads (`view(B, T, n_heads, head_size)`), not on one head. A head count floor-divided by the width the code splits into those heads (`np.sqrt(self.heads // self.channels)` beside `dh = self.channels // self.heads`) is 0, a scale that zeroes the scores; true division, `np.sqrt(self.heads / self.channels)`, is 1/sqrt(head_dim), the right scale, and `self.heads / self.channels` without the root is 1/d. A width held in a module-level constant is read as its number wherever sizes are compared: a name bound once at module level, and in no function, to a whole number or to an expression of such names (`D_MODEL = 512`, `N_HEADS = 8`, `HEAD_DIM = D_MODEL // N_HEADS`), in the file or imported from a workspace module (`from .config import D_MODEL, N_HEADS`), so `64 ** -0.5` and `/ 64` are placed against `view(B, T, N_HEADS, HEAD_DIM)`, and `math.sqrt(D_MODEL)` on per-head scores is the model width beside `nn.Linear(D_MODEL, 3 * D_MODEL)`; `HEAD_DIM ** -0.5`, `1 / math.sqrt(HEAD_DIM)` and `sqrt(D_MODEL // N_HEADS)` stay silent. A name bound twice, or also in a function, is no constant. So are a class attribute bound once in the class body to such a number (`class Cfg: HEAD_DIM = 64`, a dataclass's `HEAD_DIM: int = 64`) read as `Cfg.HEAD_DIM`, or as `cfg.HEAD_DIM` after `cfg = Cfg()` at module level, the class in the file, imported or star-imported, and assigned as an attribute nowhere in the file (not `cfg.HEAD_DIM = 32`, `self.HEAD_DIM = ...`, nor an instance made with arguments), and a module constant a star import of a workspace module brings in (`from config import *`). A count over the width split into that count (`* self.groups / self.out_ch`, `/ self.out_ch * self.groups`, `* (self.heads / self.dim)`), where the size the scores sum over is stated as that width floor-divided by the count (`cg = self.out_ch // self.groups`, `view(B, T, self.heads, self.dim // self.heads)`), is 1/d whatever the names, and reported so (also held by a name, `self.scale = self.groups / self.dim`); its square root, `math.sqrt(self.groups / self.out_ch)`, `(self.groups / self.dim) ** 0.5` or `self.scale = math.sqrt(groups / dim)` with the constructor's parameters, is 1/sqrt(d), the right scale, whatever the count is called (it is not read as the projection's input width, nor the count as a sequence length). Local attention over a window of keys unfolded around each query (stand-alone self-attention: q `(B, G, d, H, W, 1)` times keys `(B, G, d, H, W, k*k)`, summed over the group's channels) forms scores too, with the window as their key axis. Weights of a product whose operands carry no query/key names are attention weights when both operands are projections of the data (not a learned matrix, such as a router's expert embeddings) and a later product sums the weights over the axis the softmax normalised (slices of one fused projection, `einsum('bhid,bhjd->bhij', a, b)`, softmax, then `einsum('bhij,bhjd->bhid', w, c)`): a scale after that softmax is reported whatever the slices are called, and so is a positive power of a dimension on their scores before it (cross attention's `tquery` of a second fused projection against `key`, `einsum(..., tquery, key) * (dim // heads) ** 0.5`; not on cosine logits). `tuple(t)` and `list(t)` of a tensor hold its slices along the first axis, as unpacking the tensor does (`q, k, v = tuple(rearrange(qkv, 'b t (d k h) -> k b h t d', k=3, h=heads))`). CNTK's `element_select(flag, x, y)` is read as `where`, so scores selected against a fill reach the softmax as scores. A size is given a role by what the code does with it, not by its name alone: a model-width name (`dim`, `d`, `embed_size`, `d_model`) on per-head scores is reported only where the code shows that width split into heads (divided by a head count in the file or in a workspace file read for it, `dim // heads`, `int(d_model / num_heads)`; the input or output width of a dense layer of the class or of a class of the file that builds it, `nn.Linear(d_model, n_head * d_k)` beside `ScaledDotProduct(temperature=np.power(d_model, 0.5))`; the query projection's width, also `dim * 1` or `inner = dim`; the argument a caller binds it to, split there, `C` of `C // n_heads`), so `dim ** -0.5` in a module handed heads by its caller, or `D ** -0.5` of `q = randn(B, T, H, D)`, stays silent; a head-count name (`head`, `h`) that the code uses as each head's width (the size the scores sum over, or the last size of a view, `reshape(B, N, 3, self.heads, self.head)`) is no head count, so `head ** -0.5` is the right scale; a helper's parameter read as a dimension by its name (`def attend(q, k, v, d_k)` then `/ d_k`) is left to what the callers pass where a call in the workspace passes something else than a plain dimension (`attend(q, k, v, math.sqrt(self.dh))` from another file, or a name passed on past the call depth; a helper called with `self.head_dim` is still reported), and where no call of the helper is in view at all (session 48: no caller in the file nor in a workspace file importing it; a module's `forward`, called through its instance, is not such a helper): an unseen caller may pass the root; a factor named like a scale after the softmax that its one definition computes from the weights themselves (`alpha * log_alpha`, an entropy term) is no scale; and a coefficient of 2 or 3 on a product (`x2 - 2 * x @ y.T + y2`, squared distances of 2-D points) is not read as a stated head width. A scale built from a head count whose value the code does not show (`self.h = config.h`, `/ math.sqrt(self.h)`) is reported only where the code uses that count as one: a width divided by it (`dim // self.h`), a size of a reshape or an einops pattern (`view(B, T, self.h, -1)`, `h=self.h`), in the file or in a workspace file it imports (a base class that splits the heads), or a count read off an axis the layout labels heads (`k.size(1)` of `(B, H, T, d)`); the name alone (`h` is as often a hidden width) is no evidence (session 48). A size named like a head count that the code makes each head's width (`h = d // self.n_head` then `view(b, n, self.n_head, h)`, or the size after the head axis of a view, `view(B, N, 3, self.heads, self.head)`) is no head count when read off the queries' last axis (`d_k = q.shape[-1]`). Nor is a last axis an einsum's letters call heads when the scores' product sums over it (`jnp.einsum(\"td,ndh->nth\", x, w_qkv)` split on that axis into q, k and v, then `1 / jnp.sqrt(k.shape[-1])`: `n` is the heads there, `h` each head's width), while a count read off a last axis of heads that the product does not sum over (`einsum('bndh,bmdh->bhnm', q, k)`, the features before the heads) stays a head count. The softmax's backward pass written out (`dS = P * (dP - (P * dP).sum(-1, keepdims=True))`, NumPy code with hand-written gradients; also with the gradient first in the weighted sum, `(dP * P).sum(-1)` or `np.sum(dP * P, axis=-1)`, session 47) is a gradient of the scores, not weights: its chain-rule `/ sqrt(d)` (or `ds *= self.scale`) is no scale after softmax. An attribute of the class forming the scores under a root (`math.sqrt(self.d_model)` with `self.d_model = settings.get(\"d_model\")`, a value not followed) is the query projection's input width where that projection is `nn.Linear(self.d_model, self.d_qk)`; a weight drawn from a shape tuple bound once to a name (`shape = (embedding_dim, head_size)`, `Parameter(torch.randn(shape) * 0.02)`) is a projection of those widths; scores of rank 5 (grouped-query `(B, kv_heads, group, T, S)`) are per-head scores as rank-4 ones are, and a head count floor-divided by a group size (`self.num_heads // self.n_rep`) is a head axis. A size read off the keys' sequence axis (`keys.shape[-2]` of keys swapped for the product, `k.transpose(2, 3)` or `transpose_b=True`) or off the values the weights are multiplied with (`tf.shape(value)[1]` of `(batch, time_k, units)` values) is the number of keys, a length. Scores of rank 4 are per-head scores only where the code shows the features split: a view whose last size is the last axis of the projection's input read off the tensor, of a projection that keeps the width (`B, T, D = x.shape`, `self.wq(x).view(B, n_chunks, L, D)` with `nn.Linear(d, d)`), keeps each position's features whole (chunks or windows of one head), and queries no view has restated since the projection (a fused projection's chunk of a 4-D input, `(B, F, N, C)` frames of tokens) are not split either, so the model width there is the head width. A positive power of the width on the scores of queries and keys both divided by their norm (`x / x.norm(dim=-1, keepdim=True)`, nGPT's `justnorm`, `F.normalize`), or handed to a kernel as `scale=` for them, is a temperature on cosine logits, not reported. A head width the constructor replaces by the input width when it is None (`head_size = head_size or n_embd`, `n_embd if head_size is None else head_size`) is that width for the constructions that leave it out. One name, read with the same reaching definitions, applied to the queries (or keys) and again to the scores they form with the same operator, one of its definitions a root of the width (`scale = query.size(-1) ** 0.5` when no `scale` is passed, then `query / scale` and `softmax(similarity / scale)`), is reported: whatever a caller passes, the scores carry its square. A kernel handed `scale=` 1/sqrt of the model width is reported where the queries show an axis of heads (in the code, or in their stated shape, `(B, H, T, d_model // H)`); the kernel's rank of 4 alone is none (one head as `q.unsqueeze(1)`, windows in the head slot). Scores that no softmax normalises and that are multiplied with the values as they are (softmax-free attention, SimA's `wei = q @ k.transpose(-2, -1) * C ** -0.5`, masked with 0, then `wei @ v`) carry no temperature: a factor on them is a gain on the output, and which width it holds is not judged (a sigmoid of the scores, or a softmax of them anywhere in the context, keeps them judged). Heads folded into the batch axis are still several heads: queries viewed as heads (`view(b, t, h, s)`) and then folded (`.transpose(1, 2).contiguous().view(b * h, t, s)`, a first size stated as the batch times a head count) before `torch.bmm`, from a projection that keeps the width (`nn.Linear(emb, emb)`), scaled by the width read off its input (`b, t, e = x.size()`, then `/ (e ** 0.5)`, or the queries and the keys each divided by `e ** (1 / 4)`, reported once, at the query) are reported as the input width; each head as wide as the input (`nn.Linear(emb, emb * heads)`, `view(b, t, h, e)`) is not. Pieces one head wide (torch's split size, `Q.split(self.d_head, dim=2)`, `d_head = d_model // num_heads`) or as many as the heads (a count of sections, `tf.split(Q, num_heads, axis=2)`) cut the features whatever the axis number, also of a tensor whose rank the code does not state; joined back along axis 0 they are heads on the batch, and the projection's output width on their scores (Set Transformer's `math.sqrt(self.dim_V)` beside `Q.split(dim_split, 2)`) is reported as the model width; the input width of a projection whose heads are only such stacked pieces (GST-Tacotron's `nn.Linear(key_dim, num_units)`, `key_dim` bound by its caller to one head's width) is no evidence and is not reported. (Session 45: the regression group's miss b3-29 lost the heads at the fold, and `Q.split(d_head, dim=2)` of a projection applied to a parameter was not known to cut the features; 163 files of the rescan repositories that fold heads with `view(b * h, ...)` and 9 that join split pieces back gave no other change.) A module whose forward only splits its input into heads with einops (`rearrange(self.proj(x), \"b n (h d) -> b h n d\", h=self.heads)`) keeps the head axis at its instances' calls, so a size read off that axis is the head count (session 47; the regression group's miss b55-01).",
      whyIsThisBad:
        'The scale keeps the logits at unit variance. Dividing by d instead of sqrt(d) (or scaling twice) makes the logits too small and the attention nearly uniform; sqrt(d_model) on per-head scores over-shrinks them by sqrt(n_heads); a scale after softmax does nothing to the logits and breaks the rows-sum-to-1 property.',
      example: `head_dim = q.size(-1)
scale = head_dim ** -0.5
scores = q @ k.transpose(-2, -1) / head_dim
q = q * scale
out = F.scaled_dot_product_attention(q, k, v)`,
      useInstead: `head_dim = q.size(-1)
scores = q @ k.transpose(-2, -1) / math.sqrt(head_dim)
out = F.scaled_dot_product_attention(q, k, v)  # scales by 1/sqrt(E) itself`,
      whereReported:
        'At the wrong factor, the use (`/ d_k`, `* self.scale`, the `scale=` argument; of two 1/sqrt(d) factors the second, on each path to the softmax (two branches that each scale the scores again after one scaling of q are two findings), or that of the caller when a called function scales again), or at the fused kernel call that scales a second time. Related locations: where the scale and the dimension it is made of are defined (`self.scale = head_dim ** -0.5`), the manual scaling of q or k before a fused kernel, the first of two 1/sqrt(d) factors, the softmax before a post-softmax scale, and a scale the module computes but never passes.',
      fixSafety:
        'Where offered (`math.sqrt(...)` around a dimension, `scale=1.0` for a pre-scaled SDPA call) the fix changes the computed weights, so it is an unsafe quick fix, never part of a fix-all.',
      references: [
        { title: 'Attention Is All You Need, section 3.2.1', url: 'https://arxiv.org/abs/1706.03762' },
        {
          title: 'torch.nn.functional.scaled_dot_product_attention (scale parameter)',
          url: 'https://pytorch.org/docs/stable/generated/torch.nn.functional.scaled_dot_product_attention.html',
        },
      ],
    },
  },

  create(ctx: RuleContext) {
    const ev = ctx.analysis;
    const reported = new Set<number>();
    const softmaxSites: SoftmaxSite[] = [];
    /** Factors read as the model width in some context, reported at the end unless another context binds them to a head's width. */
    const modelWidth: { node: PyNode; message: MessageParts; evidence: (RelatedSpec | undefined)[]; byName?: string[] }[] = [];
    const headWidthSomewhere = new Set<number>();
    /** Factors that are a head's width (`d_model // n_heads`) on scores of whole, unsplit projections, reported at the end unless another context shows the scores split. */
    const headOnWhole: { node: PyNode; message: MessageParts; evidence: (RelatedSpec | undefined)[] }[] = [];
    const headOnSplitSomewhere = new Set<number>();

    /** Reported at the scaling (the use); where the scale and its dimension are defined is the evidence. */
    const report = (
      node: ScaleOp['factorNode'],
      message: MessageParts,
      fix?: Parameters<RuleContext['report']>[0]['fix'],
      related?: (RelatedSpec | undefined)[],
    ): void => {
      if (reported.has(node.id)) return;
      reported.add(node.id);
      ctx.report({ node, message, fix, related });
    };

    /**
     * Weights of a product whose operands have no q/k roles (`einsum('bhqd,bhkd->bhqk', a, b)` of two slices of one fused
     * projection, whatever they are called) that a later product sums over the very axis the softmax normalised (the ·V
     * step, `einsum('bhal,bhlv->bhav', w, c)`): attention weights by what the code does with them, not by a name.
     */
    const mixedOverNormalisedAxis = (attn: NonNullable<ScaleSite['target']['attn']>): boolean => {
      const softmaxNode = attn.softmax?.site;
      /* c8 ignore next -- weights always carry the softmax that made them (ops.ts, softmax); the type keeps it optional */
      if (!softmaxNode) return false;
      // Both operands of the scores are projections of the data (a router's or a prototype pooling's learned matrix,
      // or a tensor the code shows nothing of, is not): token features against token features.
      const formed = ev.facts.matmulAt(attn.formedAt);
      if (formed.length === 0 || !formed.every((m) => m.a.proj !== undefined && m.b.proj !== undefined && !m.a.learned && !m.b.learned)) return false;
      return consumersOf(ev, softmaxNode).some((c) => c.normalised !== undefined && c.contracted === c.normalised && !c.normalisedKept);
    };

    /**
     * Scores, multiplied by a positive power of a dimension, whose operands have no q/k roles by their names (cross
     * attention's `tquery` of a second fused projection against `key`) but are attention by what the code does with them:
     * both operands projections of the data (not learned matrices), the scores softmaxed in this context, and the weights
     * then summed by a product over the very axis the softmax normalised (the ·V step). Not cosine logits (queries and
     * keys divided by their norm), where a positive power of the width is a temperature.
     */
    const mixedScores = (site: ScaleSite): boolean => {
      const attn = site.target.attn;
      if (attn?.stage !== 'scores') return false;
      const formed = ev.facts.matmulAt(attn.formedAt);
      if (formed.length === 0 || !formed.every((m) => m.a.proj !== undefined && m.b.proj !== undefined && !m.a.learned && !m.b.learned)) return false;
      if (unitOperands(attn.formedAt)) return false;
      return ev.facts.softmax.some(
        (s) =>
          s.ctx === site.ctx &&
          s.input.attn?.formedAt === attn.formedAt &&
          consumersOf(ev, s.node).some((c) => c.normalised !== undefined && c.contracted === c.normalised && !c.normalisedKept),
      );
    };

    const onAttention = (site: ScaleSite): boolean => {
      const t = site.target;
      // Weights count only when they are the softmax of q·kᵀ scores (not a softmax of q or k in linear attention).
      if (t.attn)
        return t.attn.stage === 'weights'
          ? !!(t.attn.queryText && t.attn.keyText) || mixedOverNormalisedAxis(t.attn)
          : hasRoles(t) || t.attn.keyAxis !== undefined;
      return t.role === 'query' || t.role === 'key';
    };

    /**
     * The scaled scores are the left operand of a product with the values, as scores (no softmax made weights of them:
     * SimA's softmax-free attention, `wei = q @ k.T * c` then `wei @ v`), and no softmax of these scores is taken
     * anywhere in the context.
     */
    const rawByFormed = new Map<number, boolean>();
    const usedRawAsWeights = (site: ScaleSite): boolean => {
      const formedAt = site.target.attn?.formedAt;
      /* c8 ignore next -- a factor recorded on the scores is recorded with the scores it scales, which say where they were formed; the type keeps it optional */
      if (!formedAt) return false;
      const known = rawByFormed.get(formedAt.id);
      if (known !== undefined) return known;
      const raw =
        !ev.facts.softmax.some((s) => s.input.attn?.formedAt === formedAt) &&
        ev.facts.matmul.some((m) => m.a.attn?.stage === 'scores' && m.a.attn.formedAt === formedAt && m.b.role === 'value');
      rawByFormed.set(formedAt.id, raw);
      return raw;
    };

    const bare = (t: string): string => t.replace(/^self\./, '').replace(/\s+/g, '');
    /**
     * The name is the input or output width of the projection that made these queries (`nn.Linear(d_model, d_model)`,
     * `Dense(units=self.d_model)`, `dim * 1`, `inner = dim`).
     */
    const projectionWidth = (proj: ScaleSite['target']['proj'], t: string, site: ScaleSite): boolean =>
      !!proj && [proj.inText, proj.outText].some((w) => w !== undefined && sameProjectionWidth(ev, site.ctx.scope.ownerClass, w, t));
    /**
     * What the call that made this context passes for the factor's name: the value's own text, and the argument as
     * written at the call (`attention_full_width(q, k, v, C)` binds `d_model` to `C`, which the caller splits, `C //
     * n_heads`), each checked like the name.
     */
    const boundTexts = (op: ScaleOp, site: ScaleSite): string[] =>
      boundSizeTexts(ev, rootedNameNode(ev, op.factorNode, true) ?? rootedNameNode(ev, op.factorNode, false) ?? unparen(op.factorNode), site.ctx);
    /** Texts each context's call binds a factor to (by the factor's node), for the name-only model-width readings. */
    const boundByNode = new Map<number, Set<string>>();
    const dimWhich = (dim: DimInfo): 'head' | 'model' | 'heads' | 'unknown' => {
      if (dim.which !== 'unknown') return dim.which;
      // A name under a root written out is not matched by its text with a model width elsewhere in the file (a helper's
      // `dim` parameter is not the class's `dim` split into heads).
      if (dim.rooted) return 'unknown';
      for (const t of ev.modelDimTexts) if (bare(t) === bare(dim.text)) return 'model';
      return 'unknown';
    };

    /**
     * The factor is the width of the query projection's input (x.shape[-1], or the Linear's in_features)
     * while the projection maps to a different width (`nn.Linear(n_embd, head_size)`): the model width,
     * not the head dimension.
     */
    /** The projection that made the queries (of the scores, or the scaled q or k itself). */
    const queryProjectionOf = (target: ScaleSite['target']): ScaleSite['target']['proj'] =>
      target.attn?.queryProj ?? (target.role === 'query' || target.role === 'key' ? target.proj : undefined);

    const isProjectionInputWidth = (dim: DimInfo | undefined, target: ScaleSite['target'], site: ScaleSite | SdpaSite): string | undefined => {
      const proj = queryProjectionOf(target);
      if (!proj || !dim) return undefined;
      if (!proj.inText || !proj.outText) return undefined;
      // A projection that keeps the width (`nn.Linear(n_embed, n_embed)`) whose queries are then split into several
      // heads: the last axis of its input read off the tensor (`_, T, C = x.shape`) is the width of all heads together.
      if (bare(proj.inText) === bare(proj.outText)) return keptWidthSplit(dim, proj, target) ? proj.inText : undefined;
      // A fused projection (`nn.Linear(dim, 3 * dim)` split into q, k, v) gives each part the input's width: on one head
      // that width is the head width, and a split into heads is judged as the model width below.
      if (fusedWidthOf(bare(proj.outText)) === bare(proj.inText) && (oneHead(target) || featuresNeverRestated(target))) return undefined;
      // The input's width times a count the code does not show (`nn.Linear(d, d * n_parts)`, `d * self.cfg.k`): each of
      // the parts the output is cut into may be as wide as the input; nothing says the projection narrows it.
      if (timesUnshownCount(bare(proj.outText), bare(proj.inText))) return undefined;
      // Heads that are pieces of the output stacked on the batch or a new leading axis (`torch.stack(torch.split(keys,
      // split, dim=2), dim=0)`) of a projection from another width (GST's `nn.Linear(key_dim, num_units)` with
      // `key_dim = E // num_heads`, bound by a caller): the input may be one head wide, no evidence.
      if (proj.stackedOnBatch) return undefined;
      // The width as a number when the factor is one (`math.sqrt(D_MODEL)` evaluates to 512) and the projection states
      // it with module-level constants (`nn.Linear(D_MODEL, 3 * D_MODEL)`).
      const inputWidth =
        (dim.ofTensor && dim.ofTensor === proj.input && dim.lastAxisOf) ||
        bare(dim.text) === bare(proj.inText) ||
        (dim.literal !== undefined && constantNumber(ev, proj.inText) === dim.literal);
      if (!inputWidth) return undefined;
      // The factor is the projection's output width as well, by name or by the number a module constant holds
      // (`nn.Linear(d_model, d_k)` with `d_model = 16` and `d_k = 16`, then `/ math.sqrt(d_k)`): the projection keeps the
      // width, and the factor is the size of the queries' own features (session 47, a one-head demo of the fresh ledger).
      if (bare(dim.text) === bare(proj.outText) || (dim.literal !== undefined && constantNumber(ev, proj.outText) === dim.literal)) return undefined;
      // `nn.Linear(n_embd, head_size)` with both widths parameters of the class, and every construction of the class
      // the workspace shows passing the same value for both (`Head(block_size, n_embed, n_embed)`: one head as wide as
      // the embedding): the projection keeps the width, so the input's width is the head width.
      // A module-level helper of the file that forms the scores for a method (`wei = _scores(q, k, C)` in `Head.forward`)
      // is read with its caller's class: the constructions that exempt the method exempt the helper it calls.
      const cls = site.ctx.scope.ownerClass ?? callerClass(ev, site.ctx);
      const simple = /^[A-Za-z_]\w*$/;
      if (cls && simple.test(proj.inText) && simple.test(proj.outText) && constructionsPassSame(ev, cls, proj.inText, proj.outText)) return undefined;
      // The same with a projection the code splits into heads (`nn.Linear(in_dim, 3 * head_dim * n_heads)`, then
      // `view(B, T, self.n_heads, 3 * self.head_dim)` and `chunk(3, dim=-1)`): the queries' last axis, as the code
      // states it, is a `self.` attribute holding a constructor parameter, and every construction passes the same value
      // for it and for the input width (`SelfAttention(d_model, d_model, n_heads)`): each head is as wide as the input.
      if (simple.test(proj.inText) && headAsWide(proj.inText, target, site)) return undefined;
      return proj.inText;
    };

    /**
     * `dim` is the last axis read off the input of a projection that keeps its width (`B, T, C = x.shape` beside
     * `nn.Linear(C, C)`), and the queries of these scores carry an axis of several heads with a per-head feature axis of
     * another size (`view(B, T, n_heads, head_size)`): C is the model width, not each head's. Heads the code then folds
     * into the batch axis (`view(b, t, h, s)`, then `.transpose(1, 2).contiguous().view(b * h, t, s)` before `torch.bmm`)
     * are still several heads: queries split into heads (multiHead) whose first axis is stated as the batch times a head
     * count. The queries (or keys) scaled themselves (`queries / (e ** (1 / 4))` before the product) carry their own axes.
     */
    const keptWidthSplit = (dim: DimInfo, proj: NonNullable<ScaleSite['target']['proj']>, target: ScaleSite['target']): boolean => {
      if (!dim.lastAxisOf || dim.ofTensor !== proj.input) return false;
      // The queries of the scores, or the scaled queries or keys themselves (a target without scores is one of them here).
      const axes = target.attn ? target.attn.queryAxes : target.axes;
      if (axes?.some((a) => a.label === 'head')) return true;
      return !!target.multiHead && headsFoldedIntoBatch(axes?.[0]);
    };
    /** A batch axis stated as the batch size times a head count (`b * h`, `bsz * self.num_heads`). */
    const headsFoldedIntoBatch = (axis: { label?: string; sizeText?: string } | undefined): boolean => {
      const m = /^batch:\s*([\w.]+)\s*\*\s*([\w.]+)\s*$/.exec(`${axis?.label}:${axis?.sizeText}`);
      return !!m && [m[1], m[2]].some((n) => isHeadCountName(String(n)));
    };

    /**
     * The factor is, under a square root, `float()`/`int()` or parentheses, `heads // width` where `heads` is a head
     * count and the code floor-divides `width` by a head count to get each head's width (`dh = self.channels //
     * self.heads`, ev.modelDimTexts): width is heads times a head's width, so the quotient is 0 unless heads are one
     * feature wide. Undefined for anything else.
     */
    const headsFloorWidth = (factor: PyNode): { heads: string; width: string } | undefined => {
      const held = heldValue(ev, factor);
      const m = FLOOR_HEADS.exec(ctx.text(factor)) ?? (held ? FLOOR_HEADS.exec(ctx.text(held)) : null);
      if (!m) return undefined;
      const heads = String(m[1]);
      const width = String(m[2]);
      if (!isHeadCountName(heads.replace(/^.*\./, ''))) return undefined;
      return [...ev.modelDimTexts].some((t) => bare(t) === bare(width)) ? { heads, width } : undefined;
    };

    /** The factor is the last axis of the tensor the query projection was applied to (`x.shape[-1]`, `B, N, C = x.shape`). */
    const projectionInputLastAxis = (op: ScaleOp, target: ScaleSite['target']): boolean => {
      const proj = queryProjectionOf(target);
      return !!proj && !!op.dim?.lastAxisOf && op.dim.ofTensor === proj.input;
    };

    /**
     * The operator that applies the scale: `*` or `/`, or `*=` / `/=` for an in-place update (whose op node is
     * the updated name, the target of the augmented assignment).
     */
    const operatorOf = (op: ScaleOp): string | undefined => {
      const parent = op.node.parent;
      const holder = parent?.type === 'augmented_assignment' && op.node.field === 'left' ? parent : op.node;
      const token = holder.children.find((c) => !c.named && (c.type === '/' || c.type === '/=' || c.type === '*' || c.type === '*='))?.type;
      if (token || op.node.type !== 'call') return token;
      // The operator written as a function or method (`torch.mul(s, c)`, `tf.multiply`, `s.div(c)`); another call that
      // scales (`torch.baddbmm(..., alpha=c)`) names no operator.
      const fn = childByField(op.node, 'function');
      /* c8 ignore next -- the grammar gives every call a function; the type makes it optional */
      if (!fn) return undefined;
      return CALL_OPERATORS.get(ctx.text(fn).replace(/^.*\./, ''));
    };

    /**
     * The stated sizes the scores formed at `formedAt` sum over, each also as the number it stands for when it is
     * written with module-level constants (`HEAD_DIM` of `view(B, T, N_HEADS, HEAD_DIM)` after `HEAD_DIM = D_MODEL //
     * N_HEADS`, `D_MODEL = 512`, `N_HEADS = 8`: also 64).
     */
    const contractedSizes = (formedAt: PyNode | undefined): Set<string> => {
      const out = ev.facts.contractedSizes(formedAt);
      for (const t of [...out]) {
        const n = constantNumber(ev, t);
        if (n !== undefined) out.add(String(n));
      }
      return out;
    };

    /**
     * A name read as a head count (`head`, `self.h`, `n_head`) that the code uses as each head's width: the size the
     * scores' product sums over (`reshape(B, N, 3, self.heads, self.head)` then `q @ k.transpose(-2, -1)`), or the
     * last size of a view or reshape of the file (`view(B, T, self.n, self.h)`), the per-head feature axis. Its root is
     * then the right scale, whatever the name says.
     */
    const countIsHeadWidth = (text: string, op: ScaleOp, site: ScaleSite): boolean => {
      const want = fieldOf(text.replace(/^\((.*)\)$/, '$1'));
      const formedAt = op.on === 'scores' ? site.target.attn?.formedAt : scoresReached(op);
      const sizes = [...contractedSizes(formedAt), ...contractedValues(op, site)];
      return sizes.some((t) => typeof t === 'string' && fieldOf(t) === want) || lastReshapeSizes(ev.tree.source).has(want);
    };

    /**
     * A count read off the last axis of a tensor that the code's letters label heads (`jnp.einsum("td,ndh->nth", x, w)`
     * then `k.shape[-1]`, where `n` is the heads and `h` each head's width), while the scores' product sums over an axis
     * of its operands carrying that same label: a product of queries and keys sums over their features, so that axis is
     * each head's width, whatever the letter says. The count is then judged as a head width.
     */
    const headLabelSummed = (dim: DimInfo, op: ScaleOp, site: ScaleSite): boolean => {
      const read = dim.which === 'heads' && dim.lastAxisOf ? dim.ofTensor : undefined;
      if (!read) return false;
      const formedAt = op.on === 'scores' ? site.target.attn?.formedAt : scoresReached(op);
      const summedHead = (v: AValue, axis: number | undefined): boolean => axis !== undefined && axisAt(v, axis)?.label === 'head' && v.ndim === read.ndim;
      return ev.facts.matmul.some((m) => m.node === formedAt && (summedHead(m.a, m.contractA) || summedHead(m.b, m.contractB)));
    };

    /** A root of a whole number (`math.sqrt(2)`) that is not the size the scores formed at `formedAt` sum over as stated. */
    const unplacedLiteral = (op: ScaleOp, formedAt: PyNode | undefined): boolean =>
      op.dim?.literal !== undefined && !contractedSizes(formedAt).has(String(op.dim.literal));

    /**
     * A number handed to a kernel as its scale (`scale=1.0 / 64`, `softmax_scale=1 / 64`; the kernel multiplies the
     * scores by it) that is the queries' stated width (`view(B, T, 3, 8, 64)`) or one over it, as `/ 64` on the scores
     * is read; nothing when the width is not stated.
     */
    const literalKernelWidth = (num: number | undefined, site: SdpaSite): { dim: DimInfo; power: number } | undefined => {
      const stated = axisAt(site.q, -1)?.sizeText;
      const width = stated === undefined ? undefined : constantNumber(ev, stated);
      if (num === undefined || width === undefined) return undefined;
      const found = widthPower(undefined, undefined, num, false, () => new Set([String(width)]));
      return found && { dim: { which: 'head', text: String(found.n), literal: found.n }, power: found.power };
    };

    /** A factor that is a whole number equal to the stated size the scores' product sums over: that width, one head's. */
    const literalHeadWidth = (op: ScaleOp, target: ScaleSite['target']): { dim: DimInfo; power: number } | undefined => {
      // On q or k (`q = q / 64`): the product of scores their path reaches, whose stated sizes are compared (a factor
      // after the softmax is judged before this is asked).
      const formedAt = (): PyNode | undefined => (op.on === 'scores' ? target.attn?.formedAt : scoresReached(op));
      // A constant multiplier, written out or held by a named scale (`* 64 ** -1`, `self.scale = 1.0 / 64`,
      // `self.temperature = 64` divided by): the width itself or one over it (facts.ts: widthPower).
      const way = divides(op) || (multiplies(op) ? false : undefined);
      const found = widthPower(op.dim?.literal, op.power, op.constant, way, () => contractedSizes(formedAt()));
      // A plain coefficient of 2 or 3 (`x_norm - 2 * x @ y.T + y_norm`, a squared distance over 2-D points) is arithmetic
      // on the product, not a width, even where the axis it sums over has that length (coordinates, not head features).
      if (found && op.dim?.literal === undefined && found.n < 4) return undefined;
      return found && { dim: { which: 'head', text: String(found.n), literal: found.n }, power: found.power };
    };

    /** The same factor, to the same power, on the other operand (the keys of a scaled query, the queries of scaled keys) in one function. */
    const otherOperandTwin = (op: ScaleOp, power: number, at: ScaleSite['ctx']): ScaleSite | undefined => {
      const other = op.on === 'query' ? 'key' : op.on === 'key' ? 'query' : undefined;
      if (!other) return undefined;
      const fn = enclosingFunction(op.node);
      return ev.facts.scale.find(
        (s) =>
          s.op.on === other &&
          s.op.power === power &&
          s.op !== op &&
          enclosingFunction(s.op.node) === fn &&
          sameFactor(op.factorNode, at, s.op.factorNode, s.ctx),
      );
    };

    /**
     * Two factors written alike, or alike but for parts that hold the same known number (`d ** VAL_1 / 4` and `d ** VAL_2
     * / 4` with both constants 1, two config fields of one value): one factor.
     */
    const sameFactor = (a: PyNode, ca: ScaleSite['ctx'], b: PyNode, cb: ScaleSite['ctx']): boolean => {
      if (ctx.text(a) === ctx.text(b)) return true;
      const an = namedChildren(a);
      const bn = namedChildren(b);
      const tokens = (n: PyNode): string =>
        n.children
          .filter((c) => !c.named)
          .map((c) => c.type)
          .join(' ');
      if (a.type === b.type && an.length > 0 && an.length === bn.length && a.type !== 'attribute' && tokens(a) === tokens(b))
        /* c8 ignore next -- both lists have one length (tested above); the index type allows undefined */
        return an.every((c, i) => sameFactor(c, ca, bn[i] ?? c, cb));
      const va = ev.eval(a, ca);
      const vb = ev.eval(b, cb);
      return va.kind === 'number' && vb.kind === 'number' && va.num !== undefined && va.num === vb.num;
    };

    /**
     * The scale `op` is a count over a width, or its square root: written out (`* (A / B)`, `* math.sqrt(A / B)`, `* (A /
     * B) ** 0.5`), held by a name bound once to one of those (`self.scale = math.sqrt(groups / dim)`), or made with the
     * factor applied just before it (`x * A / B`, `x / B * A`); and the size the scores formed at the target's product
     * sum over is stated as `B // A` (or `B / A`), directly or through a name bound once in the function (`g, dg =
     * self.groups, self.cout // self.groups`), `self.` attributes and the constructor parameters they hold read alike.
     * Then the factor is that size to the power -1 (1/d) or -0.5 (the right scale), whatever the names. The node to
     * report, the factor's text, the size's text and the power.
     */
    function countOverWidth(
      op: ScaleOp,
      target: ScaleSite['target'],
      site: ScaleSite,
    ): { node: PyNode; text: string; size: string; power: number } | undefined {
      const pair = countAndWidth(op, site);
      if (!pair) return undefined;
      const norm = (t: string): string => t.replace(/\s+/g, '').replace(/\bself\./g, '');
      const quotients = new Set([`${norm(pair.width)}//${norm(pair.count)}`, `${norm(pair.width)}/${norm(pair.count)}`]);
      for (const size of ev.facts.contractedSizes(target.attn?.formedAt)) {
        const bound = /^[A-Za-z_]\w*$/.test(size) ? boundOnce(site.ctx.scope, size) : undefined;
        const stated = bound ? ctx.text(bound) : size;
        if (quotients.has(norm(stated))) return { node: pair.node, text: pair.text, size, power: pair.power };
      }
      return undefined;
    }

    /** A count over a width written out (`A / B`: -1) or under a square root (`math.sqrt(A / B)`, `(A / B) ** 0.5`: -0.5). */
    function ratioOf(node: PyNode): { count: string; width: string; power: number } | undefined {
      const t = ctx.text(node).replace(/\s+/g, '');
      const name = '([A-Za-z_][\\w.]*)';
      const plain = new RegExp(`^\\(?${name}/${name}\\)?$`).exec(t);
      const root = new RegExp(`^(?:[\\w.]*\\.)?sqrt\\(\\(?${name}/${name}\\)?\\)$`).exec(t) ?? new RegExp(`^\\(${name}/${name}\\)\\*\\*0?\\.5$`).exec(t);
      const m = plain ?? root;
      return m?.[1] && m[2] ? { count: m[1], width: m[2], power: plain ? -1 : -0.5 } : undefined;
    }

    /** The count and the width of the scale `op` (see countOverWidth), with the node to report and its text. */
    function countAndWidth(op: ScaleOp, site: ScaleSite): { count: string; width: string; power: number; node: PyNode; text: string } | undefined {
      const token = operatorOf(op);
      if (token === '*') {
        // Written out as the factor, or held by a name bound once (a `self.` attribute of the class, a local).
        const held = definitionOf(op.factorNode, site);
        const ratio = ratioOf(op.factorNode) ?? (held && ratioOf(held));
        if (ratio) return { ...ratio, node: op.factorNode, text: held ? ctx.text(op.factorNode) : `${ratio.count} / ${ratio.width}` };
      }
      // `x * A / B` or `x / B * A`: this factor and the one applied just before it.
      const parts = op.node.type === 'binary_operator' ? childByField(op.node, 'left') : undefined;
      if (parts?.type !== 'binary_operator') return undefined;
      const shape = `${operatorText(ev.tree, parts)} ${token}`;
      const before = childByField(parts, 'right');
      /* c8 ignore next -- the grammar gives every binary operator both operands; the type makes them optional */
      if (!before) return undefined;
      const m = /^([A-Za-z_][\w.]*) ([A-Za-z_][\w.]*)$/.exec(`${ctx.text(before)} ${ctx.text(op.factorNode)}`);
      if (!m?.[1] || !m[2]) return undefined;
      // `(x * A) / B`: count A, width B; `(x / B) * A`: count A (this factor), width B (the one before).
      if (shape === '* /') return { count: m[1], width: m[2], power: -1, node: op.factorNode, text: `${m[1]} / ${m[2]}` };
      if (shape === '/ *') return { count: m[2], width: m[1], power: -1, node: op.factorNode, text: `${m[2]} / ${m[1]}` };
      return undefined;
    }

    /** The value a name (`scale`) or a `self.` attribute (`self.scale`) is bound to by its one assignment, if it is one. */
    function definitionOf(node: PyNode, site: ScaleSite): PyNode | undefined {
      const text = ctx.text(node);
      const cls = site.ctx.scope.ownerClass;
      if (cls && /^self\.\w+$/.test(text)) {
        const defs = ev.classAttrDefs(cls, text);
        const [d] = defs;
        return defs.length === 1 && d?.value && d.path.length === 0 ? unparen(d.value) : undefined;
      }
      return /^[A-Za-z_]\w*$/.test(text) ? boundOnce(site.ctx.scope, text) : undefined;
    }

    /**
     * The value a name is bound to by its one assignment in the scope, written out (`cg = self.out_ch // self.groups`)
     * or as its element of a tuple written out (`g, cg = self.groups, self.out_ch // self.groups`).
     */
    function boundOnce(scope: Scope, name: string): PyNode | undefined {
      /* c8 ignore next -- a scope that applies a scale holds definitions (its parameters at least); the map leaves it optional */
      const defs = (ev.sr.defsOfScope.get(scope.id) ?? []).filter((d) => d.name === name && d.kind === 'assign');
      const d = defs.length === 1 ? defs[0] : undefined;
      const value = d?.value ? unparen(d.value) : undefined;
      if (!d || !value) return undefined;
      const items = d.path.length === 0 ? [value] : value.type === 'expression_list' || value.type === 'tuple' ? namedChildren(value) : [];
      const el = items[d.path.length === 0 ? 0 : Number(d.path[0])];
      return el && d.path.length <= 1 ? el : undefined;
    }

    /** The function a node is written in; null at module level. */
    const enclosingFunction = (node: PyNode): PyNode | null => {
      let fn: PyNode | null = node.parent;
      while (fn && fn.type !== 'function_definition') fn = fn.parent;
      return fn;
    };
    const divides = (o: ScaleOp): boolean => /^\//.test(String(operatorOf(o)));
    const multiplies = (o: ScaleOp): boolean => /^\*/.test(String(operatorOf(o)));

    /**
     * The weights divided by a factor and multiplied by the same factor (or the reverse) in one function: a
     * quantise-dequantise round trip (`clamp(w / a_scale, -448, 448).to(float8)`, then `* a_scale`), whose net scale
     * is 1. Neither half rescales the weights; either one alone does.
     */
    const roundTrip = (site: ScaleSite): boolean => {
      const op = site.op;
      const fn = enclosingFunction(op.node);
      const factor = ctx.text(op.factorNode);
      return ev.facts.scale.some(
        ({ op: o }) =>
          o.on === 'weights' &&
          divides(o) !== divides(op) &&
          multiplies(o) !== multiplies(op) &&
          ctx.text(o.factorNode) === factor &&
          enclosingFunction(o.node) === fn,
      );
    };

    /**
     * The scores are of one head: the queries have no axis of heads, or it has length 1 (`reshape(B, N, 3, 1, C)`).
     * With one head the model width C is the head width; only a split into several heads makes sqrt(C) wrong.
     */
    const oneHead = (target: ScaleSite['target']): boolean => {
      const axes = target.attn?.queryAxes;
      if (axes?.some((a) => a.label === 'head')) return false;
      if (axes?.length === 4 && axes[1]?.size1) return true;
      return !target.multiHead && (target.ndim === undefined || target.ndim < 4);
    };

    /**
     * The queries' features as the projection made them: no axis of heads, nothing marks them split, and no view or
     * reshape states their size since (`self.qkv(x).chunk(3, dim=-1)` of a 4-D `x`, frames by tokens: the extra axis is
     * the input's, not heads). A rank of 4 alone is no split of the features.
     */
    const featuresNeverRestated = (target: ScaleSite['target']): boolean => {
      const axes = target.attn?.queryAxes;
      const last = axes?.at(-1);
      return !target.multiHead && !!axes && !!last && last.label === 'feat' && last.sizeText === undefined && !axes.some((a) => a.label === 'head');
    };

    /**
     * A name inside the factor, or inside the one definition of the local that holds it (`t = np.sqrt(K)` then `/ t`:
     * the value, whatever it is called), that is the size of a non-last (sequence) axis of the queries, by their stated
     * shape.
     */
    const sequenceSize = (op: ScaleOp, target: ScaleSite['target']): string | undefined => {
      const axes = target.attn?.queryAxes;
      if (!axes || axes.length < 2) return undefined;
      const held = heldValue(ev, op.factorNode);
      const text = `${ctx.text(op.factorNode)}${held ? ` ${ctx.text(held)}` : ''}`;
      const names = new Set([...text.matchAll(/[A-Za-z_][\w.]*/g)].map((m) => bare(m[0])));
      const last = axes.at(-1)?.sizeText;
      for (let i = 0; i < axes.length - 1; i++) {
        const axis = axes[i]; // i is below the length: axis?. below never short-circuits
        const t = axis?.sizeText;
        // A head axis (`view(B, T, self.h, C // self.h)`) counts heads: `C // self.h` is the head width, not a length.
        // An axis of length 1 (the head count a caller passes as 1, `Attention(h_dim, max_T, 1)`) is no input length.
        if (
          t &&
          /^[A-Za-z_][\w.]*$/.test(t) &&
          names.has(bare(t)) &&
          (!last || bare(last) !== bare(t)) &&
          axis?.label !== 'feat' &&
          axis?.label !== 'head' &&
          axis?.size1 !== true
        )
          return t;
      }
      return undefined;
    };

    /** `k.transpose(2, 3)` / `k.transpose(-2, -1)` / `k.swapaxes(-1, -2)` of a tensor `isRead` accepts, of known rank for positive axes. */
    const swappedKeys = (bNode: PyNode, x: { ctx: ScaleSite['ctx'] }, isRead: (n: PyNode, x: { ctx: ScaleSite['ctx'] }) => boolean): boolean => {
      const u = unparen(bNode);
      const m = /\.(?:transpose|swapaxes|swapdims)\(\s*(-?\d+)\s*,\s*(-?\d+)\s*\)$/.exec(ctx.text(u));
      if (!m) return false;
      /* c8 ignore next -- a call written `x.transpose(a, b)` has an attribute for its function, and it an object */
      const recv = childByField(childByField(u, 'function') ?? u, 'object') ?? u;
      if (!isRead(recv, x)) return false;
      const ndim = ev.eval(recv, x.ctx).ndim ?? NaN;
      const fromEnd = [Number(m[1]), Number(m[2])].map((a) => (a < 0 ? a : a - ndim)).sort((p, q) => p - q);
      return fromEnd[0] === -2 && fromEnd[1] === -1;
    };

    /**
     * The size of the queries' query axis read off the very operand that forms the scores (`dk = q.shape[1]` with q
     * `(B, N, d)` and the scores `q @ k.transpose(1, 2)`): a matmul contracts the last axis of its left operand and makes
     * the one before it the scores' rows, so that axis is the number of queries (a set or sequence length), whatever the
     * name it is held in. Only a product written as a matmul of the queries as they are (no einsum, no `transpose_a`),
     * the tensor read being that operand's value in this context, and a positive index placed by its known rank (by
     * the code or a stated shape; `q.shape[-2]` needs none);
     * an axis of length 1 is the number 1, never read here. The text of the read (`q.shape[1]`, `q.size(1)`), or undefined.
     */

    /** Factors (by node) whose length queryAxisRead found read off the keys: the number of keys. */
    const keyCountReads = new Set<number>();
    const queryAxisRead = (op: ScaleOp, dim: DimInfo, target: ScaleSite['target'], site: ScaleSite): string | undefined => {
      // Read off an axis known not to be the last (shape-ops.ts: dimOfShape, whose text is `x.shape[i]`).
      if (!dim.otherAxis) return undefined;
      const i = Number(/-?\d+\]$/.exec(dim.text)?.[0].slice(0, -1));
      // A negative index needs no rank (`q.shape[-2]`); a positive one is placed by the operand's known rank.
      const fromEnd = i < 0 ? i : i - Number(dim.ofTensor?.ndim);
      if (fromEnd !== -2) return undefined;
      const formedAt = target.attn?.formedAt.id;
      const isRead = (n: PyNode, x: { ctx: ScaleSite['ctx'] }): boolean =>
        ev.eval(n, x.ctx) === dim.ofTensor || (x.ctx.scope === site.ctx.scope && ev.eval(n, site.ctx) === dim.ofTensor);
      // The product may sit in a helper of the file the scores come back from (`logits = scores_of(q, k)`): its left
      // operand, in the context of that call, is the very tensor whose axis is read.
      // So for the keys: the tensor whose last two axes the product's right operand swaps (`q @ k.transpose(2, 3)`,
      // `k.transpose(-2, -1)`, `tf.matmul(q, k, transpose_b=True)`), whose axis -2 becomes the scores' key axis: the
      // number of keys, a length too.
      const products = ev.facts.matmul.filter((x) => x.node.id === formedAt && x.display !== 'einsum');
      const ofQueries = products.some((x) => !!x.aNode && !x.transA && x.contractA === -1 && isRead(x.aNode, x));
      // And the values: the product of these scores' weights with them sums over their axis -2, one row per key
      // (`tf.shape(value)[1]` of (batch, time_k, units) values).
      const ofKeys =
        !ofQueries &&
        (products.some((x) => !!x.bNode && x.contractB === -2 && (x.transB ? isRead(x.bNode, x) : swappedKeys(x.bNode, x, isRead))) ||
          ev.facts.matmul.some(
            (x) =>
              x.display !== 'einsum' &&
              !x.transB &&
              x.contractB === -2 &&
              !!x.bNode &&
              x.a.attn?.stage === 'weights' &&
              x.a.attn.formedAt.id === formedAt &&
              isRead(x.bNode, x),
          ));
      if (!ofQueries && !ofKeys) return undefined;
      if (ofKeys) keyCountReads.add(op.factorNode.id);
      // Shown as the code reads it: the shape read inside the factor, or in the one definition of a local it holds.
      const find = (n: PyNode, follow: boolean): string | undefined => {
        const t = ctx.text(n);
        if ((n.type === 'subscript' || n.type === 'call') && /^[\w.]+\.(?:shape\s*\[[^\]]*\]|size\s*\([^()]*\))$/.test(t) && t.length <= 40) return t;
        if (n.type === 'identifier') {
          const held = follow ? heldValue(ev, n) : undefined;
          return held && find(held, false);
        }
        for (const c of namedChildren(n)) {
          const found = find(c, follow);
          if (found) return found;
        }
        return undefined;
      };
      return find(op.factorNode, true) ?? dim.text;
    };

    /**
     * What the sizes the scores' product sums over hold in the scale's context (AxisInfo.sizeValue): the product whose
     * path carries this scale of q or k, or that formed the scaled scores in this context.
     */
    const contractedValues = (op: ScaleOp, site: ScaleSite): (string | false | undefined)[] => {
      const formedAt = site.target.attn?.formedAt;
      const m = ev.facts.matmul.find((x) => (x.node === formedAt && x.ctx === site.ctx) || x.result.ops?.some((alt) => alt.includes(op)));
      return [m?.contractA !== undefined && axisAt(m.a, m.contractA)?.sizeValue, m?.contractB !== undefined && axisAt(m.b, m.contractB)?.sizeValue];
    };

    /**
     * The projection that made the queries is as wide as the factor times a head count (`nn.Linear(query_dim, dim *
     * heads)`, `heads * d`, or a name the constructor of the class binds once to such a product, `inner = dim * heads`):
     * split into those heads, each is the factor wide, whatever its name says (`dim` is no model width here).
     */
    const timesHeadCount = (dim: DimInfo, target: ScaleSite['target'], site: ScaleSite): boolean => {
      const out = queryProjectionOf(target)?.outText?.trim() ?? '';
      const init = /^[A-Za-z_]\w*$/.test(out) ? site.ctx.scope.ownerClass?.methods.get('__init__') : undefined;
      const held = init && boundOnce(init, out);
      return widthTimesHeads(out, dim) || (!!held && widthTimesHeads(ev.text(held), dim));
    };
    /** `t` is `f * heads` or `heads * f`, f the factor's dimension and heads a head count. */
    const widthTimesHeads = (t: string, dim: DimInfo): boolean => {
      const m = /^\(?\s*([A-Za-z_][\w.]*)\s*\*\s*([A-Za-z_][\w.]*)\s*\)?$/.exec(t.trim());
      const [a, b] = [bare(String(m?.[1])), bare(String(m?.[2]))];
      const f = bare(dim.text);
      return (a === f && isHeadCountName(b)) || (b === f && isHeadCountName(a));
    };
    /** The queries of these scores are their projection's whole output, with no head axis. */
    const queriesUnsplit = (target: ScaleSite['target']): boolean =>
      target.attn?.queryUnsplit !== undefined && !target.attn.queryAxes?.some((a) => a.label === 'head');

    /** Scale ops that reach attention scores (a q/k scaling that never meets its partner is not attention). */
    let reaching: Set<ScaleOp> | undefined;
    /** The product of scores (hand-written, of named queries and keys) whose path holds this scale of q or k. */
    const scoresReached = (op: ScaleOp): PyNode | undefined =>
      ev.facts.matmul.find((m) => m.result.attn?.stage === 'scores' && m.result.ops?.some((alt) => alt.includes(op)))?.node;

    const reachesScores = (op: ScaleOp): boolean => {
      if (!reaching) {
        reaching = new Set();
        const addAll = (v: { ops?: readonly (readonly import('../analysis/values').PathOp[])[] }): void => {
          for (const alt of v.ops ?? []) for (const o of alt) if (o.kind === 'scale') reaching!.add(o);
        };
        for (const m of ev.facts.matmul) if (m.result.attn?.stage === 'scores' && m.result.attn.queryText && m.result.attn.keyText) addAll(m.result);
        for (const sd of ev.facts.sdpa) {
          addAll(sd.q);
          addAll(sd.k);
        }
        // Scores summed out of a pairwise product (`(q[..., :, None, :] * k[..., None, :, :]).sum(-1)`) made by no
        // matmul: the scalings of q and k their softmax's input carries.
        for (const s of ev.facts.softmax)
          if (s.input.attn?.stage === 'scores' && s.input.attn.queryText && s.input.attn.keyText && isPairwise(s.input)) addAll(s.input);
      }
      return reaching.has(op);
    };

    /**
     * `q = q * self.scale / (q.shape[-1] ** -0.5)` handed to a fused kernel that applies its default 1/sqrt(E) (no
     * `scale=` given, a kernel that takes one): the sqrt(E) cancels the kernel's own factor, so the net scale is the
     * custom one the same path carries (a way to pass a scale to a kernel that did not take one). Only a sqrt of the
     * head width, only on paths that reach such a kernel and no hand-written product, each with another factor.
     */
    const cancelsKernelScale = (o: ScaleOp): boolean => o.power === 0.5 && o.on !== 'weights' && !!o.dim && dimWhich(o.dim) === 'head';
    let compensating: Set<ScaleOp> | undefined;
    const compensatesKernelDefault = (op: ScaleOp): boolean => {
      if (!compensating) {
        const found = new Set<ScaleOp>();
        const alone = new Set<ScaleOp>();
        for (const sd of ev.facts.sdpa) {
          const defaultScale = !!sd.scaleParam && !sd.scaleNode;
          for (const alt of [...(sd.q.ops ?? []), ...(sd.k.ops ?? [])]) {
            const scales = scaleOps(alt);
            for (const o of scales) {
              if (!cancelsKernelScale(o)) continue;
              if (defaultScale && (scales.some((other) => other !== o && !cancelsKernelScale(other)) || carriesCoefficient(o))) found.add(o);
              else alone.add(o);
            }
          }
        }
        const handMade = new Set<ScaleOp>();
        for (const m of ev.facts.matmul) for (const alt of m.result.ops ?? []) for (const o of scaleOps(alt)) handMade.add(o);
        compensating = new Set([...found].filter((o) => !alone.has(o) && !handMade.has(o)));
        unitKernel = new Set([...alone].filter((o) => !handMade.has(o)));
      }
      return compensating.has(op);
    };
    /**
     * The module's own scale written in the same factor as the sqrt(E) that cancels the kernel's default
     * (`q * (self.scale / (dim_head ** -0.5))`, the scale a caller binds, `Attend(scale=qk_norm_scale)`): one product or
     * quotient whose other operand is not the number 1.
     */
    const carriesCoefficient = (o: ScaleOp): boolean => {
      const f = unparen(o.factorNode);
      if (f.type !== 'binary_operator') return false;
      /* c8 ignore next -- a binary operator always has its operator */
      const op = ctx.text(childByField(f, 'operator') ?? f);
      if (op !== '*' && op !== '/') return false;
      return namedChildren(f).every((side) => !/^1(\.0*)?$/.test(ctx.text(unparen(side))));
    };
    /**
     * Alone on its path to a fused kernel with its default 1/sqrt(E) (`sdpa(q * math.sqrt(dk), k, v)`): the two cancel, so
     * the kernel runs unscaled, as `scale=1.0` would. Unscaled attention is ATT003's question, and where ATT003 says the
     * code states it on purpose (a test's reference that must match unscaled attention within a tolerance, the T5
     * family) the sqrt(E) is no wrong scale either.
     */
    let unitKernel: Set<ScaleOp> | undefined;
    const deliberateUnitKernel = (op: ScaleOp): boolean => {
      compensatesKernelDefault(op);
      return !!unitKernel?.has(op) && (testOracle(ev, op.node) || isT5Family(ev, op.node));
    };

    /** The constructor parameter a `self.` attribute holds wherever the class assigns it (`self.head_dim = head_dim`). */
    const constructorParamOf = (site: { ctx: ScaleSite['ctx'] }, text: string | undefined): string | undefined => {
      const cls = site.ctx.scope.ownerClass;
      const params = cls?.methods.get('__init__')?.params ?? [];
      // A width read back to the parameter itself (`self.in_dim`, whose definition is `in_dim`).
      if (text && /^[A-Za-z_]\w*$/.test(text)) return params.some((p) => p.name === text) ? text : undefined;
      if (!cls || !text || !/^self\.\w+$/.test(text)) return undefined;
      const defs = ev.classAttrDefs(cls, text);
      const values = new Set(defs.map((d) => (d.value !== undefined && d.path.length === 0 ? ev.text(d.value) : '')));
      const [value] = values;
      return defs.length > 0 && values.size === 1 && value && params.some((p) => p.name === value) ? value : undefined;
    };

    /**
     * The queries' last axis, as the code states it (`view(B, T, self.n_heads, 3 * self.head_dim)` then `chunk(3,
     * dim=-1)`), is a `self.` attribute holding a constructor parameter, and every construction of the class the
     * workspace shows passes the same value for it and for `param` (`SelfAttention(d_model, d_model, n_heads)`): each
     * head is as wide as the width `param` names, so a scale by that width is the head width's.
     */
    const headAsWide = (param: string | undefined, target: ScaleSite['target'], site: { ctx: ScaleSite['ctx'] }): boolean => {
      const cls = site.ctx.scope.ownerClass;
      const head = constructorParamOf(site, target.attn?.queryAxes?.at(-1)?.sizeText);
      return !!cls && !!param && !!head && head !== param && constructionsPassSame(ev, cls, param, head);
    };

    /**
     * `factor` holds a constructor parameter (`self.d_k`) and `width` is another (`d_model`), and every construction of
     * the class passes the same value for both and a number above 1 for its one head-count parameter.
     */
    const boundToWholeWidth = (factor: string, width: string, site: ScaleSite): boolean =>
      constructionsPassSameWithHeads(ev, site.ctx.scope.ownerClass, constructorParamOf(site, bare(factor)), constructorParamOf(site, bare(width)));

    // The factor's `self.` attributes are, in the class that forms the scores, the very width its projections output
    // (`self.n_hidden = n_hidden` beside `nn.Linear(dim, n_hidden)`): the scale is the size the product sums over,
    // whatever a caller binds that width to (`Head(dim, n_hidden // num_heads)`, whose `n_hidden` is the caller's).
    const factorIsWidth = (factor: PyNode, whole: string, site: ScaleSite): boolean => {
      const cls = site.ctx.scope.ownerClass;
      if (!cls) return false;
      const attrs: string[] = [];
      const visit = (n: PyNode): void => {
        if (n.type === 'attribute' && /^self\.\w+$/.test(ev.text(n))) attrs.push(ev.text(n));
        else for (const c of n.children) if (c.named) visit(c);
      };
      visit(factor);
      return attrs.some((a) => {
        const defs = ev.classAttrDefs(cls, a);
        return defs.length > 0 && defs.every((d) => d.value !== undefined && d.path.length === 0 && bare(ev.text(d.value)) === bare(whole));
      });
    };

    return {
      scale(site: ScaleSite) {
        const op = site.op;
        if (!onAttention(site)) {
          // Scores whose operands have no q/k roles (a non-local block's theta/phi conv features) multiplied by a positive
          // power of the very size their product sums over, then softmaxed: the inverse of the scale (`/= C ** -0.5`).
          const dim = op.dim;
          if (op.power !== undefined && op.power > 0 && dim && !ev.mup && (sumsOverTheFactor(site, dim) || mixedScores(site)))
            reportTimesDim(site, op, dim, op.power);
          return;
        }
        if ((op.on === 'query' || op.on === 'key') && !reachesScores(op)) return;
        const target = site.target;
        const f = quote(ctx.text(op.factorNode), 40);
        const softmax = target.attn?.softmax?.site;
        const evidence: (RelatedSpec | undefined)[] = [
          ...factorDefinitions(ev, op.factorNode, site.ctx),
          op.on === 'weights' && softmax ? { node: softmax, message: msg(T.softmaxBeforeScaling) } : undefined,
        ];
        if (op.on === 'weights') {
          // Any factor after the softmax is misplaced, but only a dimension or a factor named as the scale is known to be the scale.
          if (op.power === undefined && !op.named) return;
          // A factor named as a scale whose definition is the reciprocal of a keep probability (`scale = 1 / (1 -
          // float(ratio))`): inverted dropout's rescaling of the kept weights, right in expectation, not the attention's
          // scale (ATT006 judges the dropout's mask).
          if (op.power === undefined && keepReciprocal(ev, op.factorNode)) return;
          // A factor named like a scale (`log_alpha`) that its one definition computes from these very weights
          // (`torch.where(alpha > eps, alpha.log(), 0)` beside `alpha * log_alpha`): a function of the weights (an
          // entropy's p·log p), not a scale applied to them.
          if (op.power === undefined && computedFromTheOperand(ev, op.node, op.factorNode)) return;
          // A factor known by its name alone that the code shows to be a blend's coefficient, does not show at all (a
          // parameter nothing binds) or computes from these very scores is no scale of the weights.
          if (op.power === undefined && namedWeightsFactorUnshown(ev, site)) return;
          // A root of a whole number the code does not show to be a width (`* math.sqrt(2)`) is no known scale.
          if (unplacedLiteral(op, target.attn?.formedAt) && !op.named) return;
          if (roundTrip(site)) return;
          // The number of positions or items read off an axis other than the features (`N` of `B, N, C = x.shape`),
          // multiplied or divided in once: the weights against the uniform 1/N (`w * N`, how many times the average a
          // key gets) or a sum kept at its scale in attention pooling; no width, so no misplaced temperature.
          if (op.dim?.otherAxis && (op.power === 1 || op.power === -1)) return;
          report(op.factorNode, msg(T.scalesWeights, f), undefined, evidence);
          return;
        }
        // Softmax-free attention (SimA, `(q @ k.T * c).masked_fill(causal, 0) @ v`): the scores are multiplied with the
        // values as they are, no softmax normalises them. The factor is then a gain on the output, no temperature of
        // logits, and which width it holds decides nothing about saturation.
        if (op.on === 'scores' && usedRawAsWeights(site)) return;
        // `np.sqrt(self.heads // self.channels)`: a head count floor-divided by the width the code splits into heads.
        const floored = op.power === undefined ? headsFloorWidth(op.factorNode) : undefined;
        if (floored) {
          report(op.factorNode, msg(T.headsFloorWidth, f, floored.width, floored.heads), undefined, evidence);
          return;
        }
        // A count over the width split into that count (`* self.groups / self.cout`, `* (heads / channels)`) where the
        // size the scores sum over is stated as that width floor-divided by the count (`dg = self.cout // self.groups`):
        // 1/d, whatever the names.
        const over = op.on === 'scores' ? countOverWidth(op, target, site) : undefined;
        // 1/sqrt of the size the product sums over, written as a count over the width split into it: the right scale.
        if (over?.power === -0.5) return;
        if (over) {
          const d = /^[\w.]+$/.test(over.size) ? over.size : `(${over.size})`;
          report(over.node, msg(T.oneOverDim, quote(over.text, 40), d, over.size), undefined, evidence);
          return;
        }
        // The multiplier is dim^power: power and dim are known together, or neither is.
        // A whole number written where a width goes (`/ 64`, `* 64 ** -0.5`) that equals the size the scores' product
        // sums over as the code states it (`view(B, T, 8, 64)`): one head's width, judged as the name would be.
        const literal = literalHeadWidth(op, target);
        const dim = literal?.dim ?? op.dim;
        const power = literal?.power ?? op.power;
        if (power === undefined || !dim || ev.mup) return;
        // A bare number (a float parameter, a shape we cannot place) is not known to be the head or model width.
        const which = headLabelSummed(dim, op, site) ? 'head' : dimWhich(dim);
        if (site.ctx.callSite) for (const t of boundTexts(op, site)) boundByNode.set(op.factorNode.id, (boundByNode.get(op.factorNode.id) ?? new Set()).add(t));
        const knownDim = which === 'head' || which === 'model';
        // `B, N, C = x.shape` then `q = self.q(x)`: C is the feature width of the projection's input, a width whatever
        // the head count, so dividing the scores by C itself (not its square root) is wrong even where which is unknown.
        // A helper's parameter read as a dimension by its name alone (`def attend(q, k, v, d_k)` then `/ d_k`), with no call
        // in view binding it: what each caller passes decides (`attend(q, k, v, math.sqrt(self.dh))` in another file, or
        // past the call depth), as for a name under a root below.
        if (power === -1 && !literal && helperParamOnlyByName(ev, op.factorNode, dim.text, site.ctx)) return;
        if (power === -1 && (knownDim || projectionInputLastAxis(op, target))) {
          // The queries and the keys each divided by the same dimension (`q / (head_dim ** 1 / float(4))` and the same
          // for k, meant as fourth roots): one mistake, reported once, at the query, with the key's scaling as evidence.
          const twin = otherOperandTwin(op, -1, site.ctx);
          if (twin) {
            if (op.on === 'key') return;
            report(op.factorNode, msg(T.eachDividedByDim, f, dim.text), undefined, [
              { node: twin.op.node, message: msg(T.otherOperand, quote(ctx.text(twin.op.factorNode), 30)) },
              ...evidence,
            ]);
            return;
          }
          const fix = op.factorNode.type === 'identifier' || op.factorNode.type === 'attribute' || op.factorNode.type === 'call' ? sqrtFix(op) : undefined;
          // A scale multiplied in (`* self.scale` with `self.scale = head_dim ** -1`) is one over the dimension; say which.
          const token = operatorOf(op);
          const named = token === '*' || token === '*=';
          const d = /^[\w.]+(\[[^\]]*\])?$/.test(dim.text) ? dim.text : `(${dim.text})`;
          // Name what is divided: the scores, or only the queries or the keys (`q / self.head_dim`).
          const divided = op.on === 'query' ? T.queriesDividedByDim : op.on === 'key' ? T.keysDividedByDim : T.dividedByDim;
          report(op.factorNode, named ? msg(T.oneOverDim, f, d, dim.text) : msg(divided, f, ctx.text(op.factorNode)), fix, evidence);
          return;
        }
        if (power > 0 && knownDim) {
          if (power === 0.5 && which === 'head' && (op.on === 'query' || op.on === 'key') && (compensatesKernelDefault(op) || deliberateUnitKernel(op))) return;
          // Scores of unit-normalised queries and keys (cosine logits in [-1, 1], nGPT's `justnorm(q)`): a positive power
          // of the width restores their spread on purpose, a temperature, not a misplaced 1/sqrt(d).
          if (unitOperands(op.on === 'scores' ? site.target.attn?.formedAt : scoresReached(op))) return;
          reportTimesDim(site, op, dim, power);
          return;
        }
        // A size whose role the code does not show (`attention_dim`, a constructor's int), held inverted by a named
        // scale or written as a negative power (`self.scale = float(attention_dim) ** -0.5`), and divided out of the
        // scores (`logits.div(self.scale)`): whatever the size is, dividing by its inverse square root multiplies the
        // logits by its square root (session 47, regression b57-05). The operations decide, not the name.
        if (power === 0.5 && which === 'unknown' && op.on === 'scores' && dividesByInverseRoot(op, dim, site)) {
          if (unitOperands(site.target.attn?.formedAt)) return;
          reportTimesDim(site, op, dim, power);
          return;
        }
        if (which === 'heads') {
          // Read as a head count by its name alone (`head`, `h`): the code may show it is each head's width instead.
          if (countIsHeadWidth(dim.text, op, site)) return;
          // Known as a head count by its name alone (`self.h = config.h`, a name that also reads as a hidden width): the code
          // must use it as one, splitting a width or a tensor into that many heads (here, or in a workspace file this one
          // imports: a base class that splits the heads), or read it off an axis the layout labels heads (`k.size(1)` of
          // `(B, H, T, d)`). The name is no evidence that the scale counts heads (session 48).
          if (!dim.headAxis && !dim.ofTensor && !headCountUsed(ev, dim.text, op.node)) return;
          report(op.factorNode, msg(T.fromHeadCount, f), undefined, evidence);
          return;
        }
        // The queries and the keys each scaled by the same d ** -0.25 (a fourth root on either side of the product): the
        // scores carry d ** -0.5, so the width is judged as one 1/sqrt(d) on them would be, once, at the query.
        const quarterPair = power === -0.25 && (op.on === 'query' || op.on === 'key') && !!otherOperandTwin(op, -0.25, site.ctx);
        if (quarterPair && op.on === 'key') return;
        if (power === -0.5 || quarterPair) {
          // The width the projection was given by name, written under the root (`tf.constant(num_units ** 0.5)` after
          // `tf.layers.dense(x, num_units)`), is that width whatever the value the evaluator follows for the name.
          // Only a name this function binds itself: a parameter is what each caller passes (`d_k // heads`), whatever
          // its name shares with the projection's width in the caller.
          const rooted = rootedNameNode(ev, op.factorNode, true) ?? rootedNameNode(ev, op.factorNode, false);
          const defs = rooted?.type === 'identifier' ? ev.resolve(rooted, ctx.text(rooted)) : undefined;
          // An attribute of the class forming the scores (`self.d_model = settings.get("d_model")`, a value the evaluator
          // cannot follow): one object's field, the same value wherever the class reads it, its `nn.Linear(self.d_model,
          // self.d_qk)` included; not a parameter of a helper whose name a caller's text may share.
          const owner = site.ctx.scope.ownerClass;
          const ownAttr =
            rooted?.type === 'attribute' && /^self\.\w+$/.test(ctx.text(rooted)) && !!owner && ev.classAttrDefs(owner, ctx.text(rooted)).length > 0;
          const ownName = ownAttr || (!!defs && defs.length > 0 && defs.every((d) => d.kind !== 'param'));
          // Known only as a name under a root written out, and that name a parameter: what each caller passes decides,
          // in the contexts of its calls (where the evaluator follows the value); its text says nothing here (a helper's
          // `dim` is not the caller's `nn.Linear(dim, ...)` input nor its `dim // n_heads`).
          if (dim.rooted && !ownName) return;
          const named = sequenceSize(op, target);
          const seq = named ?? queryAxisRead(op, dim, target, site);
          if (seq) {
            report(op.factorNode, msg(!named && keyCountReads.has(op.factorNode.id) ? T.keyCount : T.sequenceLength, f, seq), undefined, evidence);
            return;
          }
          const inWidth = isProjectionInputWidth(dim, target, site);
          if (inWidth) {
            report(op.factorNode, msg(T.projectionInput, f, inWidth), undefined, evidence);
            return;
          }
          // Scores of rank 4 or more (`(B, H, T, S)`, grouped-query `(B, kv_heads, group, T, S)`): axes beside the batch
          // before the query and key axes, heads as the code lays them out.
          const multiHead = target.multiHead || (target.attn !== undefined && target.ndim !== undefined && target.ndim >= 4);
          // The size the product contracts (q's and k's feature axis, wherever it sits) is each head's width, whatever its name.
          // On q or k, the product their path reaches; a size compared by what it holds in this context too (`self.dim_key`
          // of the view, bound by every construction in view to the caller's `dim`, is that `dim`).
          const contracted = (): boolean => {
            const formedAt = op.on === 'scores' ? target.attn?.formedAt : scoresReached(op);
            return [...contractedSizes(formedAt), ...contractedValues(op, site)].some((t) => typeof t === 'string' && bare(t) === bare(dim.text));
          };
          // The factor is the whole output width of the projection that made the queries (`Dense(d_k)`), which the code
          // then split into heads (`reshape(x, (B, T, heads, -1))`): the code, not the name, says it is all heads' width.
          const proj = target.attn?.queryProj;
          const sameWidth =
            !!proj?.outText &&
            (bare(proj.outText) === bare(dim.text) || (power === -0.5 && !!rooted && ownName && bare(ctx.text(rooted)) === bare(proj.outText)));
          const widthText = proj?.outText && bare(proj.outText) !== bare(dim.text) ? proj.outText : dim.text;
          if (proj?.splitIntoHeads && proj.outText && sameWidth && multiHead && !oneHead(target) && !contracted()) {
            report(
              op.factorNode,
              proj.splitIn ? msg(T.splitWidthInCaller, f, widthText, originRef(proj.splitIn)) : msg(T.modelWidth, f, widthText),
              undefined,
              evidence,
            );
            return;
          }
          // The factor is a constructor parameter (`self.d_k = d_k`) that every construction of the class binds to the
          // projection's whole output width (`Dense(d_model)`, split into heads), with a head count above 1:
          // `MultiHeadAttention(h, d_k, d_model)` after `h = 8; d_k = 512; d_model = 512`. The callers, not the name,
          // say the scale is all heads' width.
          if (proj?.splitIntoHeads && proj.outText && multiHead && !oneHead(target) && !contracted() && boundToWholeWidth(dim.text, proj.outText, site)) {
            // Say where the callers bind it: the first construction, in this file or one importing it.
            const cls = site.ctx.scope.ownerClass;
            const built = cls && firstConstruction(ev, cls);
            /* c8 ignore next -- boundToWholeWidth found the class and a construction of it; the types keep both optional */
            if (!cls || !built) {
              report(op.factorNode, msg(T.modelWidth, f, dim.text), undefined, evidence);
              return;
            }
            const call = quote(built.source.slice(built.start, built.end), 50);
            const line = lineOf(built.source, built.start);
            const width = bare(proj.outText);
            const args = [f, `\`${dim.text}\``, `\`${cls.name}\``, `\`${width}\``, call] as const;
            const message =
              built.path !== undefined ? msg(T.boundToModelWidthElsewhere, ...args, `${built.path}:${line}`) : msg(T.boundToModelWidth, ...args, line);
            report(op.factorNode, message, undefined, [
              ...evidence,
              {
                node: { start: built.start, end: built.end },
                ...(built.path !== undefined ? { file: { path: built.path, source: built.source } } : {}),
                message: msg(T.constructedHere, `\`${cls.name}\``, `\`${bare(dim.text)}\``, `\`${width}\``),
              },
            ]);
            return;
          }
          if (which === 'head') headWidthSomewhere.add(op.factorNode.id);
          if (which === 'head' && op.on === 'scores') {
            // `d_k = d_model // num_heads` on scores whose queries and keys are d_model wide, never split into heads.
            const whole = target.attn?.unsplitWidth;
            const split = /^(.+?)\s*\/\/?\s*(.+)$/.exec(dim.text);
            if (target.multiHead || target.ndim === 4) headOnSplitSomewhere.add(op.factorNode.id);
            else if (whole && split?.[1] && bare(split[1]) === bare(whole) && target.attn && !factorIsWidth(op.factorNode, whole, site)) {
              headOnWhole.push({
                node: op.factorNode,
                message: msg(T.headOfWholeWidth, f, dim.text, whole),
                evidence: [...evidence, { node: target.attn.formedAt, message: msg(T.keysFormed, quote(whole, 24)) }],
              });
            }
          }
          if (which !== 'model') return;
          if (!multiHead || oneHead(target)) return;
          // The queries are their projection's whole output, never split into heads: a fourth axis (a stack of decoder
          // layers, `proj(hs)` of `hs: [L, B, Q, C]`) is no head axis, so nothing shows per-head scores.
          if (queriesUnsplit(target)) return;
          // Nor are features as the projection made them, restated by no view since (a rank of 4 from the input's own
          // axes, frames by tokens, is no head axis).
          if (featuresNeverRestated(target)) return;
          if (contracted()) return;
          if (headAsWide(constructorParamOf(site, dim.text), target, site) || timesHeadCount(dim, target, site)) {
            headWidthSomewhere.add(op.factorNode.id);
            return;
          }
          // The code builds a wider width from it (`D = K * d` in the class or a config module): one piece of that width,
          // whatever its name says (GMAN's `self._d ** 0.5` on heads of width d).
          if (widerWidthProduct(ev, site.ctx.scope.ownerClass, [dim.text, constructorParamOf(site, dim.text) ?? ''])) return;
          // Decided at the end: another context (a caller, the constructor call that bound it) may show it is a head's width.
          modelWidth.push({
            node: op.factorNode,
            message: msg(T.modelWidth, f, dim.text),
            evidence,
            // Read as the model width by its name alone (`dim`, `d`, `embed_size`): kept only if the code divides that width
            // by a head count somewhere in the file (checked at the end, when every such division has been read).
            // The width going into or out of the projection that made these queries is shown by the code as well.
            ...(dim.which === 'model' &&
            dimOfName(dim.text)?.which === 'model' &&
            !projectionWidth(proj, dim.text, site) &&
            !classLayerWidth(ev, site.ctx.scope.ownerClass ?? callerClass(ev, site.ctx), dim.text)
              ? { byName: [dim.text, ...boundTexts(op, site)] }
              : {}),
          });
        }
      },
      sdpa(site: SdpaSite) {
        // A kernel call in an `if`/`elif` arm this context cannot take (`if backend == "sdpa":` in a helper whose callers
        // leave `backend="flash_attn"` at its default) is evaluated for its sites but never runs with these inputs.
        if (ev.owns(site.ctx.scope) && armDeadInCtx(ev, site.node, site.ctx)) return;
        // Every check below is about the kernel's own scale: a kernel that takes none (F.multi_head_attention_forward) has nothing to judge.
        const param = site.scaleParam;
        /* c8 ignore next -- every kernel of the API table names its scale parameter; the type leaves it optional */
        if (!param) return;
        const explicitScale = site.scale;
        // Every kernel with a scale parameter documents its default, 1/sqrt of the head width (torch's SDPA, flash-attn,
        // xformers and jax.nn.dot_product_attention, `scale=None`), so what it does with no scale given is judged on
        // each: queries scaled by hand are scaled twice.
        // A scale handed to the kernel that is a dimension itself, or 1/d, or 1/sqrt of the model width.
        const dp = explicitScale?.kind === 'number' ? (explicitScale.dimPow ?? literalKernelWidth(explicitScale.num, site)) : undefined;
        if (site.scaleNode && dp && !ev.mup) {
          const which = dimWhich(dp.dim);
          const f = quote(ctx.text(site.scaleNode), 40);
          // Where the factor was defined: computed only for a finding (most kernel calls report nothing).
          const scaleNode = site.scaleNode;
          const given = (): ReturnType<typeof factorDefinitions> => factorDefinitions(ev, scaleNode, site.ctx);
          if ((which === 'head' || which === 'model') && dp.power === -1) {
            report(site.scaleNode, msg(T.kernelOneOverDim, apiName(site.display), f, dp.dim.text, param), undefined, given());
            return;
          }
          // Unit-normalised queries and keys (nGPT): the kernel's scale sqrt(d) is their temperature (see unitOperands).
          if ((which === 'head' || which === 'model') && dp.power > 0 && !(site.q.normalized && site.k.normalized)) {
            report(site.scaleNode, msg(T.kernelTimesDim, apiName(site.display), f, dp.power), undefined, given());
            return;
          }
          // Per-head scores where the code (or the queries' stated shape, `(B, H, T, d_model // H)`) shows an axis of heads:
          // the kernel's rank of 4 alone is no head axis (one head as `q.unsqueeze(1)`, windows in the head slot).
          if (which === 'model' && dp.power === -0.5 && (site.q.multiHead || !!site.q.axes?.some((a) => a.label === 'head'))) {
            report(site.scaleNode, msg(T.kernelModelWidth, apiName(site.display), f, dp.dim.text), undefined, given());
            return;
          }
          // The width going into the query projection (`B, T, C = x.size()` then `scale=C ** -0.5`) on queries that
          // projection split into heads: the same model width as a manual `/ math.sqrt(C)` on the scores would be.
          const inWidth = dp.power === -0.5 && which === 'unknown' && !oneHead(site.q) ? isProjectionInputWidth(dp.dim, site.q, site) : undefined;
          if (inWidth) {
            report(site.scaleNode, msg(T.kernelModelWidth, apiName(site.display), f, inWidth), undefined, given());
            return;
          }
        }
        // An explicit 1/sqrt(d) (`scale=self.scale`) on inputs already scaled by hand scales twice as surely as the default.
        const explicitInverseSqrt = !!site.scaleNode && explicitScale?.kind === 'number' && explicitScale.dimPow?.power === -0.5;
        if (site.scaleNode && !(explicitScale && explicitScale.kind === 'none') && !explicitInverseSqrt) return;
        /**
         * A scaling by hand of q or k by 1/sqrt(d), a value the code shows. A factor known only by a name that says scale
         * (`q * self.q_scale` with `self.q_scale = nn.Parameter(torch.ones(h, 1, 1))`, a learned gain; an FP8 cache's
         * `k_scale`) is no evidence of a first 1/sqrt(d) that the kernel's default repeats (session 48).
         */
        const qWidth = axisAt(site.q, -1)?.sizeText;
        const manualScale = (o: ScaleOp): boolean =>
          o.on !== 'weights' && !o.init && isInverseSqrtDim(o) && (o.dim?.literal === undefined || String(o.dim.literal) === qWidth);
        for (const [value, node] of [
          [site.q, site.qNode],
          [site.k, site.kNode],
        ] as const) {
          // A q or k passed as `*qkv` has no node, and no path of operations to judge.
          if (!node) continue;
          // The scaling on every path to the kernel (empty when some path has none).
          const ops: ScaleOp[] = [];
          const alts = alternatives(value);
          for (const alt of alts) {
            // A sqrt of the head width on the path cancels the kernel's own 1/sqrt(E): the manual factor is then the
            // only scale left (`q * self.scale / (q.shape[-1] ** -0.5)`, compensatesKernelDefault).
            if (scaleOps(alt).some(cancelsKernelScale)) break;
            const o = scaleOps(alt).find(manualScale);
            if (!o) break;
            ops.push(o);
          }
          const [op] = ops;
          if (!op || ops.length < alts.length) continue;
          const by = quote(ctx.text(op.factorNode), 30);
          // Reported at the kernel call (or its scale=); the manual scaling and its factor's definition are the evidence.
          const manual: (RelatedSpec | undefined)[] = [
            { node: op.node, message: msg(T.scaledBy, quote(ctx.text(node), 30), quote(ctx.text(op.factorNode), 30)) },
            ...factorDefinitions(ev, op.factorNode, site.ctx, 1),
          ];
          if (explicitInverseSqrt) {
            report(
              site.scaleNode,
              msg(T.scaledTwiceExplicit, quote(ctx.text(node), 30), by, apiName(site.display), param, quote(ctx.text(site.scaleNode), 30)),
              undefined,
              manual,
            );
            return;
          }
          report(
            site.node,
            msg(T.scaledTwiceDefault, quote(ctx.text(node), 30), by, apiName(site.display), param),
            keywordFix(site, msg(T.passUnitFix, param), `${param}=1.0`),
            manual,
          );
          return;
        }
        if (site.scaleNode) return;
        const ignored = ignoredScale(site);
        if (!ignored) return;
        // A divisor (Megatron's `norm_factor = sqrt(d) * layer`) is handed over as its inverse; unknown: no fix.
        const value = ignored.divides === undefined ? undefined : ignored.divides ? `1 / ${ignored.name}` : ignored.name;
        report(
          site.node,
          msg(T.ignoredScale, apiName(site.display), param, quote(ignored.name, 30), quote(ignored.defText, 50)),
          value === undefined ? undefined : keywordFix(site, msg(T.passScaleFix, param, value), `${param}=${value}`),
          [{ node: ignored.def, message: msg(T.scaleNeverPassed, quote(ignored.name, 30), apiName(site.display)) }],
        );
      },
      softmax(site: SoftmaxSite) {
        softmaxSites.push(site);
      },
      end() {
        for (const m of modelWidth)
          if (
            !headWidthSomewhere.has(m.node.id) &&
            (m.byName === undefined || [...m.byName, ...(boundByNode.get(m.node.id) ?? [])].some((t) => splitByHeadCount(ev, t)))
          )
            report(m.node, m.message, undefined, m.evidence);
        for (const m of headOnWhole) if (!headOnSplitSomewhere.has(m.node.id)) report(m.node, m.message, undefined, m.evidence);
        // Two definite 1/sqrt(d) factors on the same path to one softmax.
        for (const group of byNode(softmaxSites).values()) {
          for (const site of group) {
            if (!hasRoles(site.input)) continue;
            for (const alt of alternatives(site.input)) {
              // One scaling statement counts once: a comprehension over `(q, k, v)` gives each element the join of
              // all three, so q's scaling shows on the keys' path too (`(t * s for t in (q, k))` is then left unsaid).
              // A 1/sqrt of a size read off another axis than the features (`math.sqrt(rows)` with `rows, cols, batch,
              // embed = x.shape`: tied row attention, whose scores sum over the rows too) is a count, not a second d.
              const formedAt = site.input.attn?.formedAt;
              const sqrt = distinctScalings(
                scaleOps(alt).filter((o) => o.on !== 'weights' && !o.init && isInverseSqrtDim(o) && !o.dim?.otherAxis && !unplacedLiteral(o, formedAt)),
              );
              if (sqrt.length < 2) {
                const twice = sameScaleTwice(alt, site.ctx);
                if (twice) {
                  const [a, b] = twice;
                  const keys = a.on === 'key';
                  report(
                    b.factorNode,
                    msg(keys ? T.sameScaleTwiceKeys : T.sameScaleTwiceQueries, quote(ctx.text(b.factorNode), 30), quote(ctx.text(b.node), 40)),
                    undefined,
                    [
                      { node: a.node, message: msg(keys ? T.sameScaleFirstKeys : T.sameScaleFirstQueries, quote(ctx.text(a.factorNode), 30)) },
                      ...factorDefinitions(ev, b.factorNode, site.ctx, 1),
                    ],
                  );
                  continue;
                }
              }
              const [first] = sqrt;
              const second = sqrt.at(-1);
              // `first && second` hold whenever there are two or more
              if (sqrt.length >= 2 && first && second) {
                // Scores an einsum forms by summing over more than the features (tied row attention, 'b r h i d, b r h j
                // d -> b h i j': the rows r and the features d): their variance grows with each summed size, so one
                // 1/sqrt per summed axis (`* self.scale * num_rows ** -0.5`) is one normalisation, not two.
                if (sqrt.length <= einsumSummedAxes(formedAt) && distinctSizes(sqrt)) continue;
                if (sqrt.length === 2 && eachOperandOnce(first, second)) {
                  // q and k each divided by sqrt(C): the same as the scores divided by C. Followed by a temperature
                  // (LoFTR-style matching: each feature set normalised, then `einsum(...) / temperature`), the 1/C is a
                  // deliberate normalisation and the temperature sets the sharpness: silent. Without one it is 1/d, the
                  // bug `/ d_k` is, and the message says so.
                  if (scaleOps(alt).some(isTemperature)) continue;
                  report(second.factorNode, msg(T.eachOperand, quote(ctx.text(first.factorNode), 30), quote(ctx.text(second.factorNode), 30)), undefined, [
                    { node: first.node, message: msg(T.otherOperand, quote(ctx.text(first.factorNode), 30)) },
                    ...factorDefinitions(ev, second.factorNode, site.ctx, 1),
                  ]);
                  break;
                }
                // A helper that scales for itself, called with q already scaled by its caller: the caller's factor is the
                // extra one (the helper is right for its other callers), so that is where it is reported.
                if (site.ctx.callSite && within(second.node, site.ctx.scope.node) && !within(first.node, site.ctx.scope.node)) {
                  report(first.factorNode, msg(T.twiceOnPath, quote(ctx.text(first.factorNode), 30), quote(ctx.text(second.factorNode), 30)), undefined, [
                    { node: second.node, message: msg(T.calleeScalesAgain, quote(ctx.text(second.factorNode), 30)) },
                    ...factorDefinitions(ev, first.factorNode, site.ctx, 1),
                  ]);
                  break;
                }
                // Each path's second factor is a finding of its own: branches that each scale the scores again after one
                // scaling of q (`if bias is None: s = (q @ kT) * self.scale` / `else: s = (q @ kT) * self.scale + bias`)
                // are two wrong factors; a factor shared by several paths is reported once (report keys on the node).
                report(second.factorNode, msg(T.twiceOnPath, quote(ctx.text(first.factorNode), 30), quote(ctx.text(second.factorNode), 30)), undefined, [
                  { node: first.node, message: msg(T.firstFactor, quote(ctx.text(first.factorNode), 30)) },
                  ...factorDefinitions(ev, second.factorNode, site.ctx, 1),
                ]);
              }
            }
          }
        }
      },
    };

    /**
     * A scale the enclosing class or function computes for itself (`self.scaling = head_dim ** -0.5 / (layer_idx + 1)`,
     * `softmax_scale = mscale * mscale / math.sqrt(d)`) whose definitions show a factor beyond the kernel's default
     * 1/sqrt(d). Scales read from a config, or written `qk_scale or d ** -0.5`, are unknown and stay silent.
     */
    function ignoredScale(site: SdpaSite): { name: string; defText: string; def: PyNode; divides?: boolean } | undefined {
      const scope = site.ctx.scope;
      const groups = new Map<string, Def[]>();
      const add = (d: Def): void => {
        if (!isKernelScaleName(d.name)) return;
        const l = groups.get(d.name);
        if (l) l.push(d);
        else groups.set(d.name, [d]);
      };
      if (scope.ownerClass) for (const [, defs] of scope.ownerClass.attrDefs) for (const d of defs) add(d);
      const named = ev.file.perNode('kernel scale defs', scope.node, () =>
        (ev.sr.defsOfScope.get(scope.id) ?? []).filter((d) => !d.name.startsWith('self.') && isKernelScaleName(d.name)),
      );
      for (const d of named) if (d.target.start < site.node.start) add(d);
      const owner = scope.ownerClass?.node ?? scope.node;
      for (const [name, defs] of groups) {
        const forms = defs.map((d) =>
          scaleForm(
            d,
            (n) => ctx.text(n),
            (n) => ev.eval(n, ev.defaultCtx(d.scope)).num,
          ),
        );
        if (forms.some((f) => f.form === 'unknown')) continue;
        // The first definition of a different form (none: findIndex gives -1, and defs[-1] is undefined).
        const different = defs[forms.findIndex((f) => f.form === 'different')];
        if (!different) continue;
        // The owner's code without the scale's own definitions: is the extra factor applied again (and cancelled)?
        const definitions = defs.map(statementOf);
        if (
          factorReapplied(
            forms.flatMap((f) => f.others),
            owner,
            definitions,
            (n) => ctx.text(n),
          )
        )
          continue;
        const shown = forms.map((f) => f.divides).filter((d) => d !== undefined);
        const divides = shown.length > 0 && shown.every((d) => d === shown[0]) ? shown[0] : undefined;
        const def = statementOf(different);
        return { name, defText: ctx.text(def), def, divides };
      }
      return undefined;
    }

    function within(node: PyNode, outer: PyNode): boolean {
      return node.start >= outer.start && node.end <= outer.end;
    }

    /**
     * `op` divides by a factor that is the inverse square root of a size read from code, not a name: a named scale
     * (`self.scale`) or a power written with a negative exponent (`/ d ** -0.5`), of a size that is neither a literal,
     * a length read off another axis, nor a name known only under a root.
     */
    function dividesByInverseRoot(op: ScaleOp, dim: DimInfo, site: ScaleSite): boolean {
      const factor = ctx.text(op.factorNode);
      return (
        /^\/=?$/.test(String(operatorOf(op))) &&
        dim.literal === undefined &&
        !dim.otherAxis &&
        !dim.rooted &&
        (INVERTED_ROOT.test(factor) ||
          (/^(?:self\.)?\w+$/.test(factor) && factorDefinitions(ev, op.factorNode, site.ctx).some((d) => INVERTED_ROOT.test(definitionLine(d)))))
      );
    }

    /** The line of source a definition (a related location) sits on, in this file or in another workspace file. */
    function definitionLine(d: RelatedSpec): string {
      /* c8 ignore next -- a definition in another file exists only in a workspace, which single-file fixtures do not build (att004-divided-by-inverse-unnamed47.test.ts) */
      const source = d.file ? d.file.source : ev.tree.source;
      return source.slice(source.lastIndexOf('\n', d.node.start) + 1, source.indexOf('\n', d.node.start) >>> 0);
    }

    /** A positive power of a dimension on the scores: the logits grow with it. */
    function reportTimesDim(site: ScaleSite, op: ScaleOp, dim: DimInfo, power: number): void {
      const f = quote(ctx.text(op.factorNode), 40);
      // Divided by a factor that is itself 1/sqrt(d) (`/ self.scale` with `self.scale = head_dim ** -0.5`).
      const token = operatorOf(op);
      const divides = token === '/' || token === '/=';
      // ... named (`self.scale`), or written as a negative power (`/= C ** -0.5`).
      const factor = ctx.text(op.factorNode);
      const inverse = divides && op.factorNode.type !== 'call' && (!/sqrt|\*\*/.test(factor) || /\*\*\s*\(?\s*-/.test(factor));
      // The dimension as the factor writes it (`theta_x.shape[-1]` of `theta_x.shape[-1] ** -0.5`), else as it was read.
      const text = (inverse ? /^\(?(.+?)\)?\s*\*\*/.exec(factor)?.[1] : undefined) ?? dim.text;
      report(
        op.factorNode,
        inverse ? msg(T.dividedByInverse, f, text) : msg(T.multipliedByDim, f, power),
        undefined,
        factorDefinitions(ev, op.factorNode, site.ctx),
      );
    }

    /**
     * The scaled value is the product of two unnormalised operands that a softmax then normalises, and the factor's
     * dimension is the size that product sums over: the last axis of its left operand read off that operand
     * (`theta_x.shape[-1]`), or the size the product's contracted axes are known by (`self.inter_channels`).
     */
    function sumsOverTheFactor(site: ScaleSite, dim: DimInfo): boolean {
      const attn = site.target.attn;
      const product = ev.facts.matmul.find((m) => m.node === attn?.formedAt && m.ctx === site.ctx && attn.stage === 'scores');
      const softmaxed = ev.facts.softmax.some((s) => s.ctx === site.ctx && s.input.attn?.formedAt === attn?.formedAt);
      if (!product || !softmaxed || product.a.normalized || product.b.normalized) return false;
      return dim.ofTensor
        ? dim.ofTensor === product.a && product.contractA === -1
        : [...ev.facts.contractedSizes(product.node)].some((size) => bare(size) === bare(dim.text));
    }

    /**
     * One name, read with the same reaching definitions, scales the queries (or the keys) and then the scores they form,
     * with the same operator (`query = query / scale`, later `softmax(similarity / scale)`), where one of those definitions
     * is 1/sqrt or sqrt of the width (`scale = query.size(-1) ** 0.5` when no scale is passed): whatever a caller passes,
     * the scores carry its square. Two distinct statements; the operand's op comes first. Undefined otherwise.
     */
    function sameScaleTwice(alt: readonly import('../analysis/values').PathOp[], at: ScaleSite['ctx']): [ScaleOp, ScaleOp] | undefined {
      const ops = scaleOps(alt).filter((o) => !o.init && o.on !== 'weights' && unparen(o.factorNode).type === 'identifier');
      // The definitions reaching a factor, as one key (the same name read with the same definitions has the same key).
      const defsOf = (o: ScaleOp): Def[] => ev.resolve(unparen(o.factorNode), ctx.text(unparen(o.factorNode))) ?? [];
      const key = (o: ScaleOp): string =>
        `${ctx.text(unparen(o.factorNode))}@${defsOf(o)
          .map((d) => d.target.start)
          .join(',')}`;
      // A root of the width (either sign of the power), not of a head count.
      const rooted = (d: Def): boolean => {
        const p = ev.evalDef(d, at).dimPow;
        return Math.abs(p?.power ?? 0) === 0.5 && p?.dim.which !== 'heads';
      };
      const operands = ops.filter((o) => o.on !== 'scores');
      for (const b of ops.filter((o) => o.on === 'scores')) {
        const a = operands.find((o) => key(o) === key(b) && divides(o) === divides(b));
        if (a && defsOf(a).some(rooted)) return [a, b];
      }
      return undefined;
    }

    /**
     * How many axes the product forming the scores at `formedAt` sums over: an einsum's letters in both operands and
     * not in the output ('brhid,brhjd->bhij' sums over r and d, 2); one for any other product.
     */
    function einsumSummedAxes(formedAt: PyNode | undefined): number {
      return Math.max(0, ...ev.facts.matmul.filter((m) => m.node === formedAt).map((m) => m.summedAxes ?? 1));
    }

    /**
     * Factors of different sizes: no two hold the same dimension (`self.head_dim ** -0.5 / math.sqrt(self.head_dim)` is
     * the head width twice), and at most one is the head width however written (`self.scale` of `dim_head ** -0.5`
     * beside `num_rows ** -0.5`).
     */
    function distinctSizes(ops: readonly ScaleOp[]): boolean {
      // A factor with no dimension known counts as one size ('undefined'), so two such are not distinct.
      const texts = ops.map((o) => bare(String(o.dim?.text)));
      if (new Set(texts).size < texts.length) return false;
      return ops.filter((o) => o.dim && dimWhich(o.dim) === 'head').length <= 1;
    }

    /** The scores formed at `formedAt` are products of queries and keys both divided by their norm (cosine logits). */
    function unitOperands(formedAt: PyNode | undefined): boolean {
      const products = formedAt ? ev.facts.matmul.filter((m) => m.node === formedAt) : [];
      return products.length > 0 && products.every((m) => m.a.normalized === true && m.b.normalized === true);
    }

    /** Scores formed by a pairwise product summed over the features, not by a matmul (`formedAt` is the product `q_ * k_`). */
    function isPairwise(v: SoftmaxSite['input']): boolean {
      const at = v.attn?.formedAt;
      return !!at && !ev.facts.matmul.some((m) => m.node === at);
    }

    /** The scalings of a path, each scaling expression once. */
    function distinctScalings(ops: readonly ScaleOp[]): ScaleOp[] {
      const seen = new Set<number>();
      return ops.filter((o) => !seen.has(o.node.id) && !!seen.add(o.node.id));
    }

    /** Two 1/sqrt(d) factors, one on the queries and one on the keys (before they meet): 1/d on the scores. */
    function eachOperandOnce(a: ScaleOp, b: ScaleOp): boolean {
      const sides = [a.on, b.on];
      return sides.includes('query') && sides.includes('key');
    }

    /** A temperature on the scores: a factor named as a scale or temperature, or a constant, no dimension in it. */
    function isTemperature(o: ScaleOp): boolean {
      return o.on === 'scores' && o.power === undefined && (o.named !== undefined || o.constant !== undefined);
    }

    /** The width of each part of a fused projection's output written `k * w` or `w * k` (k a digit from 2 to 9: q, k, v or k, v fused). */
    /** `out` is `inp * X` or `X * inp` with X neither a whole number written out nor a constant the file binds to one. */
    function timesUnshownCount(out: string, inp: string): boolean {
      const m = /^([^*]+)\*([^*]+)$/.exec(out);
      const other = m?.[1] === inp ? m[2] : m?.[2] === inp ? m[1] : undefined;
      return other !== undefined && constantNumber(ev, other) === undefined;
    }

    function fusedWidthOf(out: string): string | undefined {
      return fusedPartWidth(ev, out);
    }

    /** The assignment (or other statement part) that holds a definition's target. */
    function statementOf(d: Def): PyNode {
      /* c8 ignore next -- a definition's target always sits inside a statement; the type allows a root node */
      return d.target.parent ?? d.target;
    }

    /** The fix that adds `keyword` to the kernel call's arguments. */
    function keywordFix(site: SdpaSite, title: MessageParts, keyword: string): FixSpec | undefined {
      const args = site.argListNode;
      /* c8 ignore next -- a call node always has its argument list (tree-sitter's grammar); the type leaves it optional */
      if (!args) return undefined;
      return { title, safety: 'unsafe', edits: [insertKeyword(args, (n) => ctx.text(n), keyword)] };
    }

    function sqrtFix(op: ScaleOp) {
      const mathImported = ev.file.importsMathModule;
      const t = ctx.text(op.factorNode);
      const newText = mathImported ? `math.sqrt(${t})` : `${t} ** 0.5`;
      return {
        title: msg(T.sqrtFix, t),
        safety: 'unsafe' as const,
        edits: [{ start: op.factorNode.start, end: op.factorNode.end, newText }],
      };
    }
  },
};
