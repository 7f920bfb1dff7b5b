// What the libraries do: the API knowledge table. Pure data keyed by canonical qualified names
// ('torch.nn.functional.softmax'), read by the evaluator and quoted in messages.

export type Framework = 'torch' | 'numpy' | 'jax' | 'tf' | 'scipy' | 'user';

export interface SoftmaxApi {
  /** How messages name it. */
  display: string;
  dimParam: string;
  /** Positional index of the dim argument (for layers: in the constructor). */
  dimPos: number;
  /** What happens without a dim: a fixed axis, PyTorch's legacy implicit choice, or all elements. */
  defaultDim: number | 'implicit' | 'all';
  framework: Framework;
}

export const SOFTMAX_FUNCTIONS: Readonly<Record<string, SoftmaxApi>> = {
  'torch.softmax': { display: 'torch.softmax', dimParam: 'dim', dimPos: 1, defaultDim: 'implicit', framework: 'torch' },
  'torch.nn.functional.softmax': { display: 'F.softmax', dimParam: 'dim', dimPos: 1, defaultDim: 'implicit', framework: 'torch' },
  'torch.special.softmax': { display: 'torch.special.softmax', dimParam: 'dim', dimPos: 1, defaultDim: 'implicit', framework: 'torch' },
  'scipy.special.softmax': { display: 'scipy.special.softmax', dimParam: 'axis', dimPos: 1, defaultDim: 'all', framework: 'scipy' },
  'jax.nn.softmax': { display: 'jax.nn.softmax', dimParam: 'axis', dimPos: 1, defaultDim: -1, framework: 'jax' },
  'flax.linen.softmax': { display: 'nn.softmax', dimParam: 'axis', dimPos: 1, defaultDim: -1, framework: 'jax' },
  'tensorflow.nn.softmax': { display: 'tf.nn.softmax', dimParam: 'axis', dimPos: 1, defaultDim: -1, framework: 'tf' },
  'tensorflow.math.softmax': { display: 'tf.math.softmax', dimParam: 'axis', dimPos: 1, defaultDim: -1, framework: 'tf' },
  'keras.activations.softmax': { display: 'keras.activations.softmax', dimParam: 'axis', dimPos: 1, defaultDim: -1, framework: 'tf' },
  'keras.ops.softmax': { display: 'keras.ops.softmax', dimParam: 'axis', dimPos: 1, defaultDim: -1, framework: 'tf' },
  'keras.backend.softmax': { display: 'K.softmax', dimParam: 'axis', dimPos: 1, defaultDim: -1, framework: 'tf' },
};

export const SOFTMAX_METHOD: SoftmaxApi = { display: 'Tensor.softmax', dimParam: 'dim', dimPos: 0, defaultDim: 'implicit', framework: 'torch' };

export const SOFTMAX_LAYERS: Readonly<Record<string, SoftmaxApi>> = {
  'torch.nn.Softmax': { display: 'nn.Softmax', dimParam: 'dim', dimPos: 0, defaultDim: 'implicit', framework: 'torch' },
  'keras.layers.Softmax': { display: 'keras.layers.Softmax', dimParam: 'axis', dimPos: 0, defaultDim: -1, framework: 'tf' },
};

/** PyTorch's legacy implicit softmax dim (torch.nn.functional._get_softmax_dim). */
export function torchImplicitSoftmaxDim(ndim: number): number {
  return ndim === 0 || ndim === 1 || ndim === 3 ? 0 : 1;
}

// ------------------------------------------------------------------------------------------------ masks

export type Polarity = 'keep' | 'ignore';

export interface MaskParam {
  name: string;
  /** Positional index in the call (for layers: in forward/call). */
  pos?: number;
  /** What True means for this parameter: 'keep' = may attend, 'ignore' = masked out. */
  expects: Polarity;
}

export interface MaskConsumer {
  display: string;
  params: MaskParam[];
}

const MHA_PARAMS: MaskParam[] = [
  { name: 'key_padding_mask', pos: 3, expects: 'ignore' },
  { name: 'attn_mask', pos: 5, expects: 'ignore' },
];

