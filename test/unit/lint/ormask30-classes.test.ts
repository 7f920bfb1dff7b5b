// ATT002 classes of session 30 (ormask30): masks combined from a causal part and a padding part with the operator of
// the wrong polarity, written from the APIs' documented conventions (none copied from a repository). Keep masks
// combine with and (`&`, `*`, `torch.minimum`, `logical_and`), ignore masks with or (`|`, `+` read as nonzero,
// `maximum`, `logical_or`); one of each joined without inverting one is wrong whatever reads it. A union of keep masks
// attends every non-padding future key (the decoder is no longer causal). Each wrong form is reported once, on the
// combination's line; each correct form is silent. A prefix LM (`causal | prefix` over the prefix's columns) and
// masks of opposite meanings joined after one is inverted are correct.
import { strict as assert } from 'node:assert';
import { findingLines, linter, workspaceFindingLines } from './helpers';

const att002 = (src: string): Promise<number[]> => findingLines(src, 'ATT002');
/** The 1-based lines of `src` marked `# wrong` (where the finding must be). */
const marked = (src: string): number[] => src.split('\n').flatMap((l, i) => (l.includes('# wrong') ? [i + 1] : []));
const wrong = async (src: string): Promise<void> => assert.deepEqual(await att002(src), marked(src), src);
const right = async (src: string): Promise<void> => assert.deepEqual(await att002(src), [], src);

/** PyTorch: a causal part, a padding part, their combination `op(c, p)`, and a consumer of `m`. */
function torchProgram(causal: string, pad: string, combine: string, consumer: string, mark = ''): string {
  return `import torch
import torch.nn as nn
import torch.nn.functional as F


def attend(q, k, v, ids, lengths, pad_id):
    T = ids.shape[1]
    c = ${causal}
    p = ${pad}
    m = ${combine}${mark}
${consumer}
`;
}

const KEEP_CAUSAL = 'torch.tril(torch.ones(T, T, dtype=torch.bool, device=ids.device))[None, None]';
const IGNORE_CAUSAL = 'torch.triu(torch.ones(T, T, dtype=torch.bool, device=ids.device), diagonal=1)[None, None]';
/** Padding parts built from padding: token ids against the padding id, lengths. */
const KEEP_PADS = [
  '(ids != pad_id)[:, None, None, :]',
  '(torch.arange(T, device=ids.device)[None, :] < lengths[:, None])[:, None, None, :]',
  'ids.ne(pad_id)[:, None, None, :]',
];
const IGNORE_PADS = [
  '(ids == pad_id)[:, None, None, :]',
  '(torch.arange(T, device=ids.device)[None, :] >= lengths[:, None])[:, None, None, :]',
  'ids.eq(pad_id)[:, None, None, :]',
];

const FILL_KEEP = `    s = (q @ k.transpose(-2, -1)) / q.shape[-1] ** 0.5
    s = s.masked_fill(m == 0, float('-inf'))
    return s.softmax(dim=-1) @ v`;
const SDPA = '    return F.scaled_dot_product_attention(q, k, v, attn_mask=m)';
const FILL_IGNORE = `    s = (q @ k.transpose(-2, -1)) / q.shape[-1] ** 0.5
    s = s.masked_fill(m, float('-inf'))
    return s.softmax(dim=-1) @ v`;
const ADDITIVE_IGNORE = `    s = (q @ k.transpose(-2, -1)) / q.shape[-1] ** 0.5
    s = s + m.float() * -1e9
    return s.softmax(dim=-1) @ v`;

const AND_FORMS = ['c & p', 'c * p', 'torch.minimum(c, p)', 'torch.logical_and(c, p)', 'c.logical_and(p)'];
const OR_FORMS = ['c | p', 'torch.maximum(c, p)', 'torch.logical_or(c, p)', 'c.logical_or(p)'];

