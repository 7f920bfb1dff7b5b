// Session 37, eng-fill-s37: ATT007, class "a half-precision overflow claimed where no row can be all masked".
//
// A fill below float16's range (-1e9) does one of two things in half precision. PyTorch's masked_fill (and
// `torch.full`/`full_like`) raise an overflow error, whatever the mask. Every other op rounds it to -inf at the masked
// positions: an index assignment, `torch.where`, an additive mask in PyTorch (which multiplies a scalar in float32 and
// rounds after: -0 and -inf), and `where`/`lax.select`/`full(...).astype(half)` outside PyTorch. A -inf is harmful only
// in a row whose every key is masked (softmax of it is NaN), so the finding now needs the mask to be able to empty a
// row, as for a -inf fill: not a causal triangle that keeps the diagonal, nor key padding, nor causal with right
// padding, when the code builds them. A mask known only by a name (`attention_mask`, `pad_mask`) may be any shape and
// is still reported. Outside PyTorch a 0/1 mask multiplied by -1e9 in float16 is -inf × 0 = NaN at every kept position
// (JAX, TensorFlow, NumPy convert the Python number to the mask's dtype first), so that form is reported whatever the
// mask.
//
// Second class: "prose that offers half precision as an option". Hugging Face's Flax docstring "This can be used to
// enable mixed-precision training or half-precision inference on GPUs or TPUs" (the `dtype` field defaulting to
// float32) says what the module may be run in, not that it runs in it; a sentence with a modal verb or an option's
// wording ("can", "may", "optionally", "if you") is no evidence. Prose that says how the code runs still is.
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

// A module holding a causal mask as a buffer, applied as an additive blend (jukebox's `Mask`), in a file that runs in
// float16. scores: (B, H, T, T); b: (1, 1, n_ctx, n_ctx), 1 on and below the diagonal.
const blend = (fill: string, mask = 't.tril(t.ones(n_ctx, n_ctx))') => `import torch as t
import torch.nn as nn


class Mask(nn.Module):
    def __init__(self, n_ctx):
        super().__init__()
        self.register_buffer("b", ${mask}.view(1, 1, n_ctx, n_ctx))

    def forward(self, w):
        ${fill}
        return w


class Attention(nn.Module):
    def __init__(self, n_ctx):
        super().__init__()
        self.mask = Mask(n_ctx)

    def forward(self, q, k, v):
        w = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5
        w = self.mask(w)
        return t.softmax(w, dim=-1) @ v


def build(n_ctx):
    return Attention(n_ctx).cuda().half()
`;
const BLEND_LINE = 11;

// Key padding built from the ids, in a file that runs in float16. scores: (B, H, T, T); pad: (B, 1, 1, T).
const padded = (pad: string, stmt: string) => `import math
import torch


def attend(q, k, v, ids):
    ${pad}
    s = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
    ${stmt}
    return torch.softmax(s, dim=-1) @ v


model = torch.nn.Linear(4, 4).half()
`;
const KEY_PAD = 'pad = (ids == 0)[:, None, None, :]';
const QUERY_KEY_PAD = 'pad = (ids == 0)[:, None, :, None] | (ids == 0)[:, None, None, :]';

