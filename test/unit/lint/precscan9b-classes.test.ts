// Classes of correct code found by the false-positive scan of session 29 on encoder-decoder translation and seq2seq
// transformers, Whisper/T5 from scratch and relative-position attention
// (test/lint-scan/results/2026-12-05-scan-precscan9b.md), written fresh, each with its buggy form, which must still be
// reported.
//  1. ATT007: float16's own limits (`np.finfo(np.float16).min`, `torch.finfo(torch.half).min`, `tf.float16.min`) kept
//     as the fill for float16 data say the code supports half precision, not that it runs in it: a -1e9 fill elsewhere
//     in the file is not below the range of anything the code shows. Code that does run in float16 (`.half()`,
//     autocast, an importer's GradScaler) is still reported.
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

const TF_UTILS = `import numpy as np
import tensorflow as tf

NEG_INF_FP32 = -1e9
NEG_INF_FP16 = np.finfo(np.float16).min


def causal_bias(length, dtype=tf.float32):
    neg_inf = NEG_INF_FP16 if dtype == tf.float16 else NEG_INF_FP32
    band = tf.linalg.band_part(tf.ones([length, length], dtype=dtype), -1, 0)
    return neg_inf * (1.0 - band)[None, None]


def padding_bias(ids, pad_id=0):
    pad = tf.cast(tf.equal(ids, pad_id), tf.float32)
    bias = pad * NEG_INF_FP32
    return bias[:, None, None, :]


def attend(q, k, v, pad):
    logits = tf.matmul(q, k, transpose_b=True)
    logits = tf.where(pad[:, None, None, :], -1e9, logits)
    return tf.matmul(tf.nn.softmax(logits, axis=-1), v)
`;

const TORCH_ATTN = `import math
import torch
import torch.nn.functional as F

FP16_MIN = torch.finfo(torch.half).min


def attend(q, k, v, pad):
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
    fill = FP16_MIN if scores.dtype == torch.float16 else -1e9
    scores = scores.masked_fill(pad, -1e9)
    return F.softmax(scores, dim=-1) @ v
`;

describe('lint: float16 limits kept for float16 data are no evidence the file runs in float16 (ATT007)', () => {
  it('TensorFlow: NEG_INF_FP16 = np.finfo(np.float16).min beside a -1e9 padding bias: silent', async () => {
    assert.deepEqual(await findingLines(TF_UTILS, 'ATT007'), []);
  });
  it('TensorFlow: tf.float16.min spelled as the limit: silent', async () => {
    const src = TF_UTILS.replace('np.finfo(np.float16).min', 'tf.float16.min');
    assert.deepEqual(await findingLines(src, 'ATT007'), []);
  });
  it('PyTorch: torch.finfo(torch.half).min kept as a constant beside masked_fill(pad, -1e9): silent', async () => {
    assert.deepEqual(await findingLines(TORCH_ATTN, 'ATT007'), []);
  });
  it('buggy: the same TensorFlow file setting the mixed_float16 policy is reported at the -1e9 fill of the logits', async () => {
    const src = TF_UTILS.replace('NEG_INF_FP32 = -1e9\n', 'NEG_INF_FP32 = -1e9\ntf.keras.mixed_precision.set_global_policy("mixed_float16")\n');
    assert.deepEqual(await findingLines(src, 'ATT007'), [23]);
  });
  it('buggy: the PyTorch file calling .half() on its inputs is reported', async () => {
    const src = TORCH_ATTN.replace('def attend(q, k, v, pad):\n', 'def attend(q, k, v, pad):\n    q, k, v = q.half(), k.half(), v.half()\n');
    assert.deepEqual(await findingLines(src, 'ATT007'), [12]);
  });
  it('cross-file buggy: a trainer importing it with autocast and GradScaler is still the evidence', async () => {
    const train = `import torch
from model.attn import attend

scaler = torch.cuda.amp.GradScaler()


def step(q, k, v, pad):
    with torch.autocast("cuda"):
        return attend(q, k, v, pad)
`;
    const files = { 'model/__init__.py': '', 'model/attn.py': TORCH_ATTN, 'train.py': train };
    assert.deepEqual(await workspaceFindingLines(files, 'model/attn.py', 'ATT007'), [11]);
  });
});

