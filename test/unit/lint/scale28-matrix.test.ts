// ATT003/ATT004 over a generated matrix of how attention code gets its scale, written from what the APIs mean:
// where the per-head width comes from (a literal, a config's fields, `C // n_head` in forward, `k.size(-1)` after the
// head split, `d_model // h` in __init__, a config module in another file, a constructor call in a model file, a
// config whose `head_dim` is not `hidden_size // heads`) × the form the scale takes (`/ math.sqrt(d)`, `* d ** -0.5`,
// `/ d ** 0.5`, `torch.rsqrt`, `np.sqrt`, SDPA's `scale=`, folded into q, q and k each by `d ** -0.25`, `self.scale`
// set in __init__, a temperature module bound by its caller, `softmax(scores / self.temperature)`) × the variant
// (correct; the model width instead of the head width; d instead of sqrt(d); sqrt(d) twice; the scale after
// softmax; no scale at all). The correct variant must be silent for both rules; each buggy variant must be reported
// once, by the right rule, and not by the other. Then written cells: Keras, JAX and NumPy forms, and the correct
// look-alikes (learned temperature, cosine attention with a learned logit scale, linear attention, additive
// attention, ALiBi added after scaling, `.contiguous().reshape(...)` head splits) with their buggy twins.
// `TODAY` lists the buggy cells the linter decides wrongly today (the class and the reason with each).
import { strict as assert } from 'node:assert';
import { createLinter, type ExtendedLinter, type Finding } from '../../../src/lint';
import { grammar, linter } from './helpers';

type Variant = 'correct' | 'model' | 'nosqrt' | 'twice' | 'after' | 'missing';
type Expect = 'none' | 'ATT003' | 'ATT004';

const EXPECT: Record<Variant, Expect> = {
  correct: 'none',
  model: 'ATT004',
  nosqrt: 'ATT004',
  twice: 'ATT004',
  after: 'ATT004',
  missing: 'ATT003',
};

/** Where the per-head width comes from: the attention module's constructor, its head split and the widths' texts. */
interface Width {
  readonly id: string;
  /** The constructor's parameters after `self`. */
  readonly params: string;
  /** Constructor lines (indented 8) that define the heads and the projections q_proj, k_proj, v_proj. */
  readonly init: readonly string[];
  /** Forward lines (indented 8) from `x` to q, k, v of shape (B, H, T, head_dim). */
  readonly split: readonly string[];
  /** The head width as forward can read it, and as the constructor can (undefined: only forward can). */
  readonly headFwd: string;
  readonly headInit?: string;
  /** The model width (what the projections take in), in forward and in the constructor. */
  readonly modelFwd: string;
  readonly modelInit: string;
  /** Other files of the workspace (the module's file is `attention.py`). */
  readonly files?: Record<string, string>;
}

const SPLIT_QKV = (proj: (p: string) => string, heads: string, head: string): string[] =>
  ['q', 'k', 'v'].map((t) => `        ${t} = self.${proj(t)}(x).view(B, T, ${heads}, ${head}).transpose(1, 2)`);

