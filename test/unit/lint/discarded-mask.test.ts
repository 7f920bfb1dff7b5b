// A mask that is never applied: an out-of-place masking op (masked_fill, where, `.at[...].set`, `+ mask`,
// `.add(mask)`) written as a statement of its own returns the masked scores and the statement drops them
// (analysis/discarded.ts, reported by ATT007). Each form in PyTorch, NumPy, TensorFlow and JAX gives one finding
// with the discarded message and no other ATT007 message on its line; each correct form (in place, assigned,
// returned, as an argument, `out=`, a name never read again, scores masked later) gives none. A cross-file pair:
// the scores built by a helper of another file, the discarded fill in the caller, and its fixed form. Also the
// transfer function JAX's functional update needs: `scores = scores.at[mask].set(v)` is a fill like `scores[mask] = v`.
import { strict as assert } from 'node:assert';
import { createLinter, type Finding } from '../../../src/lint';
import { applyFixes, grammar, linter, memoryWorkspace } from './helpers';

const DISCARDED = /returns the masked scores and this statement discards them, so the mask .* is never applied/;

async function att007(source: string): Promise<Finding[]> {
  return (await linter()).lintPython(source, { select: ['ATT007'] });
}

/** Asserts exactly one ATT007 finding, the discarded one, on `line`, and returns it. */
function onlyDiscarded(findings: readonly Finding[], line: number): Finding {
  assert.deepEqual(
    findings.map((f) => `${f.line} ${DISCARDED.test(f.message) ? 'discarded' : f.message}`),
    [`${line} discarded`],
  );
  return findings[0];
}

const torchForms: [string, string, string][] = [
  ['masked_fill', 'scores.masked_fill(mask == 0, float("-inf"))', 'masked_fill_'],
  ['torch.where', 'torch.where(mask == 0, float("-inf"), scores)', ''],
  ['torch.masked_fill', 'torch.masked_fill(scores, mask == 0, -1e9)', ''],
  ['+ additive mask', 'scores + attn_mask', ''],
  ['.add(additive mask)', 'scores.add(attn_mask)', 'add_'],
];

const torchAttention = (stmt: string) => `import math
import torch


def attention(q, k, v, mask, attn_mask):
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
    ${stmt}
    weights = torch.softmax(scores, dim=-1)
    return weights @ v
`;