//  2. ATT006: a product of the scores with a mask known only by its name, in an `if gate_mask is not None:` (or
//     `!= None`) arm, reached through a wrapper that passes its own `gate_mask=None` on: where the wrapper's callers in
//     view leave the mask out, no call in view takes that arm (a product with None never runs). The attention function
//     with no caller in view, or a caller passing a real 0/1 mask, is still reported.
const GATED = `import math
import torch
import torch.nn.functional as F


def attention(q, k, v, pad_mask=None, gate_mask=None):
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
    if gate_mask is not None:
        scores = scores * gate_mask
    if pad_mask is not None:
        scores = scores.masked_fill(pad_mask, float("-inf"))
    weights = F.softmax(scores, dim=-1)
    return weights @ v


def encoder(x, pad_mask=None, gate_mask=None):
    for _ in range(2):
        x = attention(x, x, x, pad_mask=pad_mask, gate_mask=gate_mask)
    return x


class Model:
    def __init__(self, x, ids):
        self.out = encoder(x, pad_mask=(ids == 0)[:, None, None, :])
`;

describe('lint: scores times a mask in an arm that no call in view takes (ATT006)', () => {
  it('the wrapper passes gate_mask on and its caller leaves it out: silent', async () => {
    assert.deepEqual(await findingLines(GATED, 'ATT006'), []);
  });
  it('the same with the arm written `if gate_mask != None:`: silent', async () => {
    assert.deepEqual(await findingLines(GATED.replace('if gate_mask is not None:', 'if gate_mask != None:'), 'ATT006'), []);
  });
  it('the caller passing gate_mask=None explicitly: silent', async () => {
    const src = GATED.replace('pad_mask=(ids == 0)[:, None, None, :])', 'pad_mask=(ids == 0)[:, None, None, :], gate_mask=None)');
    assert.deepEqual(await findingLines(src, 'ATT006'), []);
  });
  it('buggy: the caller passes a 0/1 keep mask for gate_mask: reported at the product', async () => {
    const src = GATED.replace('pad_mask=(ids == 0)[:, None, None, :])', 'gate_mask=(ids != 0).float()[:, None, None, :])');
    assert.deepEqual(await findingLines(src, 'ATT006'), [9]);
  });
  it('buggy: the attention function with no caller in view is reported (the mask may be anything a caller passes)', async () => {
    const src = GATED.slice(0, GATED.indexOf('\n\ndef encoder'));
    assert.deepEqual(await findingLines(src + '\n', 'ATT006'), [9]);
  });
  it('buggy: the wrapper with no caller in view is reported (its gate_mask is open)', async () => {
    const src = GATED.slice(0, GATED.indexOf('\n\nclass Model'));
    assert.deepEqual(await findingLines(src + '\n', 'ATT006'), [9]);
  });
  it('cross-file buggy: a model file importing the attention and passing a 0/1 mask: the attention file is reported', async () => {
    const attn = GATED.slice(0, GATED.indexOf('\n\ndef encoder')) + '\n';
    const model = `from layers.attn import attention


def block(x, ids):
    return attention(x, x, x, gate_mask=(ids != 0).float()[:, None, None, :])
`;
    const files = { 'layers/__init__.py': '', 'layers/attn.py': attn, 'model.py': model };
    assert.deepEqual(await workspaceFindingLines(files, 'layers/attn.py', 'ATT006'), [9]);
  });
  // The wrapper called from another file: a call whose every argument is known passes the defaults of those it leaves
  // out, as a call in the same file does.
  const WRAPPERS = GATED.slice(0, GATED.indexOf('\n\nclass Model')) + '\n';
  it('cross-file: a model file calls the wrapper leaving gate_mask out: silent', async () => {
    const model = `import torch
from layers import attn


def build(x, ids):
    return attn.encoder(x, pad_mask=(ids == 0)[:, None, None, :])
`;
    const files = { 'layers/__init__.py': '', 'layers/attn.py': WRAPPERS, 'model.py': model };
    assert.deepEqual(await workspaceFindingLines(files, 'layers/attn.py', 'ATT006'), []);
  });
  it('cross-file buggy: the model file passes a 0/1 keep mask to the wrapper: reported', async () => {
    const model = `import torch
from layers import attn


def build(x, ids):
    return attn.encoder(x, gate_mask=(ids != 0).float()[:, None, None, :])
`;
    const files = { 'layers/__init__.py': '', 'layers/attn.py': WRAPPERS, 'model.py': model };
    assert.deepEqual(await workspaceFindingLines(files, 'layers/attn.py', 'ATT006'), [9]);
  });
});

