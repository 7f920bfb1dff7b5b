// ATT002 classes of session 30, each written from the APIs' documented conventions (none copied from a repository):
// masks built per example by a helper inside a list comprehension (stacked, joined, iterated or indexed), a bias built
// with `jax.lax.select` / `where` between a tensor of zeros and a large negative one, and a function mapped with
// `jax.vmap` handed a mask (unmapped with `in_axes=None`, or mapped: each slice means what the whole does).
// Each class: the wrong form reported once where the mask reaches the operation, the correct form silent.
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

const att002 = (src: string): Promise<number[]> => findingLines(src, 'ATT002');
const att002In = (files: Record<string, string>, path: string): Promise<number[]> => workspaceFindingLines(files, path, 'ATT002');
/** The 1-based lines of `src` marked `# wrong` (where the finding must be). */
const marked = (src: string): number[] => src.split('\n').flatMap((l, i) => (l.includes('# wrong') ? [i + 1] : []));
/** The program with `{m}` as the builder: its correct form has no mark, its wrong form the mark on the use. */
const both = async (tmpl: (builder: string, mark: string) => string, right: string, wrong: string): Promise<void> => {
  assert.deepEqual(await att002(tmpl(right, '')), [], 'correct form');
  const bad = tmpl(wrong, '  # wrong');
  assert.deepEqual(await att002(bad), marked(bad), 'wrong form');
};

describe('ATT002: masks built per example inside a list comprehension (session 30)', () => {
  const helper = (b: string): string => `import torch
import torch.nn as nn
import torch.nn.functional as F


def pad_mask(ids, pad_id=0):
    return ${b}
`;

  it('torch.stack of the helper over the rows, given to SDPA (True = attend)', async () => {
    await both(
      (b, mark) => `${helper(b)}

def attend(q, k, v, rows):
    m = torch.stack([pad_mask(r) for r in rows])
    return F.scaled_dot_product_attention(q, k, v, attn_mask=m[:, None, None, :])${mark}
`,
      'ids != pad_id',
      'ids == pad_id',
    );
  });

  it('torch.stack written inline, unsqueezed twice; torch.cat of the rows each given a batch axis', async () => {
    await both(
      (b, mark) => `import torch
import torch.nn.functional as F


def attend(q, k, v, ids, pad_id):
    m = torch.stack([${b.replace('ids', 'row')} for row in ids])
    return F.scaled_dot_product_attention(q, k, v, attn_mask=m.unsqueeze(1).unsqueeze(2))${mark}
`,
      'ids != pad_id',
      'ids == pad_id',
    );
    await both(
      (b, mark) => `${helper(b)}

def attend(q, k, v, rows):
    m = torch.cat([pad_mask(r)[None] for r in rows], dim=0)
    return F.scaled_dot_product_attention(q, k, v, attn_mask=m[:, None, None, :])${mark}
`,
      'ids != pad_id',
      'ids == pad_id',
    );
  });

  it('over range(B): the helper given one row at a time', async () => {
    await both(
      (b, mark) => `${helper(b)}

def attend(q, k, v, ids):
    m = torch.stack([pad_mask(ids[i]) for i in range(ids.size(0))])
    return F.scaled_dot_product_attention(q, k, v, attn_mask=m[:, None, None, :])${mark}
`,
      'ids != pad_id',
      'ids == pad_id',
    );
  });

  it('a list of masks iterated with zip or indexed, each given to nn.MultiheadAttention (True = ignore)', async () => {
    const tmpl =
      (loop: string) =>
      (b: string, mark: string): string => `${helper(b)}

class Segments(nn.Module):
    def __init__(self, d=64):
        super().__init__()
        self.mha = nn.MultiheadAttention(d, 4, batch_first=True)

    def forward(self, xs, segments):
        masks = [pad_mask(s) for s in segments]
${loop.replace('MARK', mark)}
`;
    const zipLoop = `        outs = []
        for x, m in zip(xs, masks):
            outs.append(self.mha(x, x, x, key_padding_mask=m)[0])MARK
        return outs`;
    const indexed = `        return [self.mha(x, x, x, key_padding_mask=masks[i])[0] for i, x in enumerate(xs)]MARK`;
    for (const loop of [zipLoop, indexed]) await both(tmpl(loop), 'ids == pad_id', 'ids != pad_id');
  });

  it('across files: the helper imported from another module', async () => {
    const files = (b: string, mark: string): Record<string, string> => ({
      'masks.py': `def pad_mask(ids, pad_id=0):\n    return ${b}\n`,
      'model.py': `import torch
import torch.nn.functional as F

from masks import pad_mask


def attend(q, k, v, rows):
    m = torch.stack([pad_mask(r) for r in rows])
    return F.scaled_dot_product_attention(q, k, v, attn_mask=m[:, None, None, :])${mark}
`,
    });
    assert.deepEqual(await att002In(files('ids != pad_id', ''), 'model.py'), []);
    const bad = files('ids == pad_id', '  # wrong');
    assert.deepEqual(await att002In(bad, 'model.py'), marked(bad['model.py']));
  });

  it('across files: a collate function stacking per-example length masks, read through a DataLoader', async () => {
    const files = (b: string, mark: string): Record<string, string> => ({
      'data.py': `import torch


def length_mask(length, T):
    return ${b}


def collate(batch):
    T = max(len(s) for s in batch)
    ids = torch.stack([torch.nn.functional.pad(torch.tensor(s), (0, T - len(s))) for s in batch])
    mask = torch.stack([length_mask(len(s), T) for s in batch])
    return ids, mask
`,
      'train.py': `import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader

from data import collate


class Model(nn.Module):
    def __init__(self, d=64):
        super().__init__()
        self.emb = nn.Embedding(100, d)
        self.qkv = nn.Linear(d, 3 * d)

    def forward(self, ids, mask):
        q, k, v = self.qkv(self.emb(ids)).chunk(3, dim=-1)
        return F.scaled_dot_product_attention(q, k, v, attn_mask=mask[:, None, :])${mark}


def train(ds):
    model = Model()
    for ids, mask in DataLoader(ds, batch_size=8, collate_fn=collate):
        model(ids, mask)
`,
    });
    assert.deepEqual(await att002In(files('torch.arange(T) < length', ''), 'train.py'), []);
    const bad = files('torch.arange(T) >= length', '  # wrong');
    assert.deepEqual(await att002In(bad, 'train.py'), marked(bad['train.py']));
  });

  it('items of two meanings, chosen per row, and a stacked mask used for pooling stay silent', async () => {
    assert.deepEqual(
      await att002(`${helper('ids != pad_id')}

def attend(q, k, v, rows, flags):
    m = torch.stack([pad_mask(r) if f else ~pad_mask(r) for r, f in zip(rows, flags)])
    return F.scaled_dot_product_attention(q, k, v, attn_mask=m[:, None, None, :])


def pool(h, rows):
    m = torch.stack([pad_mask(r) for r in rows]).float()
    return (h * m[..., None]).sum(1) / m.sum(1, keepdim=True)
`),
      [],
    );
  });
});