const WIDTHS: readonly Width[] = [
  {
    id: 'literal',
    params: '',
    init: ['self.q_proj = nn.Linear(512, 512)', 'self.k_proj = nn.Linear(512, 512)', 'self.v_proj = nn.Linear(512, 512)'].map((l) => `        ${l}`),
    split: SPLIT_QKV((t) => `${t}_proj`, '8', '64'),
    headFwd: '64',
    headInit: '64',
    modelFwd: '512',
    modelInit: '512',
  },
  {
    id: 'config_head_dim',
    params: ', config',
    init: [
      'self.num_heads = config.num_attention_heads',
      'self.head_dim = config.head_dim',
      'self.hidden_size = config.hidden_size',
      'self.q_proj = nn.Linear(config.hidden_size, self.num_heads * self.head_dim)',
      'self.k_proj = nn.Linear(config.hidden_size, self.num_heads * self.head_dim)',
      'self.v_proj = nn.Linear(config.hidden_size, self.num_heads * self.head_dim)',
    ].map((l) => `        ${l}`),
    split: SPLIT_QKV((t) => `${t}_proj`, 'self.num_heads', 'self.head_dim'),
    headFwd: 'self.head_dim',
    headInit: 'self.head_dim',
    modelFwd: 'self.hidden_size',
    modelInit: 'config.hidden_size',
  },
  {
    id: 'config_hidden_over_heads',
    params: ', config',
    init: [
      'self.num_heads = config.num_attention_heads',
      'self.head_dim = config.hidden_size // config.num_attention_heads',
      'self.hidden_size = config.hidden_size',
      'self.q_proj = nn.Linear(config.hidden_size, config.hidden_size)',
      'self.k_proj = nn.Linear(config.hidden_size, config.hidden_size)',
      'self.v_proj = nn.Linear(config.hidden_size, config.hidden_size)',
    ].map((l) => `        ${l}`),
    split: SPLIT_QKV((t) => `${t}_proj`, 'self.num_heads', 'self.head_dim'),
    headFwd: 'self.head_dim',
    headInit: 'self.head_dim',
    modelFwd: 'self.hidden_size',
    modelInit: 'config.hidden_size',
  },
  {
    id: 'C_over_n_head_in_forward',
    params: ', n_embd, n_head',
    init: ['self.n_head = n_head', 'self.c_attn = nn.Linear(n_embd, 3 * n_embd)'].map((l) => `        ${l}`),
    split: [
      '        q, k, v = self.c_attn(x).split(C, dim=2)',
      ...['q', 'k', 'v'].map((t) => `        ${t} = ${t}.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)`),
    ],
    headFwd: '(C // self.n_head)',
    headInit: '(n_embd // n_head)',
    modelFwd: 'C',
    modelInit: 'n_embd',
  },
  {
    id: 'k_size_after_split',
    params: ', n_embd, n_head',
    init: ['self.n_head = n_head', 'self.c_attn = nn.Linear(n_embd, 3 * n_embd)'].map((l) => `        ${l}`),
    split: [
      '        q, k, v = self.c_attn(x).split(C, dim=2)',
      ...['q', 'k', 'v'].map((t) => `        ${t} = ${t}.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)`),
    ],
    headFwd: 'k.size(-1)',
    modelFwd: 'C',
    modelInit: 'n_embd',
  },
  {
    id: 'q_shape_after_split',
    params: ', dim, num_heads=8',
    init: ['self.num_heads = num_heads', 'self.qkv = nn.Linear(dim, dim * 3)'].map((l) => `        ${l}`),
    split: [
      '        qkv = self.qkv(x).reshape(B, T, 3, self.num_heads, C // self.num_heads).permute(2, 0, 3, 1, 4)',
      '        q, k, v = qkv[0], qkv[1], qkv[2]',
    ],
    headFwd: 'q.shape[-1]',
    modelFwd: 'C',
    modelInit: 'dim',
  },
  {
    id: 'd_model_over_h_in_init',
    params: ', h, d_model',
    init: [
      'self.d_k = d_model // h',
      'self.h = h',
      'self.d_model = d_model',
      'self.q_proj = nn.Linear(d_model, d_model)',
      'self.k_proj = nn.Linear(d_model, d_model)',
      'self.v_proj = nn.Linear(d_model, d_model)',
    ].map((l) => `        ${l}`),
    split: ['q', 'k', 'v'].map((t) => `        ${t} = self.${t}_proj(x).view(B, -1, self.h, self.d_k).transpose(1, 2)`),
    headFwd: 'self.d_k',
    headInit: 'self.d_k',
    modelFwd: 'self.d_model',
    modelInit: 'd_model',
  },
  {
    id: 'config_module_file',
    params: ', config: GPTConfig',
    init: [
      'self.n_head = config.n_head',
      'self.n_embd = config.n_embd',
      'self.head_dim = config.n_embd // config.n_head',
      'self.q_proj = nn.Linear(config.n_embd, config.n_embd)',
      'self.k_proj = nn.Linear(config.n_embd, config.n_embd)',
      'self.v_proj = nn.Linear(config.n_embd, config.n_embd)',
    ].map((l) => `        ${l}`),
    split: SPLIT_QKV((t) => `${t}_proj`, 'self.n_head', 'self.head_dim'),
    headFwd: 'self.head_dim',
    headInit: 'self.head_dim',
    modelFwd: 'self.n_embd',
    modelInit: 'config.n_embd',
    files: {
      'config.py': `from dataclasses import dataclass


@dataclass
class GPTConfig:
    block_size: int = 1024
    n_layer: int = 12
    n_head: int = 12
    n_embd: int = 768
`,
    },
  },
  {
    id: 'constructor_call_in_model_file',
    params: ', dim, heads=8, dim_head=64',
    init: [
      'inner_dim = heads * dim_head',
      'self.heads = heads',
      'self.dim_head = dim_head',
      'self.to_q = nn.Linear(dim, inner_dim, bias=False)',
      'self.to_k = nn.Linear(dim, inner_dim, bias=False)',
      'self.to_v = nn.Linear(dim, inner_dim, bias=False)',
    ].map((l) => `        ${l}`),
    split: SPLIT_QKV((t) => `to_${t}`, 'self.heads', 'self.dim_head'),
    headFwd: 'self.dim_head',
    headInit: 'dim_head',
    modelFwd: 'C',
    modelInit: 'dim',
    files: {
      'model.py': `import torch.nn as nn

from attention import SelfAttention


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.norm = nn.LayerNorm(512)
        self.attn = SelfAttention(dim=512, heads=8, dim_head=64)

    def forward(self, x):
        return x + self.attn(self.norm(x))
`,
    },
  },
  {
    id: 'config_head_dim_not_hidden_over_heads',
    params: ', config: ModelConfig',
    init: [
      'self.num_heads = config.num_attention_heads',
      'self.head_dim = config.head_dim',
      'self.q_proj = nn.Linear(config.hidden_size, self.num_heads * self.head_dim, bias=False)',
      'self.k_proj = nn.Linear(config.hidden_size, self.num_heads * self.head_dim, bias=False)',
      'self.v_proj = nn.Linear(config.hidden_size, self.num_heads * self.head_dim, bias=False)',
    ].map((l) => `        ${l}`),
    split: SPLIT_QKV((t) => `${t}_proj`, 'self.num_heads', 'self.head_dim'),
    headFwd: 'self.head_dim',
    headInit: 'config.head_dim',
    modelFwd: 'C',
    modelInit: 'config.hidden_size',
    files: {
      'config.py': `from dataclasses import dataclass


@dataclass
class ModelConfig:
    hidden_size: int = 2048
    num_attention_heads: int = 8
    head_dim: int = 256
    num_hidden_layers: int = 18
`,
    },
  },
];