//  3. ATT002 (and every rule reading masking fills): a fill chosen by dtype, a large negative number on one path and
//     another (or a dtype's minimum) on the other (`NEG_INF_FP16 if dtype == tf.float16 else NEG_INF_FP32`, THUMT's
//     `if dtype != tf.float32: inf = dtype.min`), masks whichever path runs: an additive mask built with it is read as
//     one, so a keep band or keep mask turned additive the wrong way round is reported, and the right way is silent.
const TF_BIAS = `import numpy as np
import tensorflow as tf

NEG_INF_FP32 = -1e9
NEG_INF_FP16 = np.finfo(np.float16).min


def decoder_bias(length, dtype=tf.float32):
    neg_inf = NEG_INF_FP16 if dtype == tf.float16 else NEG_INF_FP32
    valid = tf.linalg.band_part(tf.ones([length, length], dtype=dtype), -1, 0)
    valid = tf.reshape(valid, [1, 1, length, length])
    return neg_inf * (1.0 - valid)


def attention_bias(inputs, mode, inf=-1e9, dtype=None):
    if dtype is None:
        dtype = tf.float32
    if dtype != tf.float32:
        inf = dtype.min
    if mode == "masking":
        ret = (1.0 - inputs) * inf
        return tf.expand_dims(tf.expand_dims(ret, 1), 1)
    raise ValueError(mode)


def attend(q, k, v, bias):
    q = q * (q.shape[-1] ** -0.5)
    logits = tf.matmul(q, k, transpose_b=True)
    logits += bias
    return tf.matmul(tf.nn.softmax(logits), v)


def decode(q, k, v, length):
    return attend(q, k, v, decoder_bias(length))


def encode(q, k, v, ids, lengths):
    keep = tf.sequence_mask(lengths, maxlen=tf.shape(ids)[1], dtype=tf.float32)
    return attend(q, k, v, attention_bias(keep, "masking"))
`;

describe('lint: a masking fill chosen by dtype still masks (ATT002)', () => {
  it('the lower band and the sequence keep mask turned additive: silent', async () => {
    assert.deepEqual(await findingLines(TF_BIAS, 'ATT002'), []);
  });
  it('buggy: the upper band (future positions kept) with the dtype-chosen fill is reported', async () => {
    assert.deepEqual(await findingLines(TF_BIAS.replace('dtype=dtype), -1, 0)', 'dtype=dtype), 0, -1)'), 'ATT002'), [12]);
  });
  it('buggy: a padding mask (1 at padding) given where the keep mask goes, with THUMT-style fill, is reported', async () => {
    const src = TF_BIAS.replace('keep = tf.sequence_mask(lengths, maxlen=tf.shape(ids)[1], dtype=tf.float32)', 'keep = tf.cast(tf.equal(ids, 0), tf.float32)');
    assert.deepEqual(await findingLines(src, 'ATT002'), [21]);
  });
  it('a fill that is -1e9 on one path and a small number on the other is no masking fill: silent', async () => {
    const src = TF_BIAS.replace(
      'neg_inf = NEG_INF_FP16 if dtype == tf.float16 else NEG_INF_FP32',
      'neg_inf = -1e-3 if dtype == tf.float16 else NEG_INF_FP32',
    ).replace('dtype=dtype), -1, 0)', 'dtype=dtype), 0, -1)');
    assert.deepEqual(await findingLines(src, 'ATT002'), []);
  });
});

