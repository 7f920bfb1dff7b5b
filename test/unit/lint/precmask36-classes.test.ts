// Session 36, prec-mask36 (path audit, /work/wt/briefs/prec-mask36-audit.md): ATT002's masking fills (masked_fill, an
// additive `m * -1e9` builder) no longer judge a polarity known only from a library name (`attention_mask`,
// `key_padding_mask`) because ANOTHER fill of the same file reads that name the conventional way. Inside a model one
// name holds the 2-D keep mask, the 4-D additive one and boolean masks of either meaning from function to function; the
// other fill is no data flow to this one, and the name decided which of the two was called wrong. What still counts at
// a fill: the mask's construction (here or in a caller, also in another file). Until session 48 the author's own second
// name for this very value stating the same meaning (`valid = attention_mask != 0`, then filled where valid) counted
// too; since then two names that agree are no more evidence than one (att002-names-only48.test.ts).
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

// scores: (B, H, S, S); attention_mask: (B, S).
const attend = (name: string, maskExpr: string, prelude = '') => `import math


def ${name}(q, k, v, attention_mask):
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))  # (B, H, S, S)
${prelude}    scores = scores.masked_fill(${maskExpr}, float("-inf"))
    return scores.softmax(-1) @ v
`;

describe('prec-mask36: a library mask name at a masking fill', () => {
  it('the tokenizer mask by its name stored under a keep name, then filled where True: silent since session 48 (names only)', async () => {
    const src = attend('attend', 'valid', '    valid = attention_mask[:, None, None, :] != 0\n');
    assert.deepEqual(await findingLines(src, 'ATT002'), []);
    const keep = attend('attend', 'keep_mask', '    keep_mask = attention_mask.bool()[:, None, None, :]\n');
    assert.deepEqual(await findingLines(keep, 'ATT002'), []);
  });

  it('fixed: the keep-named mask inverted before the fill: silent', async () => {
    const src = attend('attend', '~valid', '    valid = attention_mask[:, None, None, :] != 0\n');
    assert.deepEqual(await findingLines(src, 'ATT002'), []);
  });

  it('a second name that agrees with the fill (`pad = attention_mask == 0`) is no finding either way', async () => {
    const src = attend('attend', 'pad_mask', '    pad_mask = attention_mask[:, None, None, :] == 0\n');
    assert.deepEqual(await findingLines(src, 'ATT002'), []);
  });

  it('misleading correct form: two functions read `attention_mask` in opposite ways (a caller may pass either): silent', async () => {
    const conventional = attend('conventional', 'attention_mask[:, None, None, :] == 0');
    const inverted = attend('inverted', 'attention_mask[:, None, None, :].bool()').replace(/^import math\n\n/, '');
    assert.deepEqual(await findingLines(conventional + '\n' + inverted, 'ATT002'), []);
  });

  it('misleading correct form: additive builders reading the name both ways: silent', async () => {
    const src = `def encoder_bias(attention_mask, dtype):
    ext = attention_mask[:, None, None, :].to(dtype)  # (B, 1, 1, S)
    return (1.0 - ext) * -10000.0


def cross_bias(attention_mask, dtype):
    ext = attention_mask[:, None, None, :].to(dtype)  # (B, 1, 1, S)
    return ext * -10000.0


def attend(q, k, v, bias):
    s = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5 + bias  # (B, H, S, S)
    return s.softmax(-1) @ v


def cross(q, k, v, attention_mask):
    return attend(q, k, v, cross_bias(attention_mask, q.dtype))
`;
    assert.deepEqual(await findingLines(src, 'ATT002'), []);
  });

  it('a polarity known only from the name, alone: silent (unchanged)', async () => {
    assert.deepEqual(await findingLines(attend('attend', 'attention_mask[:, None, None, :].bool()'), 'ATT002'), []);
  });

  it('cross-file pair: the conventional fill in another file corroborates nothing; a caller in another file that builds the mask decides', async () => {
    const layers = attend('inverted', 'attention_mask[:, None, None, :].bool()');
    const other = attend('conventional', 'attention_mask[:, None, None, :] == 0');
    assert.deepEqual(await workspaceFindingLines({ 'layers.py': layers, 'other.py': other }, 'layers.py', 'ATT002'), []);
    const keepCaller = `from layers import inverted


def run(q, k, v, ids, pad_id):
    return inverted(q, k, v, ids != pad_id)
`;
    assert.deepEqual(await workspaceFindingLines({ 'layers.py': layers, 'run.py': keepCaller }, 'layers.py', 'ATT002'), [6]);
    const padCaller = keepCaller.replace('ids != pad_id', 'ids == pad_id');
    assert.deepEqual(await workspaceFindingLines({ 'layers.py': layers, 'run.py': padCaller }, 'layers.py', 'ATT002'), []);
  });
});

// q, k, v: (B, H, T, d); key_padding_mask: (B, T).
const sdpaHelper = `import torch.nn.functional as F


def fast_self_attention(q, k, v, key_padding_mask):
    return F.scaled_dot_product_attention(q, k, v, attn_mask=key_padding_mask[:, None, None, :])
`;
const mhaModule = `import torch.nn as nn


class CrossBlock(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.attn = nn.MultiheadAttention(dim, heads, batch_first=True)

    def forward(self, x, memory, key_padding_mask):
        return self.attn(x, memory, memory, key_padding_mask=key_padding_mask)[0]
`;