/** How the scale is written: constructor lines, forward lines from q, k, v (B, H, T, hd) to `y`, per variant. */
interface Body {
  readonly init?: readonly string[];
  readonly fwd: readonly string[];
  /** A module class of its own the attention uses (written before it). */
  readonly helper?: string;
}

interface Form {
  readonly id: string;
  readonly imports?: string;
  /** The body for each variant it has, given the width `d` and `di` (the same width as the constructor reads it). */
  readonly body: (v: Variant, d: string, di: string | undefined) => Body | undefined;
  /** Needs the width in the constructor. */
  readonly needsInit?: boolean;
}

const SCORES = 'q @ k.transpose(-2, -1)';
const FOLD_Q = (d: string): string => `        q = q / math.sqrt(${d})`;
const MANUAL = (scores: string, pre: readonly string[] = []): Body => ({
  fwd: [...pre, `        scores = ${scores}`, '        attn = scores.softmax(dim=-1)', '        y = attn @ v'],
});
const AFTER = (weights: (w: string) => string): Body => ({
  fwd: [`        attn = ${weights(`(${SCORES}).softmax(dim=-1)`)}`, '        y = attn @ v'],
});

/** A form that scales the scores by an expression: its correct and its d-instead-of-sqrt(d) texts. */
function scoresForm(id: string, good: (s: string, d: string) => string, nosqrt: (s: string, d: string) => string, imports?: string): Form {
  return {
    id,
    imports,
    body: (v, d) => {
      switch (v) {
        case 'correct':
        case 'model':
          return MANUAL(good(SCORES, d));
        case 'nosqrt':
          return MANUAL(nosqrt(SCORES, d));
        case 'twice':
          return MANUAL(good(SCORES, d), [FOLD_Q(d)]);
        case 'after':
          return AFTER((w) => good(w, d));
        case 'missing':
          return undefined;
      }
    },
  };
}