describe('discarded masks (ATT007): a masking op whose result is dropped', () => {
  describe('PyTorch', () => {
    for (const [name, stmt, twin] of torchForms) {
      it(`${name} as a statement: one finding, at the statement, with the fix assigning the result`, async () => {
        const src = torchAttention(stmt);
        const f = onlyDiscarded(await att007(src), 7);
        assert.equal(f.column, 5);
        assert.match(f.message, /torch\.softmax normalises `scores` unmasked/);
        if (twin) assert.match(f.message, new RegExp(`or use the in-place \`${twin}\``));
        else assert.doesNotMatch(f.message, /in-place/);
        assert.equal(f.fix?.safety, 'unsafe');
        assert.deepEqual(f.related?.map((r) => `${r.line} ${r.message}`).slice(0, 1), ['8 torch.softmax normalises the scores here, without the mask']);
        const fixed = applyFixes(src, [f]);
        assert.equal(fixed, torchAttention(`scores = ${stmt}`));
        assert.deepEqual(await att007(fixed), []);
      });
    }

    it('a discarded -1e9 fill in float16 code: the discarded message only (it fills nothing, so it does not overflow)', async () => {
      const src = `import math
import torch


def attention(q, k, v, mask):
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
    scores.masked_fill(mask == 0, -1e9)
    return torch.softmax(scores, dim=-1) @ v


with torch.autocast("cuda"):
    out = attention(torch.randn(2, 4, 8, 16).half(), torch.randn(2, 4, 8, 16).half(), torch.randn(2, 4, 8, 16).half(), None)
`;
      onlyDiscarded(await att007(src), 7);
      // Assigned, the same fill is judged for its range as before.
      const assigned = await att007(src.replace('    scores.masked_fill(', '    scores = scores.masked_fill('));
      assert.equal(assigned.length, 1);
      assert.match(assigned[0].message, /below float16's minimum/);
    });

    it('under `if mask is not None:` and with a causal mask applied before it: still the unmasked path', async () => {
      const src = `import math
import torch


def attention(q, k, v, causal, pad=None):
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
    scores = scores.masked_fill(causal, float("-inf"))
    if pad is not None:
        scores.masked_fill(pad[:, None, None, :], float("-inf"))
    return scores.softmax(dim=-1) @ v
`;
      onlyDiscarded(await att007(src), 9);
    });

    it('correct forms stay silent: in place, assigned, returned, as an argument, out=, never read again, masked later or already', async () => {
      const src = `import math
import torch


def in_place(q, k, mask):
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
    scores.masked_fill_(mask == 0, float("-inf"))
    return scores.softmax(dim=-1)


def returned(q, k, mask):
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
    return scores.masked_fill(mask == 0, -1e9)


def argument(q, k, mask):
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
    return torch.softmax(torch.where(mask, scores, -1e9), dim=-1)


def out_form(q, k, attn_mask):
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
    torch.add(scores, attn_mask, out=scores)
    return scores.softmax(dim=-1)


def dead(q, k, mask):
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
    weights = scores.masked_fill(mask == 0, -1e9).softmax(dim=-1)
    scores.masked_fill(mask == 0, -1e9)
    return weights


def masked_later(q, k, mask):
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
    scores.masked_fill(mask == 0, -1e9)
    scores.masked_fill_(mask == 0, -1e9)
    return scores.softmax(dim=-1)


def repeated(q, k, mask):
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
    scores = scores.masked_fill(mask == 0, -1e9)
    scores.masked_fill(mask == 0, -1e9)
    return scores.softmax(dim=-1)


def reassigned(q, k, mask, other):
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
    scores.masked_fill(mask == 0, -1e9)
    scores = other
    return scores.softmax(dim=-1)
`;
      assert.deepEqual(await att007(src), []);
    });

    it('in a function nested in the one that owns the scores: the in-place method only, and no fix', async () => {
      const src = `import math
import torch


def attention(q, k, v, mask):
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))

    def apply_mask():
        scores.masked_fill(mask == 0, -1e9)

    apply_mask()
    return torch.softmax(scores, dim=-1) @ v
`;
      const f = onlyDiscarded(await att007(src), 9);
      assert.match(f.message, /Use the in-place `masked_fill_`: an assignment here would make `scores` local to this function\.$/);
      assert.equal(f.fix, undefined);
    });

    it('a bare call of the code’s own helper is not judged (it may work in place)', async () => {
      const src = `import math
import torch


def apply_mask(scores, mask):
    scores.masked_fill_(mask == 0, -1e9)
    return scores


def attention(q, k, mask):
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
    apply_mask(scores, mask)
    return scores.softmax(dim=-1)
`;
      assert.deepEqual(await att007(src), []);
    });
  });

  describe('NumPy, TensorFlow, JAX', () => {
    const cases: [string, string, string, string, number][] = [
      [
        'np.where',
        `import numpy as np


def attention(q, k, v, keep):
    scores = q @ k.T / np.sqrt(q.shape[-1])
    STMT
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return (e / e.sum(axis=-1, keepdims=True)) @ v
`,
        'np.where(keep, scores, -1e9)',
        'scores',
        6,
      ],
      [
        'tf.where',
        `import tensorflow as tf


def attention(q, k, v, pad):
    logits = tf.matmul(q, k, transpose_b=True) / tf.math.sqrt(tf.cast(tf.shape(k)[-1], tf.float32))
    STMT
    return tf.matmul(tf.nn.softmax(logits, axis=-1), v)
`,
        'tf.where(pad, -1e9 * tf.ones_like(logits), logits)',
        'logits',
        6,
      ],
      [
        'jnp.where',
        `import jax
import jax.numpy as jnp


def attention(q, k, v, keep):
    scores = jnp.einsum("bqd,bkd->bqk", q, k) / jnp.sqrt(q.shape[-1])
    STMT
    return jnp.einsum("bqk,bkd->bqd", jax.nn.softmax(scores, axis=-1), v)
`,
        'jnp.where(keep, scores, -1e9)',
        'scores',
        7,
      ],
      [
        'x.at[mask].set (JAX)',
        `import jax
import jax.numpy as jnp


def attention(q, k, v, pad):
    # pad: (T, S) boolean, True at padded keys
    scores = q @ k.T / jnp.sqrt(q.shape[-1])
    STMT
    return jax.nn.softmax(scores, axis=-1) @ v
`,
        'scores.at[pad].set(-jnp.inf)',
        'scores',
        8,
      ],
    ];
    for (const [name, template, stmt, target, line] of cases) {
      it(`${name}: discarded → one finding (assign the result, no in-place twin); assigned → none`, async () => {
        const src = template.replace('STMT', stmt);
        const f = onlyDiscarded(await att007(src), line);
        assert.doesNotMatch(f.message, /in-place/);
        assert.match(f.message, new RegExp(`Assign the result \\(\`${target} = `));
        const fixed = applyFixes(src, [f]);
        assert.equal(fixed, template.replace('STMT', `${target} = ${stmt}`));
        assert.deepEqual(await att007(fixed), []);
      });
    }
  });

  describe('JAX functional index update (the transfer function)', () => {
    it('`scores = scores.at[mask].set(-1e9)` is a fill of the scores: judged in float16 as an index assignment is', async () => {
      const src = `import jax
import jax.numpy as jnp


def attention(q, k, v, pad):
    q, k = q.astype(jnp.float16), k.astype(jnp.float16)
    scores = q @ k.T / jnp.sqrt(q.shape[-1])
    scores = scores.at[pad].set(-1e9)
    return jax.nn.softmax(scores, axis=-1) @ v
`;
      const fs = await att007(src);
      assert.deepEqual(
        fs.map((f) => `${f.line}:${f.column}`),
        ['8:33'],
      );
      assert.match(fs[0].message, /below float16's minimum .* rounds to -inf/);
    });

    it('an update that is no fill (a cache written at a position) keeps the array as it was', async () => {
      const src = `import jax
import jax.numpy as jnp


def step(cache_k, k, q, pos):
    cache_k = cache_k.at[:, pos].set(k)
    scores = q @ cache_k.T / jnp.sqrt(q.shape[-1])
    return jax.nn.softmax(scores, axis=-1)
`;
      assert.deepEqual(await att007(src), []);
    });
  });

  describe('cross-file: the scores come from a helper of another file, the fill is discarded in the caller', () => {
    const helper = `import math


def attention_scores(q, k):
    # q, k: (B, H, T, d)
    return q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
`;
    const caller = (stmt: string) => `import torch
from scores import attention_scores


def attend(q, k, v, mask):
    s = attention_scores(q, k)
    ${stmt}
    return torch.softmax(s, dim=-1) @ v
`;
    async function lintCaller(stmt: string): Promise<Finding[]> {
      const files = { 'scores.py': helper, 'model.py': caller(stmt) };
      const l = await createLinter(grammar(), { workspace: memoryWorkspace(files), onInternalError: (e) => assert.fail(String(e)) });
      return l.lintPython(files['model.py'], { path: 'model.py', select: ['ATT007'] });
    }

    it('discarded: one finding in the caller', async () => {
      const f = onlyDiscarded(await lintCaller('s.masked_fill(mask == 0, -1e9)'), 7);
      assert.match(f.message, /torch\.softmax normalises `s` unmasked/);
    });

    it('fixed (in place or assigned): none', async () => {
      assert.deepEqual(await lintCaller('s.masked_fill_(mask == 0, -1e9)'), []);
      assert.deepEqual(await lintCaller('s = s.masked_fill(mask == 0, -1e9)'), []);
    });
  });
});
