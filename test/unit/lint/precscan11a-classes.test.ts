// Class from session 40's scan of real code (precscan10b, a raw-JAX language model; written fresh here): per-head q, k
// and v made by one head-batched einsum whose letters do not follow the `b h i d` habit, `jnp.einsum("td,ndh->nth", x,
// w_qkv)` with the weight `(n_heads, d_model, 3 * d_head)`: `n` is the heads and `h` each head's width. The output is
// split on its last axis into q, k and v, and the scale is `1 / sqrt(k.shape[-1])`, the right one. The analysis labels
// einsum axes by their letters (`h` → heads), so `k.shape[-1]` was read as a head count and ATT004 said "built from the
// number of heads". The scores' product `q @ swapaxes(k, -1, -2)` sums over that very axis, and a product of queries
// and keys sums over their features: the read is each head's width, whatever its letter. Such a count, read off the
// last axis of an operand whose axis carrying the same label the product sums over, is now judged as a head width (so
// the right scale is silent and a wrong power of it is reported as what it is); a count read off a last axis labelled
// heads that the product does not sum over (`einsum('bndh,bmdh->bhnm', q, k)`, heads last, features before them) stays
// a head count.
import { strict as assert } from 'node:assert';
import { findingLines, linter, workspaceFindingLines } from './helpers';

const QKV = `import jax.numpy as jnp


def qkv_heads(w_qkv, x_TD):
    # w_qkv: (n_heads, d_model, 3 * d_head)
    qkv_NTH = jnp.einsum("td,ndh->nth", x_TD, w_qkv)
    return jnp.split(qkv_NTH, 3, axis=-1)
`;

const attention = (scale: string, local = true): string => `import jax
import jax.numpy as jnp
${local ? QKV.split('\n').slice(2).join('\n') : 'from .qkv import qkv_heads\n'}

def self_attention(params, x_TD):
    w_qkv, w_out = params
    q, k, v = qkv_heads(w_qkv, x_TD)
    d_k = k.shape[-1]
    scores = q @ jnp.swapaxes(k, -1, -2) ${scale}
    weights = jax.nn.softmax(scores, axis=-1)
    out_NTH = weights @ v
    n, t, h = out_NTH.shape
    return jnp.transpose(out_NTH, (1, 0, 2)).reshape(t, n * h) @ w_out
`;

const lineOf = (src: string, text: string): number => src.split('\n').findIndex((l) => l.includes(text)) + 1;

// Heads truly last: `rearrange` puts the head count on the last axis and the einsum sums over `d`, the features.
const HEADS_LAST = (scale: string): string => `import math
import torch
from einops import rearrange


def heads_last_attention(x, w_q, w_k, heads):
    q = rearrange(x @ w_q, "b n (d h) -> b n d h", h=heads)
    k = rearrange(x @ w_k, "b n (d h) -> b n d h", h=heads)
    scores = torch.einsum("bndh,bmdh->bhnm", q, k) ${scale}
    return scores.softmax(dim=-1)
`;

describe('precscan11a: a head-batched einsum whose last letter is the head width', () => {
  it('is silent on 1/sqrt(k.shape[-1]) (reported at base as a head count)', async () => {
    assert.deepEqual(await findingLines(attention('/ jnp.sqrt(d_k)'), 'ATT004'), []);
    assert.deepEqual(await findingLines(attention('* d_k ** -0.5'), 'ATT004'), []);
  });

  it('reports the width multiplied in as a dimension, not as a head count', async () => {
    const src = attention('* jnp.sqrt(d_k)');
    const found = (await linter()).lintPython(src).filter((f) => f.code === 'ATT004');
    assert.deepEqual(
      found.map((f) => f.line),
      [lineOf(src, 'scores = q @')],
    );
    assert.match(found[0].message, /multiplied by `jnp\.sqrt\(d_k\)`/);
    assert.doesNotMatch(found[0].message, /number of heads/);
  });

  it('reports the same scale applied twice', async () => {
    const src = attention('/ jnp.sqrt(d_k) / jnp.sqrt(d_k)');
    const found = (await linter()).lintPython(src).filter((f) => f.code === 'ATT004');
    assert.equal(found.length, 1);
    assert.match(found[0].message, /twice/);
  });

  it('with the einsum in another file: silent on the right scale, reports it multiplied in', async () => {
    const files = (scale: string): Record<string, string> => ({ 'model/qkv.py': QKV, 'model/attn.py': attention(scale, false) });
    assert.deepEqual(await workspaceFindingLines(files('/ jnp.sqrt(d_k)'), 'model/attn.py', 'ATT004'), []);
    const times = files('* jnp.sqrt(d_k)');
    assert.deepEqual(await workspaceFindingLines(times, 'model/attn.py', 'ATT004'), [lineOf(times['model/attn.py'], 'scores = q @')]);
    // Alone, the helper is not in view: nothing is known of the split, and nothing is said of the right scale.
    assert.deepEqual(await findingLines(attention('/ jnp.sqrt(d_k)', false), 'ATT004'), []);
  });

  it('still reports a head count read off a last axis of heads that the product does not sum over', async () => {
    const src = HEADS_LAST('/ math.sqrt(q.shape[-1])');
    const found = (await linter()).lintPython(src).filter((f) => f.code === 'ATT004');
    assert.deepEqual(
      found.map((f) => f.line),
      [lineOf(src, 'scores =')],
    );
    assert.match(found[0].message, /number of heads/);
    assert.deepEqual(await findingLines(HEADS_LAST('/ math.sqrt(q.shape[-2])'), 'ATT004'), []);
  });
});