const FORMS: readonly Form[] = [
  scoresForm(
    'div_math_sqrt',
    (s, d) => `${s} / math.sqrt(${d})`,
    (s, d) => `${s} / ${d}`,
  ),
  scoresForm(
    'mul_pow_neg_half',
    (s, d) => `${s} * ${d} ** -0.5`,
    (s, d) => `${s} * ${d} ** -1`,
  ),
  scoresForm(
    'div_pow_half',
    (s, d) => `${s} / ${d} ** 0.5`,
    (s, d) => `${s} / float(${d})`,
  ),
  scoresForm(
    'mul_rsqrt_tensor',
    (s, d) => `${s} * torch.rsqrt(torch.tensor(${d}, dtype=q.dtype))`,
    (s, d) => `${s} / torch.tensor(${d}, dtype=q.dtype)`,
  ),
  scoresForm(
    'div_np_sqrt',
    (s, d) => `${s} / np.sqrt(${d})`,
    (s, d) => `${s} / np.float32(${d})`,
    'import numpy as np\n',
  ),
  {
    id: 'sdpa_scale_kwarg',
    body: (v, d) => {
      const call = (scale: string): string => `        y = F.scaled_dot_product_attention(q, k, v, scale=${scale})`;
      switch (v) {
        case 'correct':
        case 'model':
          return { fwd: [call(`${d} ** -0.5`)] };
        case 'nosqrt':
          return { fwd: [call(`1.0 / ${d}`)] };
        case 'twice':
          return { fwd: [FOLD_Q(d), call(`${d} ** -0.5`)] };
        case 'missing':
          return { fwd: [call('1.0')] };
        case 'after':
          return undefined;
      }
    },
  },
  {
    id: 'sdpa_default',
    body: (v, d) => {
      const call = '        y = F.scaled_dot_product_attention(q, k, v)';
      switch (v) {
        case 'correct':
          return { fwd: [call] };
        case 'twice':
          return { fwd: [FOLD_Q(d), call] };
        default:
          return undefined;
      }
    },
  },
  {
    id: 'folded_into_q',
    body: (v, d) => {
      const rest = [`        attn = (${SCORES}).softmax(dim=-1)`, '        y = attn @ v'];
      switch (v) {
        case 'correct':
        case 'model':
          return { fwd: [`        q = q * ${d} ** -0.5`, ...rest] };
        case 'nosqrt':
          return { fwd: [`        q = q / ${d}`, ...rest] };
        case 'twice':
          return { fwd: [`        q = q * ${d} ** -0.5`, `        attn = (${SCORES} / math.sqrt(${d})).softmax(dim=-1)`, '        y = attn @ v'] };
        default:
          return undefined;
      }
    },
  },
  {
    id: 'q_and_k_quarter',
    body: (v, d) => {
      const rest = [`        attn = (${SCORES}).softmax(dim=-1)`, '        y = attn @ v'];
      switch (v) {
        case 'correct':
        case 'model':
          return { fwd: [`        q = q * ${d} ** -0.25`, `        k = k * ${d} ** -0.25`, ...rest] };
        case 'nosqrt':
          return { fwd: [`        q = q * ${d} ** -0.5`, `        k = k * ${d} ** -0.5`, ...rest] };
        default:
          return undefined;
      }
    },
  },
  {
    id: 'self_scale_in_init',
    needsInit: true,
    body: (v, d, di) => {
      const use = [`        attn = (${SCORES} * self.scale).softmax(dim=-1)`, '        y = attn @ v'];
      switch (v) {
        case 'correct':
        case 'model':
          return { init: [`        self.scale = ${di} ** -0.5`], fwd: use };
        case 'nosqrt':
          return { init: [`        self.scale = 1.0 / ${di}`], fwd: use };
        case 'twice':
          return { init: [`        self.scale = ${di} ** -0.5`], fwd: [FOLD_Q(d), ...use] };
        case 'after':
          return { init: [`        self.scale = ${di} ** -0.5`], fwd: [`        attn = (${SCORES}).softmax(dim=-1) * self.scale`, '        y = attn @ v'] };
        case 'missing':
          return undefined;
      }
    },
  },
  {
    id: 'softmax_over_temperature',
    needsInit: true,
    body: (v, d, di) => {
      const use = [`        attn = F.softmax(${SCORES} / self.temperature, dim=-1)`, '        y = attn @ v'];
      switch (v) {
        case 'correct':
        case 'model':
          return { init: [`        self.temperature = ${di} ** 0.5`], fwd: use };
        case 'nosqrt':
          return { init: [`        self.temperature = ${di}`], fwd: use };
        case 'twice':
          return { init: [`        self.temperature = ${di} ** 0.5`], fwd: [FOLD_Q(d), ...use] };
        case 'after':
          return {
            init: [`        self.temperature = ${di} ** 0.5`],
            fwd: [`        attn = F.softmax(${SCORES}, dim=-1) / self.temperature`, '        y = attn @ v'],
          };
        case 'missing':
          return undefined;
      }
    },
  },
  {
    id: 'temperature_module',
    needsInit: true,
    body: (v, d, di) => {
      const helper = `class ScaledDotProductAttention(nn.Module):
    def __init__(self, temperature, attn_dropout=0.1):
        super().__init__()
        self.temperature = temperature
        self.dropout = nn.Dropout(attn_dropout)

    def forward(self, q, k, v):
        attn = torch.matmul(q / self.temperature, k.transpose(2, 3))
        attn = self.dropout(F.softmax(attn, dim=-1))
        output = torch.matmul(attn, v)
        return output, attn


`;
      const use = ['        y, attn = self.attention(q, k, v)'];
      const init = (t: string): string[] => [`        self.attention = ScaledDotProductAttention(temperature=${t})`];
      switch (v) {
        case 'correct':
        case 'model':
          return { helper, init: init(`${di} ** 0.5`), fwd: use };
        case 'nosqrt':
          return { helper, init: init(`${di}`), fwd: use };
        case 'twice':
          return { helper, init: init(`${di} ** 0.5`), fwd: [FOLD_Q(d), ...use] };
        default:
          return undefined;
      }
    },
  },
];

const MISSING: Form = {
  id: 'no_scale',
  body: (v) => (v === 'missing' ? MANUAL(SCORES) : undefined),
};

interface Cell {
  readonly id: string;
  readonly expect: Expect;
  /** path → text; the findings of every file count. */
  readonly files: Record<string, string>;
}

function program(w: Width, f: Form, variant: Variant): Cell | undefined {
  const d = variant === 'model' ? w.modelFwd : w.headFwd;
  const di = variant === 'model' ? w.modelInit : w.headInit;
  if (f.needsInit && di === undefined) return undefined;
  // With one literal head width and model width the variant that swaps them is the same literal text only when equal.
  const body = f.body(variant, d, di);
  if (!body) return undefined;
  const imports = `import math\n\n${f.imports ?? ''}import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n${
    w.files?.['config.py'] ? `\nfrom config import ${/class (\w+)/.exec(w.files['config.py'])?.[1]}\n` : ''
  }`;
  const text = `${imports}

${body.helper ?? ''}class SelfAttention(nn.Module):
    def __init__(self${w.params}):
        super().__init__()
${[...w.init, ...(body.init ?? [])].join('\n')}

    def forward(self, x):
        B, T, C = x.size()
${[...w.split, ...body.fwd].join('\n')}
        return y.transpose(1, 2).contiguous().view(B, T, -1)
`;
  return { id: `${w.id} × ${f.id} × ${variant}`, expect: EXPECT[variant], files: { ...w.files, 'attention.py': text } };
}

const VARIANTS: readonly Variant[] = ['correct', 'model', 'nosqrt', 'twice', 'after', 'missing'];

function generated(): Cell[] {
  const out: Cell[] = [];
  for (const w of WIDTHS) {
    for (const f of [...FORMS, MISSING]) {
      for (const v of VARIANTS) {
        const c = program(w, f, v);
        if (c) out.push(c);
      }
    }
  }
  return out;
}