describe('ATT002: a bias chosen with lax.select / where between zeros and a large negative tensor (session 30)', () => {
  it('flax-style lax.select(mask, zeros, full(-1e10)) is right for a keep mask; the branches swapped are not', async () => {
    const tmpl =
      (kept: string, masked: string) =>
      (b: string, mark: string): string => `import jax
import jax.numpy as jnp
from jax import lax


def attend(q, k, v, ids, pad_id):
    mask = (${b})[:, None, None, :]
    bias = lax.select(mask, ${kept}, ${masked})${mark}
    s = jnp.einsum("bhqd,bhkd->bhqk", q, k) / jnp.sqrt(q.shape[-1]) + bias
    return jnp.einsum("bhqk,bhkd->bhqd", jax.nn.softmax(s, axis=-1), v)
`;
    const zeros = 'jnp.full(mask.shape, 0.0).astype(q.dtype)';
    const neg = 'jnp.full(mask.shape, -1e10).astype(q.dtype)';
    // The keep mask with zeros where True; the padding mask with the large negative value where True.
    assert.deepEqual(await att002(tmpl(zeros, neg)('ids != pad_id', '')), []);
    assert.deepEqual(await att002(tmpl(neg, zeros)('ids == pad_id', '')), []);
    const bad = tmpl(neg, zeros)('ids != pad_id', '  # wrong');
    assert.deepEqual(await att002(bad), marked(bad));
    const bad2 = tmpl('jnp.zeros(mask.shape)', 'jnp.full(mask.shape, jnp.finfo(q.dtype).min)')('ids == pad_id', '  # wrong');
    assert.deepEqual(await att002(bad2), marked(bad2));
  });

  it('torch.where(m, zeros_like(s), full_like(s, -inf)) added to the scores', async () => {
    await both(
      (b, mark) => `import torch


def attend(q, k, v, T):
    s = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5
    m = ${b}
    bias = torch.where(m, torch.zeros_like(s), torch.full_like(s, float("-inf")))${mark}
    return torch.softmax(s + bias, dim=-1) @ v
`,
      'torch.tril(torch.ones(T, T, dtype=torch.bool))',
      'torch.triu(torch.ones(T, T, dtype=torch.bool), 1)',
    );
  });
});

describe('ATT002: a mask handed to a function mapped with jax.vmap (session 30)', () => {
  const attend = (mark: string): string => `import functools

import jax
import jax.numpy as jnp


def attend(q, k, v, mask):
    s = jnp.einsum("qd,kd->qk", q, k) / jnp.sqrt(q.shape[-1])
    s = jnp.where(mask, s, -1e9)${mark}
    return jnp.einsum("qk,kd->qd", jax.nn.softmax(s, axis=-1), v)
`;
  const causal = { right: 'jnp.tril(jnp.ones((T, T), dtype=bool))', wrong: 'jnp.triu(jnp.ones((T, T), dtype=bool), 1)' };

  it('a causal mask not mapped (in_axes=None) into a per-head function, also through a name', async () => {
    for (const call of [
      `jax.vmap(attend, in_axes=(0, 0, 0, None))(q, k, v, causal)`,
      `per_head = jax.vmap(attend, in_axes=(0, 0, 0, None))\n    return per_head(q, k, v, causal)`,
      `jax.vmap(functools.partial(attend, mask=causal))(q, k, v)`,
      // Over the heads, then the batch.
      `jax.vmap(jax.vmap(attend, in_axes=(0, 0, 0, None)), in_axes=(0, 0, 0, None))(q, k, v, causal)`,
    ]) {
      const tmpl = (b: string, mark: string): string => `${attend(mark)}

def heads(q, k, v, T):
    causal = ${b}
    ${call.startsWith('per_head') ? call : `return ${call}`}
`;
      await both(tmpl, causal.right, causal.wrong);
    }
  });

  it('a mask mapped over the batch with the queries (in_axes=0): each slice means what the whole does', async () => {
    await both(
      (b, mark) => `${attend(mark)}

def batch(q, k, v, ids, pad_id):
    m = jnp.broadcast_to((${b})[:, None, :], (ids.shape[0], q.shape[1], ids.shape[1]))
    return jax.vmap(attend)(q, k, v, m)
`,
      'ids != pad_id',
      'ids == pad_id',
    );
  });
});