describe('ATT007: -1e9 in half precision needs a row that can be all masked, or an op that raises (session 37)', () => {
  describe('a causal mask that keeps the diagonal (jukebox-like blend)', () => {
    it('is silent on the additive blend: -1e9 becomes -inf only above the diagonal, and every row keeps its own key', async () => {
      assert.deepEqual(await findingLines(blend('w = w * self.b + -1e9 * (1 - self.b)'), 'ATT007'), []);
    });

    it('is silent on torch.where and an index assignment with the same mask', async () => {
      assert.deepEqual(await findingLines(blend('w = t.where(self.b == 0, -1e9, w)'), 'ATT007'), []);
      assert.deepEqual(await findingLines(blend('w[(self.b == 0).expand_as(w)] = -1e9'), 'ATT007'), []);
    });

    it('still reports masked_fill with that mask: it raises on float16 whatever the rows', async () => {
      assert.deepEqual(await findingLines(blend('w = w.masked_fill(self.b == 0, -1e9)'), 'ATT007'), [BLEND_LINE]);
    });

    it('still reports a triangle that hides the diagonal: the first row is all masked', async () => {
      const hidesDiagonal = blend('w = w * self.b + -1e9 * (1 - self.b)', 't.tril(t.ones(n_ctx, n_ctx), diagonal=-1)');
      assert.deepEqual(await findingLines(hidesDiagonal, 'ATT007'), [BLEND_LINE]);
    });

    it('the correct fill is silent too', async () => {
      assert.deepEqual(await findingLines(blend('w = w.masked_fill(self.b == 0, t.finfo(w.dtype).min)'), 'ATT007'), []);
    });
  });

  describe('padding the code builds', () => {
    for (const stmt of ['s = torch.where(pad, -1e9, s)', 's[pad.expand_as(s)] = -1e9', 's = s + pad.to(s.dtype) * -1e9'])
      it(`key padding: silent on \`${stmt}\` (a row empties only for an empty sequence); query and key padding: reported`, async () => {
        assert.deepEqual(await findingLines(padded(KEY_PAD, stmt), 'ATT007'), []);
        assert.deepEqual(await findingLines(padded(QUERY_KEY_PAD, stmt), 'ATT007'), [8]);
      });

    it('key padding with masked_fill: reported, it raises', async () => {
      assert.deepEqual(await findingLines(padded(KEY_PAD, 's = s.masked_fill(pad, -1e9)'), 'ATT007'), [8]);
    });

    it('a mask known only by its name may be any shape: reported', async () => {
      const byName = padded('pad = attention_mask == 0', 's = torch.where(pad, -1e9, s)').replace(
        'def attend(q, k, v, ids):',
        'def attend(q, k, v, attention_mask):',
      );
      assert.deepEqual(await findingLines(byName, 'ATT007'), [8]);
    });
  });

  describe('cross-file: the model file run in half precision by a training script that imports it', () => {
    const model = (pad: string) => `import math
import torch


def attend(q, k, v, ids):
    ${pad}
    s = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))  # (B, H, T, T)
    s = torch.where(pad, -1e9, s)
    return torch.softmax(s, dim=-1) @ v
`;
    const train = `import torch
from model import attend


def step(q, k, v, ids):
    with torch.autocast("cuda", dtype=torch.float16):
        return attend(q, k, v, ids)
`;
    it('key padding there: silent; query and key padding: reported', async () => {
      assert.deepEqual(await workspaceFindingLines({ 'model.py': model(KEY_PAD), 'train.py': train }, 'model.py', 'ATT007'), []);
      assert.deepEqual(await workspaceFindingLines({ 'model.py': model(QUERY_KEY_PAD), 'train.py': train }, 'model.py', 'ATT007'), [8]);
    });
  });

  describe('JAX in float16', () => {
    const jax = (stmt: string) => `import jax
import jax.numpy as jnp


def attention(q, k, v, ids):
    q, k = q.astype(jnp.float16), k.astype(jnp.float16)
    keep = (ids != 0)[:, None, None, :]  # (B, 1, 1, T)
    scores = jnp.einsum("bhqd,bhkd->bhqk", q, k) / jnp.sqrt(q.shape[-1])
    ${stmt}
    weights = jax.nn.softmax(scores, axis=-1)
    return jnp.einsum("bhqk,bhkd->bhqd", weights, v)
`;
    it('jnp.where with key padding: silent (-inf only at padded keys)', async () => {
      assert.deepEqual(await findingLines(jax('scores = jnp.where(keep, scores, -1e9)'), 'ATT007'), []);
    });

    it('a 0/1 mask in float16 times -1e9: reported whatever the mask (-1e9 is -inf there, and 0 × -inf is NaN)', async () => {
      assert.deepEqual(await findingLines(jax('scores = scores + (1.0 - keep.astype(jnp.float16)) * -1e9'), 'ATT007'), [9]);
    });
  });
});

describe('ATT007: prose that offers half precision as an option is no evidence (session 37)', () => {
  const flax = (doc: string, fill = '-1e9') => `import jax
import jax.numpy as jnp
import flax.linen as nn
from jax import lax


class SelfAttention(nn.Module):
    """Self-attention.

    ${doc}
    """

    num_heads: int
    dtype: jnp.dtype = jnp.float32

    @nn.compact
    def __call__(self, x, attention_mask):
        q = nn.DenseGeneral((self.num_heads, 64), dtype=self.dtype)(x)
        k = nn.DenseGeneral((self.num_heads, 64), dtype=self.dtype)(x)
        v = nn.DenseGeneral((self.num_heads, 64), dtype=self.dtype)(x)
        bias = lax.select(
            attention_mask > 0,
            jnp.full(attention_mask.shape, 0.0).astype(self.dtype),
            jnp.full(attention_mask.shape, ${fill}).astype(self.dtype),
        )
        w = jnp.einsum("bqhd,bkhd->bhqk", q, k) / jnp.sqrt(64.0) + bias
        w = jax.nn.softmax(w, axis=-1)
        return jnp.einsum("bhqk,bkhd->bqhd", w, v)
`;
  const FILL = 24;

  for (const doc of [
    'This can be used to enable mixed-precision training or half-precision inference on GPUs or TPUs.',
    'The dtype may be jax.numpy.float16 for half precision on GPUs.',
    'Optionally runs in mixed precision (set dtype).',
    'If you want fp16, pass dtype=jnp.float16.',
  ])
    it(`is silent with "${doc}"`, async () => {
      assert.deepEqual(await findingLines(flax(doc), 'ATT007'), []);
    });

  it('still reports prose that says how the code runs, in a sentence of its own beside an option', async () => {
    assert.deepEqual(await findingLines(flax('This module is trained in mixed precision.'), 'ATT007'), [FILL]);
    assert.deepEqual(await findingLines(flax('Other dtypes can be passed. We train it with --fp16.'), 'ATT007'), [FILL]);
  });

  it('and code that runs it in half precision, whatever the docstring', async () => {
    const src = flax('This can be used to enable mixed-precision training.') + '\n\nmodel = SelfAttention(num_heads=8, dtype=jnp.float16)\n';
    assert.deepEqual(await findingLines(src, 'ATT007'), [FILL]);
  });

  it('the correct fill is silent with prose that says it runs in half precision', async () => {
    assert.deepEqual(await findingLines(flax('This module is trained in mixed precision.', 'jnp.finfo(self.dtype).min'), 'ATT007'), []);
  });
});