const KERAS = (scale: string): string => `import tensorflow as tf
from tensorflow.keras import layers


class MultiHeadSelfAttention(layers.Layer):
    def __init__(self, embed_dim, num_heads=8):
        super().__init__()
        self.embed_dim = embed_dim
        self.num_heads = num_heads
        self.query_dense = layers.Dense(embed_dim)
        self.key_dense = layers.Dense(embed_dim)
        self.value_dense = layers.Dense(embed_dim)
        self.combine_heads = layers.Dense(embed_dim)

    def split_heads(self, x, batch_size):
        x = tf.reshape(x, (batch_size, -1, self.num_heads, x.shape[-1] // self.num_heads))
        return tf.transpose(x, perm=[0, 2, 1, 3])

    def call(self, inputs):
        batch_size = tf.shape(inputs)[0]
        q = self.split_heads(self.query_dense(inputs), batch_size)
        k = self.split_heads(self.key_dense(inputs), batch_size)
        v = self.split_heads(self.value_dense(inputs), batch_size)
        score = tf.matmul(q, k, transpose_b=True)
        dim_key = tf.cast(tf.shape(k)[-1], tf.float32)
        scaled_score = ${scale}
        weights = tf.nn.softmax(scaled_score, axis=-1)
        out = tf.matmul(weights, v)
        out = tf.transpose(out, perm=[0, 2, 1, 3])
        return self.combine_heads(tf.reshape(out, (batch_size, -1, self.embed_dim)))
`;

const FLAX = (scale: string): string => `import jax
import jax.numpy as jnp
import flax.linen as nn


class SelfAttention(nn.Module):
    num_heads: int
    embed_dim: int

    @nn.compact
    def __call__(self, x):
        B, T, C = x.shape
        head_dim = self.embed_dim // self.num_heads
        q = nn.Dense(self.embed_dim)(x).reshape(B, T, self.num_heads, head_dim)
        k = nn.Dense(self.embed_dim)(x).reshape(B, T, self.num_heads, head_dim)
        v = nn.Dense(self.embed_dim)(x).reshape(B, T, self.num_heads, head_dim)
        scores = ${scale}
        weights = jax.nn.softmax(scores, axis=-1)
        out = jnp.einsum("bhqk,bkhd->bqhd", weights, v)
        return nn.Dense(self.embed_dim)(out.reshape(B, T, self.embed_dim))
`;

/** JAX's fused kernel on (B, T, N, H) queries: its default scale is 1/sqrt(H). */
const JAX_KERNEL = (pre: string, call: string): string => `import jax
import jax.numpy as jnp
import flax.linen as nn


class SelfAttention(nn.Module):
    num_heads: int
    embed_dim: int

    @nn.compact
    def __call__(self, x):
        B, T, C = x.shape
        head_dim = self.embed_dim // self.num_heads
        q = nn.Dense(self.embed_dim)(x).reshape(B, T, self.num_heads, head_dim)
        k = nn.Dense(self.embed_dim)(x).reshape(B, T, self.num_heads, head_dim)
        v = nn.Dense(self.embed_dim)(x).reshape(B, T, self.num_heads, head_dim)
${pre}        out = ${call}
        return nn.Dense(self.embed_dim)(out.reshape(B, T, self.embed_dim))
`;

const NUMPY = (scale: string): string => `import numpy as np


def softmax(x, axis=-1):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def attention(q, k, v):
    d_k = q.shape[-1]
    scores = ${scale}
    weights = softmax(scores, axis=-1)
    return weights @ v
`;

const TORCH_HEADER = 'import math\n\nimport torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n\n\n';

/** The head split of `.contiguous().reshape(...)` (a transposed input made contiguous first), scaled by `scale`. */
const CONTIGUOUS = (scale: string, bias = ''): string => `${TORCH_HEADER}class Attention(nn.Module):
    def __init__(self, embed_dim, num_heads, max_len=1024):
        super().__init__()
        self.embed_dim = embed_dim
        self.num_heads = num_heads
        self.head_dim = embed_dim // num_heads
        self.qkv = nn.Linear(embed_dim, 3 * embed_dim)
        self.out = nn.Linear(embed_dim, embed_dim)
        slopes = torch.tensor([2 ** (-8 * (i + 1) / num_heads) for i in range(num_heads)])
        pos = torch.arange(max_len)
        self.register_buffer("alibi", slopes[:, None, None] * (pos[None, None, :] - pos[None, :, None]))

    def forward(self, x):
        x = x.transpose(0, 1)
        B, T, C = x.shape
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        q = q.contiguous().reshape(B, T, self.num_heads, self.head_dim).transpose(1, 2)
        k = k.contiguous().reshape(B, T, self.num_heads, self.head_dim).transpose(1, 2)
        v = v.contiguous().reshape(B, T, self.num_heads, self.head_dim).transpose(1, 2)
        scores = ${scale}${bias}
        attn = scores.softmax(dim=-1)
        y = (attn @ v).transpose(1, 2).contiguous().reshape(B, T, C)
        return self.out(y)
`;