describe('prec-mask36: a library mask name at an API parameter, corroborated by another use', () => {
  it('the natural bug: one function hands key_padding_mask to SDPA on its fast path and fills where True on its slow path: reported', async () => {
    const src = `import torch.nn.functional as F


def attend(q, k, v, key_padding_mask, fused=True):
    if fused:
        return F.scaled_dot_product_attention(q, k, v, attn_mask=key_padding_mask[:, None, None, :])
    scores = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5  # (B, H, T, T)
    scores = scores.masked_fill(key_padding_mask[:, None, None, :], float("-inf"))
    return scores.softmax(dim=-1) @ v
`;
    assert.deepEqual(await findingLines(src, 'ATT002'), [6]);
    // fixed: the fast path inverts it.
    assert.deepEqual(await findingLines(src.replace('attn_mask=key_padding_mask', 'attn_mask=~key_padding_mask'), 'ATT002'), []);
  });

  it('misleading correct form: the name given to nn.MultiheadAttention in another module of the file: silent', async () => {
    const src = mhaModule + '\n\n' + sdpaHelper.replace(/^import torch\.nn\.functional as F\n\n\n/, 'import torch.nn.functional as F\n\n\n');
    assert.deepEqual(await findingLines(src, 'ATT002'), []);
  });

  it('cross-file pair: the MHA use in another file is no evidence; a caller in another file that flips the tokenizer mask is', async () => {
    assert.deepEqual(await workspaceFindingLines({ 'fast.py': sdpaHelper, 'blocks.py': mhaModule }, 'fast.py', 'ATT002'), []);
    const caller = `from fast import fast_self_attention


def run(q, k, v, ids, pad_id):
    return fast_self_attention(q, k, v, ids == pad_id)
`;
    assert.deepEqual(await workspaceFindingLines({ 'fast.py': sdpaHelper, 'run.py': caller }, 'fast.py', 'ATT002'), [5]);
  });

  it('two names of the code agreeing still count: the tokenizer mask flipped and stored as pad_mask, given to SDPA', async () => {
    const src = `import torch.nn.functional as F


def attend(q, k, v, attention_mask):
    pad_mask = (attention_mask == 0)[:, None, None, :]
    return F.scaled_dot_product_attention(q, k, v, attn_mask=pad_mask)
`;
    assert.deepEqual(await findingLines(src, 'ATT002'), [6]);
  });
});

// ATT007's half-precision evidence from prose: the dtype's bare name mentions it, a statement of how the code runs counts.
// scores: (B, H, S, S); a boolean padding mask filled with a constant below float16's minimum.
const fillMinus1e9 = (doc: string) => `import torch


def attend(q, k, v, pad):
    """${doc}"""
    scores = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5  # (B, H, S, S)
    scores = scores.masked_fill(pad[:, None, None, :], -1e9)
    return scores.softmax(-1) @ v
`;

describe('prec-mask36: ATT007 half precision read from prose', () => {
  it('a docstring that says the code runs with --fp16: reported (the natural bug)', async () => {
    assert.deepEqual(await findingLines(fillMinus1e9('q, k, v: (B, H, S, d), in the training dtype (half with --fp16).'), 'ATT007'), [7]);
  });
  it('fixed: the fill is torch.finfo(scores.dtype).min: silent', async () => {
    const src = fillMinus1e9('q, k, v: (B, H, S, d), in the training dtype (half with --fp16).').replace('-1e9)', 'torch.finfo(scores.dtype).min)');
    assert.deepEqual(await findingLines(src, 'ATT007'), []);
  });
  it('misleading correct forms: float16 only listed among accepted dtypes, or quoted from other code in a comment: silent', async () => {
    assert.deepEqual(
      await findingLines(fillMinus1e9('dtype: can be one of jax.numpy.float32, jax.numpy.float16 (on GPUs) and jax.numpy.bfloat16 (on TPUs).'), 'ATT007'),
      [],
    );
    const quoted = fillMinus1e9('Attention.').replace('def attend', '# Llama does x.to(float16) * w whilst Gemma2 is (x * w).to(float16)\ndef attend');
    assert.deepEqual(await findingLines(quoted, 'ATT007'), []);
  });
  it('cross-file pair: a trainer importing the module runs it under autocast: reported with the dtype name only in prose here', async () => {
    const model = fillMinus1e9('dtype: float32 or float16.');
    const train = `import torch
from model import attend


def step(q, k, v, pad):
    with torch.autocast("cuda"):
        return attend(q, k, v, pad)
`;
    assert.deepEqual(await workspaceFindingLines({ 'model.py': model, 'train.py': train }, 'model.py', 'ATT007'), [7]);
    assert.deepEqual(await workspaceFindingLines({ 'model.py': model, 'other.py': 'x = 1\n' }, 'model.py', 'ATT007'), []);
  });
});