describe('ATT002: keep masks joined with or, ignore masks with and (ormask30)', () => {
  it('PyTorch keep masks: every or is reported at the combination, every and is silent (masked_fill(m == 0), SDPA)', async () => {
    for (const pad of KEEP_PADS)
      for (const consumer of [FILL_KEEP, SDPA]) {
        for (const op of OR_FORMS) await wrong(torchProgram(KEEP_CAUSAL, pad, op, consumer, '  # wrong'));
        for (const op of AND_FORMS) await right(torchProgram(KEEP_CAUSAL, pad, op, consumer));
      }
  });

  it('PyTorch keep masks summed: `c + p` read as nonzero is their union (reported), their product silent', async () => {
    const c = 'torch.tril(torch.ones(T, T, device=ids.device))[None, None]';
    await wrong(torchProgram(c, '(ids != pad_id).long()[:, None, None, :]', 'c + p', FILL_KEEP, '  # wrong'));
    await wrong(torchProgram(c, '(ids != pad_id).long()[:, None, None, :]', '(c + p) > 0', SDPA, '  # wrong'));
    await right(torchProgram(c, '(ids != pad_id).long()[:, None, None, :]', 'c * p', FILL_KEEP));
  });

  it('PyTorch ignore masks: every and is reported, every or (and a sum read as nonzero) is silent', async () => {
    for (const pad of IGNORE_PADS)
      for (const consumer of [FILL_IGNORE, ADDITIVE_IGNORE]) {
        for (const op of AND_FORMS) await wrong(torchProgram(IGNORE_CAUSAL, pad, op, consumer, '  # wrong'));
        for (const op of [...OR_FORMS, '(c.long() + p.long()) > 0']) await right(torchProgram(IGNORE_CAUSAL, pad, op, consumer));
      }
    // nn.MultiheadAttention reads a boolean attn_mask as True = ignore.
    const mha = `    mha = nn.MultiheadAttention(64, 4, batch_first=True)
    return mha(q, k, v, attn_mask=m[0, 0])[0]`;
    await wrong(torchProgram(IGNORE_CAUSAL, IGNORE_PADS[0], 'c & p', mha, '  # wrong'));
    await right(torchProgram(IGNORE_CAUSAL, IGNORE_PADS[0], 'c | p', mha));
  });

  it('one keep and one ignore part joined with any operator is reported; inverted first it is silent', async () => {
    for (const op of [...AND_FORMS, ...OR_FORMS]) {
      await wrong(torchProgram(KEEP_CAUSAL, IGNORE_PADS[0], op, FILL_IGNORE, '  # wrong'));
      await wrong(torchProgram(IGNORE_CAUSAL, KEEP_PADS[0], op, SDPA, '  # wrong'));
    }
    // `~pad | causal_ignore`, `causal_keep & ~pad_ignore`: one part inverted before the join.
    await right(torchProgram(IGNORE_CAUSAL, KEEP_PADS[0], '~p | c', FILL_IGNORE));
    await right(torchProgram(KEEP_CAUSAL, IGNORE_PADS[0], 'c & ~p', SDPA));
    await right(torchProgram(KEEP_CAUSAL, IGNORE_PADS[0], 'torch.logical_and(c, torch.logical_not(p))', FILL_KEEP));
  });

  it('a union of keep masks read the other way round is the polarity finding, reported once at the use', async () => {
    const src = torchProgram(KEEP_CAUSAL, KEEP_PADS[0], 'c | p', FILL_IGNORE);
    assert.deepEqual(await att002(src), [12]);
  });

  it('a prefix LM (causal | prefix columns) is correct; so is a padding mask known only by its name', async () => {
    const prefix = (p: string): string => `import torch
import torch.nn.functional as F


def attend(q, k, v, prefix_len):
    T = q.shape[-2]
    causal = torch.tril(torch.ones(T, T, dtype=torch.bool, device=q.device))
    ${p}
    m = causal | prefix
    return F.scaled_dot_product_attention(q, k, v, attn_mask=m)
`;
    await right(prefix('prefix = torch.arange(T, device=q.device)[None, :] < prefix_len'));
    await right(prefix('prefix = (torch.arange(T, device=q.device)[None, :] < prefix_len[:, None])[:, None, None, :]'));
    await right(
      prefix(`prefix = torch.zeros(T, T, dtype=torch.bool, device=q.device)
    prefix[:, :prefix_len] = True`),
    );
    await right(`import torch
import torch.nn.functional as F


def attend(q, k, v, attention_mask):
    T = q.shape[-2]
    causal = torch.tril(torch.ones(T, T, dtype=torch.bool, device=q.device))
    m = causal | attention_mask[:, None, None, :].bool()
    return F.scaled_dot_product_attention(q, k, v, attn_mask=m)
`);
  });

  it('padding written per example up to its length, and a tokenizer attention_mask, joined with or: reported', async () => {
    const loop = (op: string, mark = ''): string => `import torch
import torch.nn.functional as F


def attend(q, k, v, lengths):
    B, T = q.shape[0], q.shape[-2]
    causal = torch.tril(torch.ones(T, T, dtype=torch.bool, device=q.device))
    pad = torch.zeros(B, T, dtype=torch.bool, device=q.device)
    for i in range(B):
        pad[i, :lengths[i]] = True
    m = causal[None, None] ${op} pad[:, None, None, :]${mark}
    return F.scaled_dot_product_attention(q, k, v, attn_mask=m)
`;
    await wrong(loop('|', '  # wrong'));
    await right(loop('&'));
    const tok = (op: string, mark = ''): string => `import torch
import torch.nn.functional as F
from transformers import AutoTokenizer

tokenizer = AutoTokenizer.from_pretrained("gpt2")


def attend(q, k, v, texts):
    enc = tokenizer(texts, padding=True, return_tensors="pt")
    T = enc["input_ids"].shape[1]
    causal = torch.tril(torch.ones(T, T, dtype=torch.bool))
    m = causal[None, None] ${op} enc["attention_mask"].bool()[:, None, None, :]${mark}
    return F.scaled_dot_product_attention(q, k, v, attn_mask=m)
`;
    await wrong(tok('|', '  # wrong'));
    await right(tok('&'));
  });

  it('a causal mask joined with a mask of the queries (padding rows left unmasked on purpose) is silent', async () => {
    await right(torchProgram(IGNORE_CAUSAL, '(ids != pad_id)[:, None, :, None]', 'c & p', FILL_IGNORE));
    await right(torchProgram(KEEP_CAUSAL, '(ids == pad_id)[:, None, :, None]', 'c | p', SDPA));
  });

  it('a combination nothing reads, or two padding masks joined by or, is silent', async () => {
    await right(torchProgram(KEEP_CAUSAL, KEEP_PADS[0], 'c | p', '    return m'));
    await right(torchProgram('(ids != 0)[:, None, None, :]', KEEP_PADS[0], 'c & p', SDPA));
  });

  it('additive masks: a causal and a padding bias added, or their minimum, are silent', async () => {
    const add = (combine: string): string => `import torch
import torch.nn.functional as F


def attend(q, k, v, ids, pad_id):
    T = ids.shape[1]
    c = torch.triu(torch.full((T, T), float('-inf'), device=q.device), diagonal=1)
    p = torch.zeros(ids.shape, device=q.device).masked_fill(ids == pad_id, float('-inf'))[:, None, None, :]
    m = ${combine}
    return F.scaled_dot_product_attention(q, k, v, attn_mask=m)
`;
    await right(add('c + p'));
    await right(add('torch.minimum(c, p)'));
  });

  it('TensorFlow: a look-ahead triangle written as a keep mask joined by tf.maximum with an ignore padding mask', async () => {
    const tf = (lookAhead: string, mark = ''): string => `import tensorflow as tf


def look_ahead_mask(size):
    return ${lookAhead}


def padding_mask(seq):
    return tf.cast(tf.math.equal(seq, 0), tf.float32)[:, tf.newaxis, tf.newaxis, :]


def attention(q, k, v, input_ids):
    mask = tf.maximum(padding_mask(input_ids), look_ahead_mask(tf.shape(input_ids)[1]))${mark}
    logits = tf.matmul(q, k, transpose_b=True) / tf.math.sqrt(tf.cast(tf.shape(k)[-1], tf.float32))
    logits += mask * -1e9
    return tf.matmul(tf.nn.softmax(logits, axis=-1), v)
`;
    await right(tf('1 - tf.linalg.band_part(tf.ones((size, size)), -1, 0)'));
    await wrong(tf('tf.linalg.band_part(tf.ones((size, size)), -1, 0)', '  # wrong'));
  });

  it('JAX / Flax: logical_or of two keep masks given to dot_product_attention is reported, logical_and silent', async () => {
    const jax = (op: string, mark = ''): string => `import jax.numpy as jnp
import flax.linen as nn


def attend(q, k, v, ids, pad_id):
    T = ids.shape[1]
    causal = jnp.tril(jnp.ones((T, T), dtype=bool))
    pad = ids != pad_id
    mask = ${op}(causal[None, None], pad[:, None, None, :])${mark}
    return nn.dot_product_attention(q, k, v, mask=mask)
`;
    await wrong(jax('jnp.logical_or', '  # wrong'));
    await wrong(jax('jnp.maximum', '  # wrong'));
    await right(jax('jnp.logical_and'));
    await right(jax('jnp.minimum'));
  });

  it('the finding names the combination, both parts as related locations and the use', async () => {
    const src = torchProgram(KEEP_CAUSAL, KEEP_PADS[0], 'c | p', SDPA);
    const f = (await linter()).lintPython(src).filter((x) => x.code === 'ATT002');
    assert.equal(f.length, 1);
    assert.match(f[0].message, /union of two keep masks keeps every key either keeps/);
    assert.deepEqual(
      f[0].related?.map((r) => r.line),
      [8, 9, 11],
    );
  });

  it('cross-file: parts built by helpers of another file, joined here, are judged here; joined there and returned, not', async () => {
    const masks = `import torch


def causal_mask(T, device=None):
    return torch.tril(torch.ones(T, T, dtype=torch.bool, device=device))


def pad_mask(ids, pad_id):
    return ids != pad_id


def decoder_mask(ids, pad_id):
    T = ids.shape[1]
    return causal_mask(T, ids.device)[None, None] | pad_mask(ids, pad_id)[:, None, None, :]
`;
    const model = (combine: string): string => `import torch.nn.functional as F
from masks import causal_mask, decoder_mask, pad_mask


def attend(q, k, v, ids, pad_id):
    m = ${combine}
    return F.scaled_dot_product_attention(q, k, v, attn_mask=m)
`;
    const files = (c: string): Record<string, string> => ({ 'masks.py': masks, 'model.py': model(c) });
    assert.deepEqual(
      await workspaceFindingLines(files('causal_mask(ids.shape[1])[None, None] | pad_mask(ids, pad_id)[:, None, None, :]'), 'model.py', 'ATT002'),
      [6],
    );
    assert.deepEqual(
      await workspaceFindingLines(files('causal_mask(ids.shape[1])[None, None] & pad_mask(ids, pad_id)[:, None, None, :]'), 'model.py', 'ATT002'),
      [],
    );
    // The combination is in masks.py, where nothing reads it: reported where model.py reads it, at the call (session 31,
    // leftovers31: the join crosses the file with its parts; the combination in masks.py is a related location).
    assert.deepEqual(await workspaceFindingLines(files('decoder_mask(ids, pad_id)'), 'model.py', 'ATT002'), [6]);
  });
});