/** Cells written in full: other frameworks and the correct look-alikes with their buggy twins. */
const WRITTEN: readonly Cell[] = [
  { id: 'keras Dense split by reshape(-1) × correct', expect: 'none', files: { 'mhsa.py': KERAS('score / tf.math.sqrt(dim_key)') } },
  {
    id: 'keras Dense split by reshape(-1) × model',
    expect: 'ATT004',
    files: { 'mhsa.py': KERAS('score / tf.math.sqrt(tf.cast(self.embed_dim, tf.float32))') },
  },
  { id: 'keras Dense split by reshape(-1) × nosqrt', expect: 'ATT004', files: { 'mhsa.py': KERAS('score / dim_key') } },
  { id: 'keras Dense split by reshape(-1) × missing', expect: 'ATT003', files: { 'mhsa.py': KERAS('score') } },
  { id: 'flax einsum × correct', expect: 'none', files: { 'attn.py': FLAX('jnp.einsum("bqhd,bkhd->bhqk", q, k) / jnp.sqrt(head_dim)') } },
  { id: 'flax einsum × model', expect: 'ATT004', files: { 'attn.py': FLAX('jnp.einsum("bqhd,bkhd->bhqk", q, k) / jnp.sqrt(self.embed_dim)') } },
  { id: 'flax einsum × nosqrt', expect: 'ATT004', files: { 'attn.py': FLAX('jnp.einsum("bqhd,bkhd->bhqk", q, k) / head_dim') } },
  { id: 'flax einsum × missing', expect: 'ATT003', files: { 'attn.py': FLAX('jnp.einsum("bqhd,bkhd->bhqk", q, k)') } },
  {
    id: 'flax einsum × twice',
    expect: 'ATT004',
    files: { 'attn.py': FLAX('jnp.einsum("bqhd,bkhd->bhqk", q / jnp.sqrt(head_dim), k) / jnp.sqrt(head_dim)') },
  },
  {
    id: 'flax einsum × after',
    expect: 'ATT004',
    files: {
      'attn.py': FLAX('jnp.einsum("bqhd,bkhd->bhqk", q, k)').replace(
        'weights = jax.nn.softmax(scores, axis=-1)',
        'weights = jax.nn.softmax(scores, axis=-1) / jnp.sqrt(head_dim)',
      ),
    },
  },
  {
    id: 'keras Dense split by reshape(-1) × twice',
    expect: 'ATT004',
    files: {
      'mhsa.py': KERAS('score / tf.math.sqrt(dim_key)').replace(
        'score = tf.matmul(q, k, transpose_b=True)',
        'score = tf.matmul(q / tf.math.sqrt(tf.cast(tf.shape(q)[-1], tf.float32)), k, transpose_b=True)',
      ),
    },
  },
  {
    id: 'keras Dense split by reshape(-1) × after',
    expect: 'ATT004',
    files: {
      'mhsa.py': KERAS('score').replace(
        'weights = tf.nn.softmax(scaled_score, axis=-1)',
        'weights = tf.nn.softmax(scaled_score, axis=-1) / tf.math.sqrt(dim_key)',
      ),
    },
  },
  { id: 'jax.nn.dot_product_attention × correct (default)', expect: 'none', files: { 'attn.py': JAX_KERNEL('', 'jax.nn.dot_product_attention(q, k, v)') } },
  {
    id: 'jax.nn.dot_product_attention × correct (scale=)',
    expect: 'none',
    files: { 'attn.py': JAX_KERNEL('', 'jax.nn.dot_product_attention(q, k, v, scale=head_dim ** -0.5)') },
  },
  {
    id: 'jax.nn.dot_product_attention × twice (pre-scaled q, default scale)',
    expect: 'ATT004',
    files: { 'attn.py': JAX_KERNEL('        q = q * head_dim ** -0.5\n', 'jax.nn.dot_product_attention(q, k, v)') },
  },
  {
    id: 'jax.nn.dot_product_attention × model',
    expect: 'ATT004',
    files: { 'attn.py': JAX_KERNEL('', 'jax.nn.dot_product_attention(q, k, v, scale=self.embed_dim ** -0.5)') },
  },
  {
    id: 'jax.nn.dot_product_attention × nosqrt',
    expect: 'ATT004',
    files: { 'attn.py': JAX_KERNEL('', 'jax.nn.dot_product_attention(q, k, v, scale=1.0 / head_dim)') },
  },
  {
    id: 'jax.nn.dot_product_attention × missing (scale=1.0)',
    expect: 'ATT003',
    files: { 'attn.py': JAX_KERNEL('', 'jax.nn.dot_product_attention(q, k, v, scale=1.0)') },
  },
  { id: 'numpy × correct', expect: 'none', files: { 'attn.py': NUMPY('q @ k.T / np.sqrt(d_k)') } },
  { id: 'numpy × nosqrt', expect: 'ATT004', files: { 'attn.py': NUMPY('q @ k.T / d_k') } },
  { id: 'numpy × missing', expect: 'ATT003', files: { 'attn.py': NUMPY('q @ k.T') } },
  {
    id: 'look-alike: learned temperature on normalised q, k (XCiT)',
    expect: 'none',
    files: {
      'xca.py': `${TORCH_HEADER}class XCA(nn.Module):
    def __init__(self, dim, num_heads=8):
        super().__init__()
        self.num_heads = num_heads
        self.temperature = nn.Parameter(torch.ones(num_heads, 1, 1))
        self.qkv = nn.Linear(dim, dim * 3)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):
        B, N, C = x.shape
        qkv = self.qkv(x).reshape(B, N, 3, self.num_heads, C // self.num_heads).permute(2, 0, 3, 1, 4)
        q, k, v = qkv[0], qkv[1], qkv[2]
        q = q.transpose(-2, -1)
        k = k.transpose(-2, -1)
        v = v.transpose(-2, -1)
        q = F.normalize(q, dim=-1)
        k = F.normalize(k, dim=-1)
        attn = (q @ k.transpose(-2, -1)) * self.temperature
        attn = attn.softmax(dim=-1)
        x = (attn @ v).permute(0, 3, 1, 2).reshape(B, N, C)
        return self.proj(x)
`,
    },
  },
  {
    id: 'look-alike: cosine attention with a learned logit scale (Swin v2)',
    expect: 'none',
    files: {
      'cosine.py': `${TORCH_HEADER}class WindowAttention(nn.Module):
    def __init__(self, dim, num_heads):
        super().__init__()
        self.num_heads = num_heads
        self.logit_scale = nn.Parameter(torch.log(10 * torch.ones((num_heads, 1, 1))))
        self.qkv = nn.Linear(dim, dim * 3)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):
        B, N, C = x.shape
        qkv = self.qkv(x).reshape(B, N, 3, self.num_heads, -1).permute(2, 0, 3, 1, 4)
        q, k, v = qkv[0], qkv[1], qkv[2]
        attn = F.normalize(q, dim=-1) @ F.normalize(k, dim=-1).transpose(-2, -1)
        logit_scale = torch.clamp(self.logit_scale, max=math.log(1.0 / 0.01)).exp()
        attn = attn * logit_scale
        attn = attn.softmax(dim=-1)
        x = (attn @ v).transpose(1, 2).reshape(B, N, C)
        return self.proj(x)
`,
    },
  },
  {
    id: 'look-alike: linear attention with no softmax',
    expect: 'none',
    files: {
      'linear.py': `${TORCH_HEADER}class LinearAttention(nn.Module):
    def __init__(self, dim, heads=8, eps=1e-6):
        super().__init__()
        self.heads = heads
        self.eps = eps
        self.to_qkv = nn.Linear(dim, dim * 3, bias=False)
        self.to_out = nn.Linear(dim, dim)

    def forward(self, x):
        B, N, C = x.shape
        q, k, v = self.to_qkv(x).chunk(3, dim=-1)
        q, k, v = (t.reshape(B, N, self.heads, -1).transpose(1, 2) for t in (q, k, v))
        q = F.elu(q) + 1
        k = F.elu(k) + 1
        kv = torch.einsum("bhnd,bhne->bhde", k, v)
        z = 1 / (torch.einsum("bhnd,bhd->bhn", q, k.sum(dim=2)) + self.eps)
        out = torch.einsum("bhnd,bhde,bhn->bhne", q, kv, z)
        return self.to_out(out.transpose(1, 2).reshape(B, N, C))
`,
    },
  },
  {
    id: 'look-alike: additive (Bahdanau) attention',
    expect: 'none',
    files: {
      'additive.py': `${TORCH_HEADER}class BahdanauAttention(nn.Module):
    def __init__(self, hidden_size):
        super().__init__()
        self.W = nn.Linear(hidden_size, hidden_size)
        self.U = nn.Linear(hidden_size, hidden_size)
        self.v = nn.Linear(hidden_size, 1)

    def forward(self, query, keys):
        scores = self.v(torch.tanh(self.W(query).unsqueeze(1) + self.U(keys)))
        weights = F.softmax(scores.squeeze(-1), dim=-1)
        context = torch.bmm(weights.unsqueeze(1), keys)
        return context, weights
`,
    },
  },
  {
    id: 'look-alike: ALiBi bias added after scaling, contiguous().reshape split × correct',
    expect: 'none',
    files: { 'alibi.py': CONTIGUOUS('q @ k.transpose(-2, -1) / math.sqrt(self.head_dim)', ' + self.alibi[:, :T, :T]') },
  },
  {
    id: 'look-alike: ALiBi bias added, contiguous().reshape split × missing',
    expect: 'ATT003',
    files: { 'alibi.py': CONTIGUOUS('q @ k.transpose(-2, -1)', ' + self.alibi[:, :T, :T]') },
  },
  {
    id: 'look-alike: two score terms, each scaled, summed and divided by math.sqrt(2) (a literal root that is no width)',
    expect: 'none',
    files: {
      'relpos.py': `${TORCH_HEADER}class RelPosAttention(nn.Module):
    def __init__(self, dim, num_heads, max_len=512):
        super().__init__()
        self.num_heads = num_heads
        self.head_dim = dim // num_heads
        self.qkv = nn.Linear(dim, dim * 3)
        self.rel = nn.Parameter(torch.randn(max_len, self.head_dim) * 0.02)

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.qkv(x).reshape(B, T, 3, self.num_heads, self.head_dim).permute(2, 0, 3, 1, 4)
        content = q @ k.transpose(-2, -1) / math.sqrt(self.head_dim)
        position = q @ self.rel[:T].transpose(0, 1).unsqueeze(0).unsqueeze(0) / math.sqrt(self.head_dim)
        scores = (content + position) / math.sqrt(2)
        attn = scores.softmax(dim=-1)
        return (attn @ v).transpose(1, 2).reshape(B, T, C)
`,
    },
  },
  {
    id: 'look-alike: contiguous().reshape split × model',
    expect: 'ATT004',
    files: { 'alibi.py': CONTIGUOUS('q @ k.transpose(-2, -1) / math.sqrt(self.embed_dim)') },
  },
  {
    id: 'look-alike: contiguous().reshape split × nosqrt',
    expect: 'ATT004',
    files: { 'alibi.py': CONTIGUOUS('q @ k.transpose(-2, -1) / self.head_dim') },
  },
];

