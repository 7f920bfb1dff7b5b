// The API table: one row per torch / NumPy / TF-Keras / JAX / flax API that attention code is judged by
// (softmax variants, score products, fused attention kernels, attention layers, masked fills and mask
// builders), with what the library documents about it: the softmax's axis parameter and default, each mask
// argument's position and meaning (True = keep or ignore, whether a float mask is added), the kernel's scale
// and causal parameters and its default scale. Pure data.
//
// Everything that names these APIs is read from here: apis.ts builds the evaluator's lookup records
// (SOFTMAX_FUNCTIONS, MASK_LAYERS, SDPA_FUNCTIONS, ...) from the rows, and prefilters.ts builds every keyword
// prefilter (which files, blocks, function bodies and statements the linter looks at) from their names, so a
// new API is one row here (and a test), and the prefilters cannot fall behind it.
import type { Framework, MaskParam, SoftmaxApi } from './apis';

/**
 * - softmax: normalises along an axis. - product: forms scores or mixes weights with values (q·kᵀ, w·v).
 * - kernel: a fused attention function (softmax(q·kᵀ·scale + mask)·v in one call). - layer: an attention module.
 * - fill: writes a value where a mask says (masked_fill, where). - mask-builder: builds a mask (tril, band_part).
 */
export type ApiKind = 'softmax' | 'product' | 'kernel' | 'layer' | 'fill' | 'mask-builder';

/** How code reaches the API: a qualified function, a tensor method, a layer (constructed, then called), an operator. */
export type ApiForm = 'function' | 'method' | 'layer' | 'operator';

/**
 * The kernel's own scale when none is passed: 1/sqrt(E), E the last dimension of q (per head for layers); 'none' for
 * a layer that scales nothing by default (Keras' Luong `Attention` and Bahdanau `AdditiveAttention`).
 */
export type DefaultScale = 'inverse-sqrt-head-dim' | 'none';

export interface KernelParams {
  /** The mask tensor's parameter and position (absent: the kernel takes no boolean mask). */
  readonly maskParam?: string;
  readonly maskPos?: number;
  /** Only where the causal flag is top-left aligned (SDPA); flash-attn's `causal` is bottom-right since 2.1. */
  readonly causalParam?: string;
  readonly scaleParam?: string;
  readonly scalePos?: number;
}

export interface ApiRow {
  /** Canonical qualified name (see canonicalQualifiedName); `Tensor.<name>` for a tensor method; the operator itself. */
  readonly api: string;
  readonly kind: ApiKind;
  readonly form: ApiForm;
  readonly framework: Framework;
  /** How messages name it. */
  readonly display: string;
  /** Softmax: its axis parameter, position and default (for layers, in the constructor). */
  readonly softmax?: Omit<SoftmaxApi, 'display' | 'framework'>;
  /** Arguments that are masks, with their documented meaning (for layers: of forward/call). */
  readonly masks?: readonly MaskParam[];
  /** Fused kernels: the mask, causal and scale parameters. */
  readonly kernel?: KernelParams;
  readonly defaultScale?: DefaultScale;
  /** Source text that stands for a use, as a regular-expression fragment, when it is not the name's last part (operators). */
  readonly text?: string;
  /** The name's last part is a common word (`where`, `dot`, `mm`): only a call of it (`where(`) counts as a use in text. */
  readonly callOnly?: boolean;
}

/** PyTorch's argument parser also takes NumPy's `axis=` for `dim=` (`torch.softmax(x, axis=-1)`). */
const TORCH_SOFTMAX = { dimParam: 'dim', dimPos: 1, defaultDim: 'implicit', dimAlias: 'axis' } as const;
const AXIS_LAST = { dimParam: 'axis', dimPos: 1, defaultDim: -1 } as const;
/** TF 1 also took the axis as `dim=` (deprecated for `axis=`, still accepted). */
const TF_AXIS_LAST = { ...AXIS_LAST, dimAlias: 'dim' } as const;

/** nn.MultiheadAttention.forward(query, key, value, key_padding_mask, need_weights, attn_mask, ...): True = ignore; float masks are added. */
const MHA_MASKS: readonly MaskParam[] = [
  { name: 'key_padding_mask', pos: 3, expects: 'ignore', additive: true },
  { name: 'attn_mask', pos: 5, expects: 'ignore', additive: true },
];