//  4. ATT002: two 0/1 masks of one meaning added (`(pad_mask + subsequent_mask).gt(0)`, the most copied PyTorch
//     translation transformer's form) are nonzero where either is: `> 0`, `.gt(0)`, `!= 0`, `.bool()` or the sum used as
//     is read as their or, `== 0` as its flip; `== 1` (exactly one) and `1 - sum` are no logical reading and stay silent.
const SUMMED = `import numpy as np
import torch
import torch.nn as nn

PAD = 0


def key_pad_mask(seq_k, seq_q):
    pad = seq_k.eq(PAD)
    return pad.unsqueeze(1).expand(-1, seq_q.size(1), -1)


def subsequent_mask(seq):
    b, n = seq.size()
    sub = torch.triu(torch.ones((n, n), device=seq.device, dtype=torch.uint8), diagonal=1)
    return sub.unsqueeze(0).expand(b, -1, -1)


class Attention(nn.Module):
    def __init__(self, d_k):
        super().__init__()
        self.temperature = np.power(d_k, 0.5)

    def forward(self, q, k, v, mask=None):
        attn = torch.bmm(q, k.transpose(1, 2)) / self.temperature
        if mask is not None:
            attn = attn.masked_fill(mask, -np.inf)
        return torch.bmm(torch.softmax(attn, dim=2), v)


class Decoder(nn.Module):
    def __init__(self, d_k):
        super().__init__()
        self.attn = Attention(d_k)

    def forward(self, tgt_seq, q, k, v):
        slf_mask = (key_pad_mask(tgt_seq, tgt_seq) + subsequent_mask(tgt_seq)).gt(0)
        return self.attn(q, k, v, mask=slf_mask)
`;

describe('lint: the sum of two masks of one meaning is their or (ATT002)', () => {
  const combined = (expr: string): string =>
    SUMMED.replace(
      '(key_pad_mask(tgt_seq, tgt_seq) + subsequent_mask(tgt_seq)).gt(0)',
      expr.replace(/PAD_M/g, 'key_pad_mask(tgt_seq, tgt_seq)').replace(/SUB_M/g, 'subsequent_mask(tgt_seq)'),
    );
  for (const expr of [
    '(PAD_M + SUB_M).gt(0)',
    '(PAD_M + SUB_M) > 0',
    'torch.gt(PAD_M + SUB_M, 0)',
    '(PAD_M.byte() + SUB_M).bool()',
    'PAD_M + SUB_M',
    '(PAD_M + SUB_M) != 0',
  ]) {
    it(`padding and future positions, \`${expr}\`: silent`, async () => {
      assert.deepEqual(await findingLines(combined(expr), 'ATT002'), []);
    });
  }
  it('keep masks summed and compared `== 0`: True where neither keeps, the union of the keep masks flipped', async () => {
    // Its polarity fits masked_fill, but the union of a causal and a padding keep mask hides the future only at the
    // padding: reported at the combination (ormask30); their product flipped is the right form.
    assert.deepEqual(await findingLines(combined('(PAD_M.eq(0) + SUB_M.eq(0)).eq(0)'), 'ATT002'), [37]);
    assert.deepEqual(await findingLines(combined('(PAD_M.eq(0) * SUB_M.eq(0)).eq(0)'), 'ATT002'), []);
  });
  it('buggy: the sum compared `.eq(0)` (True where neither masks) is reported at the fill', async () => {
    assert.deepEqual(await findingLines(combined('(PAD_M + SUB_M).eq(0)'), 'ATT002'), [27]);
  });
  it('buggy: two keep masks summed and compared `.gt(0)` is reported at the fill', async () => {
    assert.deepEqual(await findingLines(combined('(PAD_M.eq(0) + SUB_M.eq(0)).gt(0)'), 'ATT002'), [27]);
  });
  it('`== 1` (exactly one of them) and `1 - sum` are no logical reading: silent', async () => {
    assert.deepEqual(await findingLines(combined('(PAD_M + SUB_M) == 1'), 'ATT002'), []);
    assert.deepEqual(await findingLines(combined('1 - (PAD_M + SUB_M)'), 'ATT002'), []);
  });
  it('masks of different meanings summed: a causal and a padding part, reported at the combination (ormask30)', async () => {
    assert.deepEqual(await findingLines(combined('(PAD_M + SUB_M.eq(0)).gt(0)'), 'ATT002'), [37]);
  });
});