/**
 * Buggy cells the linter leaves silent today although the code holds the evidence (holes left, by class). A literal
 * width: a whole number is read as a width only where it equals the size the scores' product sums over as the view
 * states it (`view(B, T, 8, 64)`, then `/ 64`, `/ math.sqrt(64)`); the model width `512` is the projection's, which a
 * literal view does not label as split into heads. A literal handed to a kernel (`scale=1.0 / 64`) is compared with
 * the stated sizes (session 30). A constant on the scores or on q is (session 29): `* 64 ** -1`, `self.scale = 1.0 / 64`,
 * `/ self.temperature` with `self.temperature = 64`, `q = q / 64` and a temperature module bound to `temperature=64`
 * are the width, not its root. The evidence is in the code: holes to close, not undecidable cells.
 */
const LITERAL_FORMS: Record<string, readonly Variant[]> = {
  div_math_sqrt: ['model'],
  div_np_sqrt: ['model'],
  div_pow_half: ['model'],
  mul_pow_neg_half: ['model'],
  mul_rsqrt_tensor: ['model'],
  folded_into_q: ['model'],
  q_and_k_quarter: ['model'],
  sdpa_scale_kwarg: ['model'],
  self_scale_in_init: ['model'],
  softmax_over_temperature: ['model'],
  temperature_module: ['model'],
};
/** Today's decision of each cell the linter decides wrongly: the rule it reports, or 'none'; and why. */
const TODAY: ReadonlyMap<string, { readonly found: Expect; readonly why: string }> = new Map([
  ...Object.entries(LITERAL_FORMS).flatMap(([form, variants]) =>
    variants.map((v): [string, { found: Expect; why: string }] => [
      `literal × ${form} × ${v}`,
      { found: 'none', why: 'a literal width is not read as a width (hole left)' },
    ]),
  ),
]);