const DECODER_MASKS: readonly MaskParam[] = [
  { name: 'tgt_mask', pos: 2, expects: 'ignore', additive: true },
  { name: 'memory_mask', pos: 3, expects: 'ignore', additive: true },
  { name: 'tgt_key_padding_mask', pos: 4, expects: 'ignore', additive: true },
  { name: 'memory_key_padding_mask', pos: 5, expects: 'ignore', additive: true },
];

export const API_TABLE: readonly ApiRow[] = [
  // ---------------------------------------------------------------------------------------------- softmax
  { api: 'torch.softmax', kind: 'softmax', form: 'function', framework: 'torch', display: 'torch.softmax', softmax: TORCH_SOFTMAX },
  { api: 'torch.nn.functional.softmax', kind: 'softmax', form: 'function', framework: 'torch', display: 'F.softmax', softmax: TORCH_SOFTMAX },
  { api: 'torch.special.softmax', kind: 'softmax', form: 'function', framework: 'torch', display: 'torch.special.softmax', softmax: TORCH_SOFTMAX },
  {
    api: 'Tensor.softmax',
    kind: 'softmax',
    form: 'method',
    framework: 'torch',
    display: 'Tensor.softmax',
    softmax: { dimParam: 'dim', dimPos: 0, defaultDim: 'implicit' },
  },
  {
    api: 'scipy.special.softmax',
    kind: 'softmax',
    form: 'function',
    framework: 'scipy',
    display: 'scipy.special.softmax',
    softmax: { dimParam: 'axis', dimPos: 1, defaultDim: 'all' },
  },
  {
    // MLX: softmax over the full array unless an axis is given (mlx.core.softmax(a, axis=None)).
    api: 'mlx.core.softmax',
    kind: 'softmax',
    form: 'function',
    framework: 'scipy',
    display: 'mx.softmax',
    softmax: { dimParam: 'axis', dimPos: 1, defaultDim: 'all' },
  },
  { api: 'jax.nn.softmax', kind: 'softmax', form: 'function', framework: 'jax', display: 'jax.nn.softmax', softmax: AXIS_LAST },
  { api: 'flax.linen.softmax', kind: 'softmax', form: 'function', framework: 'jax', display: 'nn.softmax', softmax: AXIS_LAST },
  { api: 'tensorflow.nn.softmax', kind: 'softmax', form: 'function', framework: 'tf', display: 'tf.nn.softmax', softmax: TF_AXIS_LAST },
  { api: 'tensorflow.math.softmax', kind: 'softmax', form: 'function', framework: 'tf', display: 'tf.math.softmax', softmax: TF_AXIS_LAST },
  { api: 'keras.activations.softmax', kind: 'softmax', form: 'function', framework: 'tf', display: 'keras.activations.softmax', softmax: AXIS_LAST },
  { api: 'keras.ops.softmax', kind: 'softmax', form: 'function', framework: 'tf', display: 'keras.ops.softmax', softmax: AXIS_LAST },
  { api: 'keras.backend.softmax', kind: 'softmax', form: 'function', framework: 'tf', display: 'K.softmax', softmax: AXIS_LAST },
  {
    api: 'torch.nn.Softmax',
    kind: 'softmax',
    form: 'layer',
    framework: 'torch',
    display: 'nn.Softmax',
    softmax: { dimParam: 'dim', dimPos: 0, defaultDim: 'implicit' },
  },
  // Activation('softmax') (the only form read: ops.ts's layerFromCtor takes the layer only with that string): the
  // last axis, as keras.activations.softmax.
  {
    api: 'keras.layers.Activation',
    kind: 'softmax',
    form: 'layer',
    framework: 'tf',
    display: "keras.layers.Activation('softmax')",
    softmax: { dimParam: 'axis', dimPos: 1, defaultDim: -1 },
  },
  {
    api: 'keras.layers.Softmax',
    kind: 'softmax',
    form: 'layer',
    framework: 'tf',
    display: 'keras.layers.Softmax',
    softmax: { dimParam: 'axis', dimPos: 0, defaultDim: -1 },
  },

  // ---------------------------------------------------------------------------------------------- products
  // The operator between two operands on one line (`q @ k.T`, `a @\n b`), or at the start of a continued line with
  // a space after it (black's `(q\n    @ k.T)`); not a decorator (`x = 1\n\n@property`): on real trees most
  // `@` text is decorators, which made blocks without a product parsed and evaluated.
  {
    api: '@',
    kind: 'product',
    form: 'operator',
    framework: 'user',
    display: '@',
    text: String.raw`[\w)\]][ \t]*@\s*[\w(]|[\w)\]]\s*\n\s*@[ \t]+[\w(]`,
  },
  { api: 'torch.matmul', kind: 'product', form: 'function', framework: 'torch', display: 'torch.matmul' },
  { api: 'torch.bmm', kind: 'product', form: 'function', framework: 'torch', display: 'torch.bmm' },
  { api: 'torch.baddbmm', kind: 'product', form: 'function', framework: 'torch', display: 'torch.baddbmm' },
  { api: 'torch.mm', kind: 'product', form: 'function', framework: 'torch', display: 'torch.mm', callOnly: true },
  { api: 'torch.einsum', kind: 'product', form: 'function', framework: 'torch', display: 'torch.einsum' },
  { api: 'numpy.matmul', kind: 'product', form: 'function', framework: 'numpy', display: 'np.matmul' },
  { api: 'numpy.dot', kind: 'product', form: 'function', framework: 'numpy', display: 'np.dot', callOnly: true },
  { api: 'numpy.einsum', kind: 'product', form: 'function', framework: 'numpy', display: 'np.einsum' },
  { api: 'jax.numpy.matmul', kind: 'product', form: 'function', framework: 'jax', display: 'jnp.matmul' },
  { api: 'jax.numpy.einsum', kind: 'product', form: 'function', framework: 'jax', display: 'jnp.einsum' },
  { api: 'tensorflow.linalg.matmul', kind: 'product', form: 'function', framework: 'tf', display: 'tf.linalg.matmul' },
  { api: 'tensorflow.einsum', kind: 'product', form: 'function', framework: 'tf', display: 'tf.einsum' },
  { api: 'einops.einsum', kind: 'product', form: 'function', framework: 'user', display: 'einops.einsum' },

  // ---------------------------------------------------------------------------------------------- fused kernels
  // SDPA: bool attn_mask True = attend; a float mask is added after scaling; is_causal is top-left aligned.
  {
    api: 'torch.nn.functional.scaled_dot_product_attention',
    kind: 'kernel',
    form: 'function',
    framework: 'torch',
    display: 'F.scaled_dot_product_attention',
    masks: [{ name: 'attn_mask', pos: 3, expects: 'keep', additive: true }],
    kernel: { maskParam: 'attn_mask', maskPos: 3, causalParam: 'is_causal', scaleParam: 'scale', scalePos: 6 },
    defaultScale: 'inverse-sqrt-head-dim',
  },
  {
    api: 'torch.nn.functional.multi_head_attention_forward',
    kind: 'kernel',
    form: 'function',
    framework: 'torch',
    display: 'F.multi_head_attention_forward',
    masks: [
      { name: 'key_padding_mask', pos: 14, expects: 'ignore', additive: true },
      { name: 'attn_mask', pos: 16, expects: 'ignore', additive: true },
    ],
    defaultScale: 'inverse-sqrt-head-dim',
  },
  {
    api: 'jax.nn.dot_product_attention',
    kind: 'kernel',
    form: 'function',
    framework: 'jax',
    display: 'jax.nn.dot_product_attention',
    masks: [{ name: 'mask', pos: 4, expects: 'keep', additive: false }],
    kernel: { maskParam: 'mask', maskPos: 4, causalParam: 'is_causal', scaleParam: 'scale' },
    defaultScale: 'inverse-sqrt-head-dim',
  },
  {
    api: 'flax.linen.dot_product_attention',
    kind: 'kernel',
    form: 'function',
    framework: 'jax',
    display: 'nn.dot_product_attention',
    masks: [{ name: 'mask', pos: 4, expects: 'keep', additive: false }],
    defaultScale: 'inverse-sqrt-head-dim',
  },
  {
    api: 'flax.linen.attention.dot_product_attention',
    kind: 'kernel',
    form: 'function',
    framework: 'jax',
    display: 'dot_product_attention',
    masks: [{ name: 'mask', pos: 4, expects: 'keep', additive: false }],
    defaultScale: 'inverse-sqrt-head-dim',
  },
  // flash_attn_func(q, k, v, dropout_p=0.0, softmax_scale=None, causal=False, ...), q/k/v (B, S, H, D)
  {
    api: 'flash_attn.flash_attn_func',
    kind: 'kernel',
    form: 'function',
    framework: 'torch',
    display: 'flash_attn_func',
    kernel: { scaleParam: 'softmax_scale', scalePos: 4 },
    defaultScale: 'inverse-sqrt-head-dim',
  },
  {
    api: 'flash_attn.flash_attn_interface.flash_attn_func',
    kind: 'kernel',
    form: 'function',
    framework: 'torch',
    display: 'flash_attn_func',
    kernel: { scaleParam: 'softmax_scale', scalePos: 4 },
    defaultScale: 'inverse-sqrt-head-dim',
  },
  // flash_attn_varlen_func(q, k, v, cu_seqlens_q, cu_seqlens_k, max_seqlen_q, max_seqlen_k, dropout_p=0.0, softmax_scale=None, ...)
  {
    api: 'flash_attn.flash_attn_varlen_func',
    kind: 'kernel',
    form: 'function',
    framework: 'torch',
    display: 'flash_attn_varlen_func',
    kernel: { scaleParam: 'softmax_scale', scalePos: 8 },
    defaultScale: 'inverse-sqrt-head-dim',
  },
  {
    api: 'flash_attn.flash_attn_interface.flash_attn_varlen_func',
    kind: 'kernel',
    form: 'function',
    framework: 'torch',
    display: 'flash_attn_varlen_func',
    kernel: { scaleParam: 'softmax_scale', scalePos: 8 },
    defaultScale: 'inverse-sqrt-head-dim',
  },
  // flash_attn_with_kvcache(q, k_cache, v_cache, k=None, v=None, ..., softmax_scale=None, causal=False, ...): keyword only here
  {
    api: 'flash_attn.flash_attn_with_kvcache',
    kind: 'kernel',
    form: 'function',
    framework: 'torch',
    display: 'flash_attn_with_kvcache',
    kernel: { scaleParam: 'softmax_scale' },
    defaultScale: 'inverse-sqrt-head-dim',
  },
  {
    api: 'flash_attn.flash_attn_interface.flash_attn_with_kvcache',
    kind: 'kernel',
    form: 'function',
    framework: 'torch',
    display: 'flash_attn_with_kvcache',
    kernel: { scaleParam: 'softmax_scale' },
    defaultScale: 'inverse-sqrt-head-dim',
  },
  // memory_efficient_attention(query, key, value, attn_bias=None, p=0.0, scale=None, ...), (B, M, H, K); attn_bias is
  // additive (or a mask object such as LowerTriangularMask), so it has no boolean polarity.
  {
    api: 'xformers.ops.memory_efficient_attention',
    kind: 'kernel',
    form: 'function',
    framework: 'torch',
    display: 'xformers memory_efficient_attention',
    kernel: { scaleParam: 'scale', scalePos: 5 },
    defaultScale: 'inverse-sqrt-head-dim',
  },
  {
    api: 'xformers.ops.fmha.memory_efficient_attention',
    kind: 'kernel',
    form: 'function',
    framework: 'torch',
    display: 'xformers memory_efficient_attention',
    kernel: { scaleParam: 'scale', scalePos: 5 },
    defaultScale: 'inverse-sqrt-head-dim',
  },

  // ---------------------------------------------------------------------------------------------- attention layers
  {
    api: 'torch.nn.MultiheadAttention',
    kind: 'layer',
    form: 'layer',
    framework: 'torch',
    display: 'nn.MultiheadAttention',
    masks: MHA_MASKS,
    defaultScale: 'inverse-sqrt-head-dim',
  },
  {
    api: 'torch.nn.TransformerEncoderLayer',
    kind: 'layer',
    form: 'layer',
    framework: 'torch',
    display: 'nn.TransformerEncoderLayer',
    masks: [
      { name: 'src_mask', pos: 1, expects: 'ignore', additive: true },
      { name: 'src_key_padding_mask', pos: 2, expects: 'ignore', additive: true },
    ],
    defaultScale: 'inverse-sqrt-head-dim',
  },
  {
    api: 'torch.nn.TransformerEncoder',
    kind: 'layer',
    form: 'layer',
    framework: 'torch',
    display: 'nn.TransformerEncoder',
    masks: [
      { name: 'mask', pos: 1, expects: 'ignore', additive: true },
      { name: 'src_key_padding_mask', pos: 2, expects: 'ignore', additive: true },
    ],
    defaultScale: 'inverse-sqrt-head-dim',
  },
  {
    api: 'torch.nn.TransformerDecoderLayer',
    kind: 'layer',
    form: 'layer',
    framework: 'torch',
    display: 'nn.TransformerDecoderLayer',
    masks: DECODER_MASKS,
    defaultScale: 'inverse-sqrt-head-dim',
  },
  {
    api: 'torch.nn.TransformerDecoder',
    kind: 'layer',
    form: 'layer',
    framework: 'torch',
    display: 'nn.TransformerDecoder',
    masks: DECODER_MASKS,
    defaultScale: 'inverse-sqrt-head-dim',
  },
  {
    api: 'torch.nn.Transformer',
    kind: 'layer',
    form: 'layer',
    framework: 'torch',
    display: 'nn.Transformer',
    masks: [
      { name: 'src_mask', pos: 2, expects: 'ignore', additive: true },
      { name: 'tgt_mask', pos: 3, expects: 'ignore', additive: true },
      { name: 'memory_mask', pos: 4, expects: 'ignore', additive: true },
      { name: 'src_key_padding_mask', pos: 5, expects: 'ignore', additive: true },
      { name: 'tgt_key_padding_mask', pos: 6, expects: 'ignore', additive: true },
      { name: 'memory_key_padding_mask', pos: 7, expects: 'ignore', additive: true },
    ],
    defaultScale: 'inverse-sqrt-head-dim',
  },
  {
    api: 'flax.linen.MultiHeadDotProductAttention',
    kind: 'layer',
    form: 'layer',
    framework: 'jax',
    display: 'nn.MultiHeadDotProductAttention',
    masks: [{ name: 'mask', expects: 'keep', additive: false }],
    defaultScale: 'inverse-sqrt-head-dim',
  },
  {
    api: 'flax.linen.MultiHeadAttention',
    kind: 'layer',
    form: 'layer',
    framework: 'jax',
    display: 'nn.MultiHeadAttention',
    masks: [{ name: 'mask', expects: 'keep', additive: false }],
    defaultScale: 'inverse-sqrt-head-dim',
  },
  {
    api: 'flax.linen.SelfAttention',
    kind: 'layer',
    form: 'layer',
    framework: 'jax',
    display: 'nn.SelfAttention',
    masks: [{ name: 'mask', pos: 1, expects: 'keep', additive: false }],
    defaultScale: 'inverse-sqrt-head-dim',
  },
  {
    api: 'keras.layers.MultiHeadAttention',
    kind: 'layer',
    form: 'layer',
    framework: 'tf',
    display: 'keras.layers.MultiHeadAttention',
    // call(query, value, key, attention_mask, ...) in tf.keras and Keras 2; Keras 3 put query_mask fourth, which
    // is a keep mask too (True = a real token), so a mask given there is read in the same convention.
    // Keras 3 also takes the padding of each input by keyword, `query_mask`, `value_mask` and `key_mask` (True at a
    // real position, as every Keras mask), and combines them with `attention_mask` by logical and.
    masks: [
      { name: 'attention_mask', pos: 3, expects: 'keep', additive: false },
      { name: 'query_mask', expects: 'keep', additive: false },
      { name: 'value_mask', expects: 'keep', additive: false },
      { name: 'key_mask', expects: 'keep', additive: false },
    ],
    defaultScale: 'inverse-sqrt-head-dim',
  },
  {
    // Luong attention: call(inputs=[query, value(, key)], mask=[query_mask, value_mask]), each a Keras mask (True at a
    // real position); dot-product scores with no 1/sqrt(d) of its own (`use_scale=True` learns a scalar instead).
    api: 'keras.layers.Attention',
    kind: 'layer',
    form: 'layer',
    framework: 'tf',
    display: 'keras.layers.Attention',
    masks: [{ name: 'mask', pos: 1, expects: 'keep', additive: false, list: true }],
    defaultScale: 'none',
    // Constructed by that name (a bare `Attention` is too common a word for the prefilters).
    text: String.raw`\bAttention\(`,
  },
  {
    // Bahdanau attention: the same call and masks as keras.layers.Attention, additive scores.
    api: 'keras.layers.AdditiveAttention',
    kind: 'layer',
    form: 'layer',
    framework: 'tf',
    display: 'keras.layers.AdditiveAttention',
    masks: [{ name: 'mask', pos: 1, expects: 'keep', additive: false, list: true }],
    defaultScale: 'none',
  },

  {
    // A model loaded with `AutoModel.from_pretrained(...)` (transformers, or its older names pytorch_transformers and
    // pytorch_pretrained_bert; ops.ts), called as model(input_ids, attention_mask, ...).
    api: 'transformers.PreTrainedModel',
    kind: 'layer',
    form: 'layer',
    framework: 'torch',
    display: 'transformers model',
    masks: [{ name: 'attention_mask', pos: 1, expects: 'keep', additive: false }],
    defaultScale: 'inverse-sqrt-head-dim',
  },

  // ---------------------------------------------------------------------------------------------- fills
  { api: 'Tensor.masked_fill', kind: 'fill', form: 'method', framework: 'torch', display: 'masked_fill' },
  { api: 'torch.masked_fill', kind: 'fill', form: 'function', framework: 'torch', display: 'torch.masked_fill' },
  { api: 'torch.where', kind: 'fill', form: 'function', framework: 'torch', display: 'torch.where', callOnly: true },
  { api: 'numpy.where', kind: 'fill', form: 'function', framework: 'numpy', display: 'np.where', callOnly: true },
  { api: 'jax.numpy.where', kind: 'fill', form: 'function', framework: 'jax', display: 'jnp.where', callOnly: true },
  { api: 'tensorflow.where', kind: 'fill', form: 'function', framework: 'tf', display: 'tf.where', callOnly: true },
  { api: 'jax.lax.select', kind: 'fill', form: 'function', framework: 'jax', display: 'jax.lax.select', callOnly: true },
  // CNTK: element_select(flag, value_if_true, value_if_false), the library's where.
  { api: 'cntk.element_select', kind: 'fill', form: 'function', framework: 'user', display: 'C.element_select' },
  { api: 'cntk.ops.element_select', kind: 'fill', form: 'function', framework: 'user', display: 'C.element_select' },

  // ---------------------------------------------------------------------------------------------- mask builders
  { api: 'torch.tril', kind: 'mask-builder', form: 'function', framework: 'torch', display: 'torch.tril', callOnly: true },
  { api: 'torch.triu', kind: 'mask-builder', form: 'function', framework: 'torch', display: 'torch.triu', callOnly: true },
  { api: 'numpy.tril', kind: 'mask-builder', form: 'function', framework: 'numpy', display: 'np.tril', callOnly: true },
  { api: 'numpy.triu', kind: 'mask-builder', form: 'function', framework: 'numpy', display: 'np.triu', callOnly: true },
  { api: 'jax.numpy.tril', kind: 'mask-builder', form: 'function', framework: 'jax', display: 'jnp.tril', callOnly: true },
  { api: 'jax.numpy.triu', kind: 'mask-builder', form: 'function', framework: 'jax', display: 'jnp.triu', callOnly: true },
  { api: 'tensorflow.linalg.band_part', kind: 'mask-builder', form: 'function', framework: 'tf', display: 'tf.linalg.band_part' },
  { api: 'tensorflow.sequence_mask', kind: 'mask-builder', form: 'function', framework: 'tf', display: 'tf.sequence_mask' },
  { api: 'flax.linen.make_attention_mask', kind: 'mask-builder', form: 'function', framework: 'jax', display: 'nn.make_attention_mask' },
  { api: 'flax.linen.make_causal_mask', kind: 'mask-builder', form: 'function', framework: 'jax', display: 'nn.make_causal_mask' },
  // transformers.modeling_attn_mask_utils: a (B, S) attention_mask (1 = attend) expanded to the additive 4-D mask.
  ...[
    '_prepare_4d_attention_mask',
    '_prepare_4d_attention_mask_for_sdpa',
    '_prepare_4d_causal_attention_mask',
    '_prepare_4d_causal_attention_mask_for_sdpa',
  ].map((name): ApiRow => ({
    api: `transformers.modeling_attn_mask_utils.${name}`,
    kind: 'mask-builder',
    form: 'function',
    framework: 'torch',
    display: name,
    callOnly: true,
  })),
  // FlexAttention: create_block_mask(mask_mod, B, H, Q_LEN, KV_LEN, ...) / create_mask(mod_fn, ...), where
  // mask_mod(b, h, q_idx, kv_idx) returns True where the query may attend to the key.
  {
    api: 'torch.nn.attention.flex_attention.create_block_mask',
    kind: 'mask-builder',
    form: 'function',
    framework: 'torch',
    display: 'create_block_mask',
    callOnly: true,
  },
  { api: 'torch.nn.attention.flex_attention.create_mask', kind: 'mask-builder', form: 'function', framework: 'torch', display: 'create_mask', callOnly: true },
  {
    api: 'torch.nn.Transformer.generate_square_subsequent_mask',
    kind: 'mask-builder',
    form: 'function',
    framework: 'torch',
    display: 'nn.Transformer.generate_square_subsequent_mask',
  },
];

/** The last part of a row's name (`scaled_dot_product_attention`, `masked_fill`, `MultiheadAttention`). */
export function lastName(row: ApiRow): string {
  const i = row.api.lastIndexOf('.');
  return i < 0 ? row.api : row.api.slice(i + 1);
}