/** Functions whose mask arguments have a fixed meaning. */
export const MASK_FUNCTIONS: Readonly<Record<string, MaskConsumer>> = {
  'torch.nn.functional.scaled_dot_product_attention': { display: 'F.scaled_dot_product_attention', params: [{ name: 'attn_mask', pos: 3, expects: 'keep' }] },
  'torch.nn.functional.multi_head_attention_forward': {
    display: 'F.multi_head_attention_forward',
    params: [
      { name: 'key_padding_mask', pos: 14, expects: 'ignore' },
      { name: 'attn_mask', pos: 16, expects: 'ignore' },
    ],
  },
  'jax.nn.dot_product_attention': { display: 'jax.nn.dot_product_attention', params: [{ name: 'mask', pos: 4, expects: 'keep' }] },
  'flax.linen.dot_product_attention': { display: 'nn.dot_product_attention', params: [{ name: 'mask', pos: 4, expects: 'keep' }] },
  'flax.linen.attention.dot_product_attention': { display: 'dot_product_attention', params: [{ name: 'mask', pos: 4, expects: 'keep' }] },
};

/** Layers (called as modules) whose forward/call mask arguments have a fixed meaning. */
export const MASK_LAYERS: Readonly<Record<string, MaskConsumer>> = {
  'torch.nn.MultiheadAttention': { display: 'nn.MultiheadAttention', params: MHA_PARAMS },
  'torch.nn.TransformerEncoderLayer': {
    display: 'nn.TransformerEncoderLayer',
    params: [
      { name: 'src_mask', pos: 1, expects: 'ignore' },
      { name: 'src_key_padding_mask', pos: 2, expects: 'ignore' },
    ],
  },
  'torch.nn.TransformerEncoder': {
    display: 'nn.TransformerEncoder',
    params: [
      { name: 'mask', pos: 1, expects: 'ignore' },
      { name: 'src_key_padding_mask', pos: 2, expects: 'ignore' },
    ],
  },
  'torch.nn.TransformerDecoderLayer': {
    display: 'nn.TransformerDecoderLayer',
    params: [
      { name: 'tgt_mask', pos: 2, expects: 'ignore' },
      { name: 'memory_mask', pos: 3, expects: 'ignore' },
      { name: 'tgt_key_padding_mask', pos: 4, expects: 'ignore' },
      { name: 'memory_key_padding_mask', pos: 5, expects: 'ignore' },
    ],
  },
  'torch.nn.TransformerDecoder': {
    display: 'nn.TransformerDecoder',
    params: [
      { name: 'tgt_mask', pos: 2, expects: 'ignore' },
      { name: 'memory_mask', pos: 3, expects: 'ignore' },
      { name: 'tgt_key_padding_mask', pos: 4, expects: 'ignore' },
      { name: 'memory_key_padding_mask', pos: 5, expects: 'ignore' },
    ],
  },
  'torch.nn.Transformer': {
    display: 'nn.Transformer',
    params: [
      { name: 'src_mask', pos: 2, expects: 'ignore' },
      { name: 'tgt_mask', pos: 3, expects: 'ignore' },
      { name: 'memory_mask', pos: 4, expects: 'ignore' },
      { name: 'src_key_padding_mask', pos: 5, expects: 'ignore' },
      { name: 'tgt_key_padding_mask', pos: 6, expects: 'ignore' },
      { name: 'memory_key_padding_mask', pos: 7, expects: 'ignore' },
    ],
  },
  'flax.linen.MultiHeadDotProductAttention': { display: 'nn.MultiHeadDotProductAttention', params: [{ name: 'mask', expects: 'keep' }] },
  'flax.linen.MultiHeadAttention': { display: 'nn.MultiHeadAttention', params: [{ name: 'mask', expects: 'keep' }] },
  'flax.linen.SelfAttention': { display: 'nn.SelfAttention', params: [{ name: 'mask', pos: 1, expects: 'keep' }] },
  'keras.layers.MultiHeadAttention': { display: 'keras.layers.MultiHeadAttention', params: [{ name: 'attention_mask', expects: 'keep' }] },
};

