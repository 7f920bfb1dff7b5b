// What the libraries do, as lookup records keyed by canonical qualified names ('torch.nn.functional.softmax'),
// read by the evaluator and quoted in messages. The softmax, mask-consumer and kernel records are built from the
// one API table (api-table.ts), which also generates the keyword prefilters (prefilters.ts).
import { API_TABLE, type ApiRow } from './api-table';

export type Framework = 'torch' | 'numpy' | 'jax' | 'tf' | 'scipy' | 'user';

export interface SoftmaxApi {
  /** How messages name it. */
  display: string;
  dimParam: string;
  /** An older keyword for the same parameter (TF 1's `tf.nn.softmax(logits, dim=1)`, deprecated for `axis`). */
  dimAlias?: string;
  /** Positional index of the dim argument (for layers: in the constructor). */
  dimPos: number;
  /** What happens without a dim: a fixed axis, PyTorch's legacy implicit choice, or all elements. */
  defaultDim: number | 'implicit' | 'all';
  framework: Framework;
}

/** One record per row of `kind` and `form`, keyed by the row's qualified name. */
function recordsOf<T>(select: (row: ApiRow) => boolean, value: (row: ApiRow) => T | undefined): Readonly<Record<string, T>> {
  const out: Record<string, T> = {};
  for (const row of API_TABLE) {
    if (!select(row)) continue;
    const v = value(row);
    if (v !== undefined) out[row.api] = v;
  }
  return out;
}

const softmaxOf = (row: ApiRow): SoftmaxApi | undefined => (row.softmax ? { display: row.display, framework: row.framework, ...row.softmax } : undefined);

export const SOFTMAX_FUNCTIONS: Readonly<Record<string, SoftmaxApi>> = recordsOf((r) => r.kind === 'softmax' && r.form === 'function', softmaxOf);

export const SOFTMAX_METHOD: SoftmaxApi = softmaxOf(API_TABLE.find((r) => r.kind === 'softmax' && r.form === 'method')!)!;

export const SOFTMAX_LAYERS: Readonly<Record<string, SoftmaxApi>> = recordsOf((r) => r.kind === 'softmax' && r.form === 'layer', softmaxOf);

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
  /** A float mask is accepted and added to the scores (PyTorch); false: boolean (or 0/1) masks only (JAX, Keras). */
  additive: boolean;
  /** The argument is a list of masks, each in this convention (Keras `Attention`: `mask=[query_mask, value_mask]`). */
  list?: boolean;
}

export interface MaskConsumer {
  display: string;
  params: MaskParam[];
}

const consumerOf = (row: ApiRow): MaskConsumer | undefined => (row.masks ? { display: row.display, params: [...row.masks] } : undefined);

/** Functions whose mask arguments have a fixed meaning. */
export const MASK_FUNCTIONS: Readonly<Record<string, MaskConsumer>> = recordsOf((r) => r.form === 'function', consumerOf);

/** Layers (called as modules) whose forward/call mask arguments have a fixed meaning. */
export const MASK_LAYERS: Readonly<Record<string, MaskConsumer>> = recordsOf((r) => r.form === 'layer', consumerOf);

// ------------------------------------------------------------------------------------------------ layers

/** Layers that keep their input's shape and attention facts (dropout, norms, activations). */
export const PASS_THROUGH_LAYERS: ReadonlySet<string> = new Set(['torch.nn.Dropout', 'torch.nn.Identity', 'keras.layers.Dropout', 'flax.linen.Dropout']);

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

/**
 * Embedding tables: token ids in, floating-point vectors out (whatever the ids' dtype). Keras' Embedding with
 * `mask_zero=True` also computes a mask, True at the ids that are not 0 (`compute_mask(ids)`; the layer's output
 * carries it to the Keras layers that take masks).
 */
export const EMBEDDING_LAYERS: ReadonlySet<string> = new Set(['torch.nn.Embedding', 'keras.layers.Embedding', 'flax.linen.Embed']);

export const LINEAR_LAYERS: Readonly<Record<string, { outParam: string; outPos: number; inParam?: string; inPos?: number }>> = {
  'torch.nn.Linear': { outParam: 'out_features', outPos: 1, inParam: 'in_features', inPos: 0 },
  'torch.nn.LazyLinear': { outParam: 'out_features', outPos: 0 },
  'keras.layers.Dense': { outParam: 'units', outPos: 0 },
  'flax.linen.Dense': { outParam: 'features', outPos: 0 },
  'flax.linen.DenseGeneral': { outParam: 'features', outPos: 0 },
};

/**
 * Recurrent layers and what they return. torch: `(output, h_n)`, an LSTM `(output, (h_n, c_n))`; `batch_first` is the
 * fifth positional parameter. Keras: the output alone, or `[output, *states]` with `return_state=True`.
 */
export const RECURRENT_LAYERS: Readonly<Record<string, { framework: 'torch' | 'keras'; cellState: boolean }>> = {
  'torch.nn.LSTM': { framework: 'torch', cellState: true },
  'torch.nn.GRU': { framework: 'torch', cellState: false },
  'torch.nn.RNN': { framework: 'torch', cellState: false },
  'keras.layers.LSTM': { framework: 'keras', cellState: true },
  'keras.layers.GRU': { framework: 'keras', cellState: false },
  'keras.layers.SimpleRNN': { framework: 'keras', cellState: false },
};

export const CONV_LAYERS: Readonly<Record<string, { outParam: string; outPos: number; channelsLast?: true }>> = {
  'torch.nn.Conv1d': { outParam: 'out_channels', outPos: 1 },
  'torch.nn.Conv2d': { outParam: 'out_channels', outPos: 1 },
  'torch.nn.Conv3d': { outParam: 'out_channels', outPos: 1 },
  // Flax's convolution keeps the features on the last axis (NWC, NHWC).
  'flax.linen.Conv': { outParam: 'features', outPos: 0, channelsLast: true },
};

/**
 * Fused attention kernels that apply their own default 1/sqrt(d) unless a scale is passed. `maskParam` absent:
 * the kernel takes no mask tensor. `causalParam` only where the causal flag is top-left aligned (SDPA).
 */
export const SDPA_FUNCTIONS: Readonly<
  Record<string, { display: string; maskParam?: string; maskPos?: number; causalParam?: string; scaleParam?: string; scalePos?: number; framework: Framework }>
> = recordsOf(
  (r) => r.kind === 'kernel' && r.kernel !== undefined,
  (r) => ({ display: r.display, ...r.kernel, framework: r.framework }),
);

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
  // MLX's array functions follow NumPy's (`tril(x, k)`, `where`, `concatenate(axis=)`, `matmul`, `ones(shape)`, with
  // NumPy's defaults); its softmax has an entry of its own (over every axis unless one is given).
  s = s.replace(/^mlx\.core\.(?!softmax$)/, 'numpy.');
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