const scaleFindings = (fs: readonly Finding[]): Finding[] => fs.filter((f) => f.code === 'ATT003' || f.code === 'ATT004' || f.code === 'ATT000');

let files: Record<string, string> = {};
let version = 0;
let workspaceLinter: Promise<ExtendedLinter> | undefined;

async function lint(cell: Cell): Promise<string[]> {
  const paths = Object.keys(cell.files);
  if (paths.length === 1) {
    const [p] = paths;
    return scaleFindings((await linter()).lintPython(cell.files[p] ?? '', { path: p })).map((f) => `${p}:${f.line} ${f.code} ${f.message}`);
  }
  workspaceLinter ??= createLinter(grammar(), {
    workspace: {
      read: (p) => files[p],
      version: (p) => (p in files ? version : undefined),
      listPython: (d) => (d === '' ? Object.keys(files) : []),
      listDirs: () => [],
    },
  });
  const l = await workspaceLinter;
  files = cell.files;
  version++;
  return paths.flatMap((p) => scaleFindings(l.lintPython(files[p] ?? '', { path: p })).map((f) => `${p}:${f.line} ${f.code} ${f.message}`));
}

const shown = (cell: Cell): string =>
  Object.entries(cell.files)
    .map(([p, t]) => `# ${p}\n${t}`)
    .join('\n');

describe('scale matrix (ATT003/ATT004): width source × scale form × variant', () => {
  const all = [...generated(), ...WRITTEN];

  it('has hundreds of cells, every variant among them, ids unique', () => {
    assert.ok(all.length >= 300 && all.length <= 1000, `${all.length} cells`);
    assert.equal(new Set(all.map((c) => c.id)).size, all.length);
    for (const id of TODAY.keys())
      assert.ok(
        all.some((c) => c.id === id),
        `TODAY lists ${id}, no such cell`,
      );
  });

  for (const cell of all) {
    it(cell.id, async () => {
      const found = await lint(cell);
      const today = TODAY.get(cell.id);
      const want = today?.found ?? cell.expect;
      const label = today ? `listed in TODAY (${today.why}) as ${today.found}, now decided otherwise (update TODAY)` : '';
      if (want === 'none') {
        assert.deepEqual(found, [], `${label || 'correct code reported'}:\n${shown(cell)}`);
        return;
      }
      const right = found.filter((f) => f.includes(` ${want} `));
      assert.ok(right.length === 1 && found.length === 1, `${label} want one ${want}, got ${found.length}:\n${found.join('\n')}\n${shown(cell)}`);
    });
  }
});