/** Keyword names that mean "True = ignore" whoever receives them (PyTorch's naming, used by fairseq and others). */
export const IGNORE_MASK_KEYWORDS: ReadonlySet<string> = new Set(['key_padding_mask', 'src_key_padding_mask', 'tgt_key_padding_mask', 'memory_key_padding_mask']);

// ------------------------------------------------------------------------------------------------ layers

/** Layers that keep their input's shape and attention facts (dropout, norms, activations). */
export const PASS_THROUGH_LAYERS: ReadonlySet<string> = new Set([
  'torch.nn.Dropout',
  'torch.nn.Identity',
  'keras.layers.Dropout',
  'flax.linen.Dropout',
]);

/** Layers that keep the shape but change values (facts about scale/masks no longer hold). */
export const SHAPE_KEEPING_LAYERS: ReadonlySet<string> = new Set([
  'torch.nn.LayerNorm',
  'torch.nn.RMSNorm',
  'torch.nn.GELU',
  'torch.nn.ReLU',
  'torch.nn.SiLU',
  'torch.nn.Tanh',
  'torch.nn.Sigmoid',
  'torch.nn.LeakyReLU',
  'torch.nn.PReLU',
  'torch.nn.ELU',
  'torch.nn.SELU',
  'torch.nn.CELU',
  'torch.nn.Mish',
  'torch.nn.Softplus',
  'torch.nn.Hardswish',
  'torch.nn.ReLU6',
  'torch.nn.Hardtanh',
  'torch.nn.Tanhshrink',
  'torch.nn.InstanceNorm1d',
  'torch.nn.BatchNorm3d',
  'torch.nn.GroupNorm',
  'torch.nn.BatchNorm1d',
  'torch.nn.BatchNorm2d',
  'keras.layers.LayerNormalization',
  'flax.linen.LayerNorm',
]);

export const LINEAR_LAYERS: Readonly<Record<string, { outParam: string; outPos: number; inParam?: string; inPos?: number }>> = {
  'torch.nn.Linear': { outParam: 'out_features', outPos: 1, inParam: 'in_features', inPos: 0 },
  'torch.nn.LazyLinear': { outParam: 'out_features', outPos: 0 },
  'keras.layers.Dense': { outParam: 'units', outPos: 0 },
  'flax.linen.Dense': { outParam: 'features', outPos: 0 },
  'flax.linen.DenseGeneral': { outParam: 'features', outPos: 0 },
};

export const CONV_LAYERS: Readonly<Record<string, { outParam: string; outPos: number }>> = {
  'torch.nn.Conv1d': { outParam: 'out_channels', outPos: 1 },
  'torch.nn.Conv2d': { outParam: 'out_channels', outPos: 1 },
  'torch.nn.Conv3d': { outParam: 'out_channels', outPos: 1 },
};

/**
 * Fused attention kernels that apply their own default 1/sqrt(d) unless a scale is passed. `maskParam` absent:
 * the kernel takes no mask tensor. `causalParam` only where the causal flag is top-left aligned (SDPA); flash-attn's
 * `causal` is bottom-right aligned since 2.1, so it is not a KV-cache pitfall there.
 */
export const SDPA_FUNCTIONS: Readonly<Record<string, { display: string; maskParam?: string; maskPos?: number; causalParam?: string; scaleParam?: string; scalePos?: number; framework: Framework }>> = {
  'torch.nn.functional.scaled_dot_product_attention': { display: 'F.scaled_dot_product_attention', maskParam: 'attn_mask', maskPos: 3, causalParam: 'is_causal', scaleParam: 'scale', scalePos: 6, framework: 'torch' },
  'jax.nn.dot_product_attention': { display: 'jax.nn.dot_product_attention', maskParam: 'mask', maskPos: 4, causalParam: 'is_causal', scaleParam: 'scale', framework: 'jax' },
  // flash_attn_func(q, k, v, dropout_p=0.0, softmax_scale=None, causal=False, ...), q/k/v (B, S, H, D)
  'flash_attn.flash_attn_func': { display: 'flash_attn_func', scaleParam: 'softmax_scale', scalePos: 4, framework: 'torch' },
  'flash_attn.flash_attn_interface.flash_attn_func': { display: 'flash_attn_func', scaleParam: 'softmax_scale', scalePos: 4, framework: 'torch' },
  // flash_attn_varlen_func(q, k, v, cu_seqlens_q, cu_seqlens_k, max_seqlen_q, max_seqlen_k, dropout_p=0.0, softmax_scale=None, ...)
  'flash_attn.flash_attn_varlen_func': { display: 'flash_attn_varlen_func', scaleParam: 'softmax_scale', scalePos: 8, framework: 'torch' },
  'flash_attn.flash_attn_interface.flash_attn_varlen_func': { display: 'flash_attn_varlen_func', scaleParam: 'softmax_scale', scalePos: 8, framework: 'torch' },
  // flash_attn_with_kvcache(q, k_cache, v_cache, k=None, v=None, ..., softmax_scale=None, causal=False, ...): keyword only here
  'flash_attn.flash_attn_with_kvcache': { display: 'flash_attn_with_kvcache', scaleParam: 'softmax_scale', framework: 'torch' },
  'flash_attn.flash_attn_interface.flash_attn_with_kvcache': { display: 'flash_attn_with_kvcache', scaleParam: 'softmax_scale', framework: 'torch' },
  // memory_efficient_attention(query, key, value, attn_bias=None, p=0.0, scale=None, ...), (B, M, H, K); default scale 1/sqrt(K);
  // attn_bias is additive (or a mask object such as LowerTriangularMask), so it has no boolean polarity.
  'xformers.ops.memory_efficient_attention': { display: 'xformers memory_efficient_attention', scaleParam: 'scale', scalePos: 5, framework: 'torch' },
  'xformers.ops.fmha.memory_efficient_attention': { display: 'xformers memory_efficient_attention', scaleParam: 'scale', scalePos: 5, framework: 'torch' },
};

const canonicalCache = new Map<string, string>();

/** Aliases folded into one canonical prefix. */
export function canonicalQualifiedName(q: string): string {
  let hit = canonicalCache.get(q);
  if (hit === undefined) {
    hit = canonicalUncached(q);
    if (canonicalCache.size > 20_000) canonicalCache.clear();
    canonicalCache.set(q, hit);
  }
  return hit;
}

function canonicalUncached(q: string): string {
  let s = q;
  s = s.replace(/^tensorflow\.compat\.v[12]\./, 'tensorflow.');
  s = s.replace(/^tensorflow\.python\.keras\./, 'keras.');
  s = s.replace(/^tensorflow\.keras\./, 'keras.');
  s = s.replace(/^tf_keras\./, 'keras.');
  s = s.replace(/^keras\.src\./, 'keras.');
  s = s.replace(/^keras\.layers\.[a-z_]+\.(?=[A-Z])/, 'keras.layers.');
  s = s.replace(/^torch\.nn\.modules\.[a-z_]+\./, 'torch.nn.');
  s = s.replace(/^torch\.functional\./, 'torch.');
  s = s.replace(/^flax\.linen\.(activation|attention|linear|normalization|stochastic)\.(?=[a-zA-Z])/, 'flax.linen.');
  s = s.replace(/^jax\.numpy\./, 'jax.numpy.');
  s = s.replace(/^jax\._src\.nn\.functions\./, 'jax.nn.');
  s = s.replace(/^numpy\./, 'numpy.');
  s = s.replace(/^torch\.Tensor$/, 'torch.Tensor');
  return s;
}

/** Short display form of a qualified name for messages. */
export function displayName(q: string): string {
  return q
    .replace(/^torch\.nn\.functional\./, 'F.')
    .replace(/^torch\.nn\./, 'nn.')
    .replace(/^numpy\./, 'np.')
    .replace(/^jax\.numpy\./, 'jnp.')
    .replace(/^tensorflow\./, 'tf.')
    .replace(/^flax\.linen\./, 'nn.');
}

export function frameworkOf(q: string): Framework {
  if (q.startsWith('torch')) return 'torch';
  if (q.startsWith('numpy')) return 'numpy';
  if (q.startsWith('jax') || q.startsWith('flax')) return 'jax';
  if (q.startsWith('tensorflow') || q.startsWith('keras')) return 'tf';
  if (q.startsWith('scipy')) return 'scipy';
  return 'user';
}
