// ATT002 classes of session 29. First the correct forms of mask polarity the way real code writes them (each must stay
// silent, with its inverted twin reported where the evidence is in the code), then the classes of the brief: a mask
// made float by `.to(x.dtype)` / `.type_as(x)` / `.to(x)`, Keras masks, and the TF fix title. Every program is written
// here from the APIs' documented conventions; none is copied from a repository.
import { strict as assert } from 'node:assert';
import { applyFixes, findingLines, linter, workspaceFindingLines } from './helpers';

const att002 = (src: string): Promise<number[]> => findingLines(src, 'ATT002');
const att002In = (files: Record<string, string>, path: string): Promise<number[]> => workspaceFindingLines(files, path, 'ATT002');

describe('ATT002 correct forms stay silent (session 29)', () => {
  it('a keep mask from a collate function turned additive with (1.0 - m) * finfo(dtype).min', async () => {
    const src = (bias: string): string => `import torch
import torch.nn as nn
from torch.nn.utils.rnn import pad_sequence
from torch.utils.data import DataLoader


def collate(batch, pad_id=0):
    ids = pad_sequence([torch.tensor(b) for b in batch], batch_first=True, padding_value=pad_id)
    return {"input_ids": ids, "attention_mask": (ids != pad_id).long()}


class SelfAttention(nn.Module):
    def __init__(self, d_model=64, n_heads=4):
        super().__init__()
        self.h = n_heads
        self.qkv = nn.Linear(d_model, 3 * d_model)

    def forward(self, x, attention_mask):
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.h, C // self.h).permute(2, 0, 3, 1, 4)
        scores = q @ k.transpose(-2, -1) / (C // self.h) ** 0.5
        bias = ${bias}
        scores = scores + bias
        return (scores.softmax(dim=-1) @ v).transpose(1, 2).reshape(B, T, C)


def train(dataset, vocab):
    embed = nn.Embedding(vocab, 64)
    model = SelfAttention()
    for batch in DataLoader(dataset, batch_size=8, collate_fn=collate):
        model(embed(batch["input_ids"]), batch["attention_mask"]).sum().backward()
`;
    assert.deepEqual(await att002(src('(1.0 - attention_mask[:, None, None, :].to(x.dtype)) * torch.finfo(x.dtype).min')), []);
    assert.deepEqual(await att002(src('attention_mask[:, None, None, :].to(x.dtype) * torch.finfo(x.dtype).min')), [22]);
  });

  it('an HF keep mask turned additive for SDPA: (1.0 - m) * finfo(dtype).min', async () => {
    const src = (bias: string): string => `import torch
import torch.nn.functional as F


def attend(q, k, v, attention_mask):
    """attention_mask: (B, S), 1 for tokens to attend to, 0 for padding."""
    bias = ${bias}
    return F.scaled_dot_product_attention(q, k, v, attn_mask=bias)
`;
    assert.deepEqual(await att002(src('(1.0 - attention_mask[:, None, None, :].to(q.dtype)) * torch.finfo(q.dtype).min')), []);
    assert.deepEqual(await att002(src('attention_mask[:, None, None, :].to(q.dtype) * torch.finfo(q.dtype).min')), [7]);
  });

  it('~ of an ignore mask given to SDPA; key_padding_mask=src == pad to nn.MultiheadAttention', async () => {
    const src = (sdpa: string, kpm: string): string => `import torch
import torch.nn as nn
import torch.nn.functional as F


class Encoder(nn.Module):
    def __init__(self, vocab, d_model=64, n_heads=4, pad_idx=1):
        super().__init__()
        self.pad_idx = pad_idx
        self.embed = nn.Embedding(vocab, d_model, padding_idx=pad_idx)
        self.mha = nn.MultiheadAttention(d_model, n_heads, batch_first=True)

    def forward(self, src, q, k, v):
        pad = src == self.pad_idx
        fast = F.scaled_dot_product_attention(q, k, v, attn_mask=${sdpa})
        x = self.embed(src)
        slow, _ = self.mha(x, x, x, key_padding_mask=${kpm})
        return fast, slow
`;
    assert.deepEqual(await att002(src('~pad[:, None, None, :]', 'src == self.pad_idx')), []);
    assert.deepEqual(await att002(src('pad[:, None, None, :]', 'src != self.pad_idx')), [15, 17]);
  });

  it("nn.Transformer's src_key_padding_mask, memory_key_padding_mask and tgt_mask", async () => {
    const src = (pad: string): string => `import torch
import torch.nn as nn


class Seq2Seq(nn.Module):
    def __init__(self, vocab, d_model=64, pad_idx=0):
        super().__init__()
        self.pad_idx = pad_idx
        self.embed = nn.Embedding(vocab, d_model)
        self.transformer = nn.Transformer(d_model, nhead=4, batch_first=True)

    def forward(self, src, tgt):
        src_pad = ${pad}
        tgt_pad = tgt == self.pad_idx
        tgt_mask = self.transformer.generate_square_subsequent_mask(tgt.size(1)).to(src.device)
        return self.transformer(
            self.embed(src),
            self.embed(tgt),
            tgt_mask=tgt_mask,
            src_key_padding_mask=src_pad,
            tgt_key_padding_mask=tgt_pad,
            memory_key_padding_mask=src_pad,
        )
`;
    assert.deepEqual(await att002(src('src == self.pad_idx')), []);
    assert.deepEqual(await att002(src('src.eq(self.pad_idx)')), []);
    const bad = await att002(src('src != self.pad_idx'));
    assert.deepEqual(bad, [20, 22]);
  });

  it('boolean masks given to torch.where, in both argument orders', async () => {
    const src = (where: string): string => `import torch


def attention(q, k, v, ids, pad_id=0):
    keep = ids != pad_id
    pad = ~keep
    scores = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5
    scores = ${where}
    return scores.softmax(-1) @ v
`;
    assert.deepEqual(await att002(src('torch.where(keep[:, None, None, :], scores, float("-inf"))')), []);
    assert.deepEqual(await att002(src('torch.where(pad[:, None, None, :], torch.finfo(scores.dtype).min, scores)')), []);
    assert.deepEqual(await att002(src('torch.where(pad[:, None, None, :], scores, float("-inf"))')), [8]);
  });

  it('float masks built as 0/-inf, added to the scores or given to SDPA and MHA', async () => {
    const src = (build: string): string => `import torch
import torch.nn as nn
import torch.nn.functional as F


class Decoder(nn.Module):
    def __init__(self, d_model=64, n_heads=4):
        super().__init__()
        self.mha = nn.MultiheadAttention(d_model, n_heads, batch_first=True)

    def forward(self, x, q, k, v):
        T = x.size(1)
        mask = ${build}
        a = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
        b, _ = self.mha(x, x, x, attn_mask=mask)
        scores = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5 + mask
        return a, b, scores.softmax(-1) @ v
`;
    assert.deepEqual(await att002(src('torch.full((T, T), float("-inf"), device=x.device).triu(1)')), []);
    assert.deepEqual(await att002(src('torch.zeros(T, T).masked_fill(torch.ones(T, T, dtype=torch.bool).triu(1), float("-inf"))')), []);
    assert.deepEqual(await att002(src('torch.zeros(T, T).masked_fill(torch.tril(torch.ones(T, T)) == 0, float("-inf")).to(x.device)')), []);
  });

  it('flax make_attention_mask / make_causal_mask / combine_masks (True = attend)', async () => {
    const src = (pad: string): string => `import flax.linen as nn
import jax.numpy as jnp


class Decoder(nn.Module):
    num_heads: int = 4

    @nn.compact
    def __call__(self, x, ids):
        pad_mask = nn.make_attention_mask(${pad}, ${pad})
        causal = nn.make_causal_mask(ids)
        mask = nn.combine_masks(pad_mask, causal)
        return nn.MultiHeadDotProductAttention(num_heads=self.num_heads)(x, x, mask=mask)
`;
    assert.deepEqual(await att002(src('ids > 0')), []);
    assert.deepEqual(await att002(src('ids != 0')), []);
  });

  it('Keras attention_mask (1 = attend) and an Embedding(mask_zero=True) implicit mask', async () => {
    const src = (mask: string): string => `import tensorflow as tf
from tensorflow import keras


def build(vocab, d_model=64):
    ids = keras.Input(shape=(None,), dtype="int32")
    x = keras.layers.Embedding(vocab, d_model, mask_zero=True)(ids)
    implicit = keras.layers.MultiHeadAttention(num_heads=4, key_dim=16)(x, x)
    mask = ${mask}
    explicit = keras.layers.MultiHeadAttention(num_heads=4, key_dim=16)(x, x, attention_mask=mask[:, tf.newaxis, :])
    return keras.Model(ids, [implicit, explicit])
`;
    assert.deepEqual(await att002(src('tf.math.not_equal(ids, 0)')), []);
    assert.deepEqual(await att002(src('tf.math.equal(ids, 0)')), [10]);
  });

  it('a mask inverted twice across files stays what it was', async () => {
    const utils = `import torch


def padding_mask(ids, pad_id=0):
    return ids == pad_id  # True at padding


def keep_mask(ids, pad_id=0):
    return ~padding_mask(ids, pad_id)
`;
    const model = (use: string): string => `import torch.nn as nn

from utils import keep_mask


class Encoder(nn.Module):
    def __init__(self, d_model=64, n_heads=4):
        super().__init__()
        self.mha = nn.MultiheadAttention(d_model, n_heads, batch_first=True)

    def forward(self, x, ids):
        keep = keep_mask(ids)
        return self.mha(x, x, x, key_padding_mask=${use})[0]
`;
    assert.deepEqual(await att002In({ 'utils.py': utils, 'model.py': model('~keep') }, 'model.py'), []);
    assert.deepEqual(await att002In({ 'utils.py': utils, 'model.py': model('keep') }, 'model.py'), [13]);
  });

  it('a mask whose polarity depends on a flag, with both branches right', async () => {
    const src = (flip: string): string => `import torch
import torch.nn.functional as F


def attend(q, k, v, mask, mask_is_padding=False):
    if mask_is_padding:
        mask = ${flip}
    return F.scaled_dot_product_attention(q, k, v, attn_mask=mask[:, None, None, :])


def run(q, k, v, ids, pad_id):
    a = attend(q, k, v, ids == pad_id, mask_is_padding=True)
    b = attend(q, k, v, ids != pad_id)
    return a, b
`;
    assert.deepEqual(await att002(src('~mask')), []);
    assert.deepEqual(await att002(src('mask.logical_not()')), []);
    // Each call is judged with the flag it passes: a padding mask given without the flag is reported.
    const wrong = src('~mask').replace('ids == pad_id, mask_is_padding=True', 'ids == pad_id');
    assert.deepEqual(await att002(wrong), [8]);
  });

  it('a keep mask from a tokenizer, made additive inside the model with (1.0 - m) * -10000.0', async () => {
    const src = (ext: string): string => `import torch
import torch.nn as nn
from transformers import AutoTokenizer

tokenizer = AutoTokenizer.from_pretrained("bert-base-uncased")


class Encoder(nn.Module):
    def __init__(self, d_model=64):
        super().__init__()
        self.qkv = nn.Linear(d_model, 3 * d_model)

    def forward(self, x, attention_mask):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        scores = q @ k.transpose(-1, -2) / q.size(-1) ** 0.5
        ext = ${ext}
        return (scores + ext).softmax(dim=-1) @ v


def encode(texts, vocab):
    embed = nn.Embedding(vocab, 64)
    model = Encoder()
    enc = tokenizer(texts, padding=True, return_tensors="pt")
    return model(embed(enc["input_ids"]), enc["attention_mask"])
`;
    assert.deepEqual(await att002(src('(1.0 - attention_mask[:, None, :].float()) * -10000.0')), []);
    assert.deepEqual(await att002(src('attention_mask[:, None, :].float() * -10000.0')), [16]);
  });
});

describe('ATT002: a 0/1 mask converted to the dtype of a floating tensor is a float mask (session 29)', () => {
  // `.to(dtype=x.dtype)`, `.to(x.dtype)`, `.type_as(x)` and `.to(x)` give the mask x's dtype; x made by an embedding
  // table (or a projection, scores, a parameter) is floating, so the 0/1 mask is added to the scores by SDPA.
  const lm = (conv: string, x = 'self.wte(tokens) + self.wpe(pos)'): string => `import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyLM(nn.Module):
    def __init__(self, vocab, d=64, block=128, n_head=4):
        super().__init__()
        self.n_head = n_head
        self.wte = nn.Embedding(vocab, d)
        self.wpe = nn.Embedding(block, d)
        self.qkv = nn.Linear(d, 3 * d)

    def forward(self, tokens):
        B, T = tokens.shape
        pos = torch.arange(0, T, dtype=torch.long, device=tokens.device)
        x = ${x}
        q, k, v = self.qkv(x).view(B, T, 3, self.n_head, -1).permute(2, 0, 3, 1, 4)
        pad_mask = (tokens != 0).unsqueeze(1).unsqueeze(2)
        pad_mask = ${conv}
        return F.scaled_dot_product_attention(q, k, v, attn_mask=pad_mask)
`;

  it('to(dtype=x.dtype), to(x.dtype), type_as(x), to(x) of embeddings: reported, as .float() is', async () => {
    for (const conv of ['pad_mask.to(dtype=x.dtype)', 'pad_mask.to(x.dtype)', 'pad_mask.type_as(x)', 'pad_mask.to(x)', 'pad_mask.float()'])
      assert.deepEqual(await att002(lm(conv)), [21], conv);
    // A projection's output is floating too.
    assert.deepEqual(await att002(lm('pad_mask.to(q.dtype)')), [21]);
  });

  it('the correct forms stay silent: a boolean mask, one moved to a device, or made additive', async () => {
    assert.deepEqual(await att002(lm('pad_mask')), []);
    assert.deepEqual(await att002(lm('pad_mask.to(x.device)')), []);
    assert.deepEqual(await att002(lm('(1.0 - pad_mask.to(x.dtype)) * torch.finfo(x.dtype).min')), []);
    assert.deepEqual(await att002(lm('torch.zeros_like(pad_mask, dtype=x.dtype).masked_fill(~pad_mask, float("-inf"))')), []);
  });

  it('the dtype of a tensor nothing shows to be floating says nothing', async () => {
    // `x` an argument no caller in view passes: its dtype is unknown, so is the mask's.
    const src = `import torch
import torch.nn.functional as F


def attend(q, k, v, tokens, x):
    pad_mask = (tokens != 0)[:, None, None, :].to(dtype=x.dtype)
    return F.scaled_dot_product_attention(q, k, v, attn_mask=pad_mask)
`;
    assert.deepEqual(await att002(src), []);
    // Nor does a name: a parameter called `q` handed to SDPA is no evidence of a floating dtype here.
    assert.deepEqual(await att002(src.replace('.to(dtype=x.dtype)', '.to(q.dtype)')), []);
  });

  it('across files: a helper that converts the mask to the dtype of the tensor it is given', async () => {
    const utils = `import torch


def padding_bias(tokens, like):
    return (tokens != 0)[:, None, None, :].type_as(like)
`;
    const model = (use: string): string => `import torch.nn as nn
import torch.nn.functional as F

from utils import padding_bias


class Encoder(nn.Module):
    def __init__(self, vocab, d=64):
        super().__init__()
        self.embed = nn.Embedding(vocab, d)
        self.qkv = nn.Linear(d, 3 * d)

    def forward(self, tokens):
        x = self.embed(tokens)
        q, k, v = self.qkv(x).unsqueeze(1).chunk(3, dim=-1)
        return F.scaled_dot_product_attention(q, k, v, attn_mask=${use})
`;
    assert.deepEqual(await att002In({ 'utils.py': utils, 'model.py': model('padding_bias(tokens, x)') }, 'model.py'), [16]);
    assert.deepEqual(await att002In({ 'utils.py': utils, 'model.py': model('padding_bias(tokens, x).bool()') }, 'model.py'), []);
  });
});

describe('ATT002: a mask made by a class and read through a property (session 29)', () => {
  const maskClass = (tri: string): string => `import torch


class FutureMask:
    """Causal mask for a decoder's self-attention."""

    def __init__(self, length, device=None):
        self._mask = ${tri}

    @property
    def mask(self):
        return self._mask
`;
  const decoder = (imports: string): string => `import torch.nn as nn
import torch.nn.functional as F
${imports}

class Decoder(nn.Module):
    def forward(self, q, k, v):
        T = q.size(-2)
        causal = FutureMask(T, q.device).mask
        return F.scaled_dot_product_attention(q, k, v, attn_mask=causal)
`;
  const ignoreTri = 'torch.ones(length, length, dtype=torch.bool, device=device).triu(1)';
  const keepTri = 'torch.ones(length, length, dtype=torch.bool, device=device).tril()';

  it('in one file: the getter returns what __init__ stored', async () => {
    assert.deepEqual(await att002(`${maskClass(ignoreTri)}\n\n${decoder('')}`), [23]);
    assert.deepEqual(await att002(`${maskClass(keepTri)}\n\n${decoder('')}`), []);
  });

  it('across files: the class in masks.py, read in model.py', async () => {
    const files = (tri: string): Record<string, string> => ({ 'masks.py': maskClass(tri), 'model.py': decoder('from masks import FutureMask\n') });
    assert.deepEqual(await att002In(files(ignoreTri), 'model.py'), [10]);
    assert.deepEqual(await att002In(files(keepTri), 'model.py'), []);
  });

  it('a plain method is not a property: reading it is no call', async () => {
    const src = `${maskClass(ignoreTri).replace('    @property\n', '')}\n\n${decoder('')}`;
    assert.deepEqual(await att002(src), []);
  });
});

describe('ATT002: the strict triangle band_part(ones, 0, -1) - band_part(ones, 0, 0) with its parts named (session 29)', () => {
  // The diagonal stored under a name first (`diag = band_part(ones, 0, 0)`, `upper - diag`) is the same diagonal.
  const tf = (build: string): string => `import tensorflow as tf


def future_mask(length):
${build
  .split('\n')
  .map((l) => `    ${l}`)
  .join('\n')}


def attend(q, k, v):
    mask = future_mask(tf.shape(q)[1])
    score = tf.matmul(q, k, transpose_b=True) / tf.math.sqrt(tf.cast(tf.shape(k)[-1], tf.float32))
    score += mask * -1e9
    return tf.matmul(tf.nn.softmax(score, axis=-1), v)
`;
  it('upper - diag is 1 strictly above the diagonal: right for `mask * -1e9`, wrong flipped', async () => {
    const strict =
      'upper = tf.linalg.band_part(tf.ones([length, length]), 0, -1)\ndiag = tf.linalg.band_part(tf.ones([length, length]), 0, 0)\nreturn upper - diag';
    assert.deepEqual(await att002(tf(strict)), []);
    assert.deepEqual(await att002(tf(strict.replace('return upper - diag', 'return 1.0 - (upper - diag)'))), [13]);
  });
});

describe('ATT002: Keras Attention / AdditiveAttention take mask=[query_mask, value_mask], True at real positions (session 29)', () => {
  const luong = (layer: string, qMask: string, vMask: string): string => `import tensorflow as tf
from tensorflow.keras import layers


def build(vocab, d_model=64):
    q_ids = tf.keras.Input(shape=(None,), dtype="int32")
    v_ids = tf.keras.Input(shape=(None,), dtype="int32")
    embed = layers.Embedding(vocab, d_model)
    q_mask = ${qMask}
    v_mask = ${vMask}
    ctx = layers.${layer}()([embed(q_ids), embed(v_ids)], mask=[q_mask, v_mask])
    return tf.keras.Model([q_ids, v_ids], ctx)
`;
  for (const layer of ['Attention', 'AdditiveAttention']) {
    it(`${layer}: keep masks are right, padding masks inverted (one finding per mask)`, async () => {
      assert.deepEqual(await att002(luong(layer, 'tf.not_equal(q_ids, 0)', 'v_ids != 0')), []);
      assert.deepEqual(await att002(luong(layer, 'tf.equal(q_ids, 0)', 'v_ids != 0')), [11]);
      assert.deepEqual(await att002(luong(layer, 'tf.not_equal(q_ids, 0)', 'tf.math.equal(v_ids, 0)')), [11]);
    });
  }

  it('a value mask only (None for the query), and an Embedding(mask_zero=True) mask', async () => {
    const src = (v: string): string => `import tensorflow as tf


def attend(q, v, ids):
    emb = tf.keras.layers.Embedding(1000, 64, mask_zero=True)
    v_mask = ${v}
    return tf.keras.layers.Attention(use_scale=True)([q, v], mask=[None, v_mask])
`;
    assert.deepEqual(await att002(src('emb.compute_mask(ids)')), []);
    assert.deepEqual(await att002(src('tf.logical_not(emb.compute_mask(ids))')), [7]);
  });

  it('a class of the code named Attention is not Keras', async () => {
    const src = `import torch
import torch.nn as nn


class Attention(nn.Module):
    def forward(self, x, mask=None):
        return x


def run(x, ids):
    return Attention()(x, mask=[ids == 0, ids == 0])
`;
    assert.deepEqual(await att002(src), []);
  });
});

describe('ATT002: the fix for a float keep mask turned additive the wrong way reads (1.0 - m) (session 29)', () => {
  const tf = (additive: string): string => `import tensorflow as tf


def attention(q, k, v, ids):
    keep = tf.cast(tf.math.not_equal(ids, 0), tf.float32)[:, tf.newaxis, tf.newaxis, :]
    logits = tf.matmul(q, k, transpose_b=True) / tf.math.sqrt(tf.cast(tf.shape(k)[-1], tf.float32))
    logits += ${additive}
    return tf.matmul(tf.nn.softmax(logits, axis=-1), v)
`;
  it('TensorFlow: keep * -1e9 is fixed to (1.0 - keep) * -1e9, which is silent', async () => {
    const src = tf('keep * -1e9');
    const found = (await linter()).lintPython(src).filter((f) => f.code === 'ATT002');
    assert.equal(found.length, 1);
    assert.equal(found[0]?.fix?.title, 'Invert the mask with 1.0 - m (changes which positions are attended)');
    const fixed = applyFixes(src, found);
    assert.ok(fixed.includes('logits += (1.0 - keep) * -1e9'), fixed);
    assert.deepEqual(await att002(fixed), []);
    assert.deepEqual(await att002(tf('(1.0 - keep) * -1e9')), []);
  });

  it('PyTorch: the same for a float mask; a boolean mask keeps ~, masked_fill keeps == 0', async () => {
    const torch = (build: string, use: string): string => `import torch


def attention(q, k, v, ids, pad_id=0):
    keep = ${build}
    scores = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5
    scores = ${use}
    return scores.softmax(dim=-1) @ v
`;
    const titleOf = async (src: string): Promise<string | undefined> => (await linter()).lintPython(src).find((f) => f.code === 'ATT002')?.fix?.title;
    assert.equal(
      await titleOf(torch('(ids != pad_id).float()[:, None, None, :]', 'scores + keep * -1e9')),
      'Invert the mask with 1.0 - m (changes which positions are attended)',
    );
    assert.equal(
      await titleOf(torch('(ids != pad_id)[:, None, None, :]', 'scores.masked_fill(keep, -1e9)')),
      'Invert the mask with ~ (changes which positions are attended)',
    );
    assert.equal(
      await titleOf(torch('(ids != pad_id).long()[:, None, None, :]', 'scores.masked_fill(keep, -1e9)')),
      'Invert the mask with == 0 (changes which positions are attended)',
    );
  });
});

describe('ATT002: more correct forms, with a conversion or a flip on the way (session 29)', () => {
  it('the annotated-transformer subsequent_mask == 0, joined with a padding mask and converted with type_as', async () => {
    const src = (ret: string): string => `import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def subsequent_mask(size):
    sub = torch.triu(torch.ones((1, size, size)), diagonal=1).type(torch.uint8)
    return ${ret}


def attention(query, key, value, mask=None):
    scores = torch.matmul(query, key.transpose(-2, -1)) / np.sqrt(query.size(-1))
    if mask is not None:
        scores = scores.masked_fill(mask == 0, -1e9)
    return torch.matmul(F.softmax(scores, dim=-1), value)


class Decoder(nn.Module):
    def __init__(self, vocab, d=64, pad=0):
        super().__init__()
        self.pad = pad
        self.embed = nn.Embedding(vocab, d)
        self.qkv = nn.Linear(d, 3 * d)

    def forward(self, tgt):
        q, k, v = self.qkv(self.embed(tgt)).chunk(3, dim=-1)
        tgt_mask = (tgt != self.pad).unsqueeze(-2)
        joined = tgt_mask & subsequent_mask(tgt.size(-1)).type_as(tgt_mask.data)
        return attention(q, k, v, joined), attention(q, k, v, subsequent_mask(tgt.size(-1)).type_as(tgt_mask))
`;
    assert.deepEqual(await att002(src('sub == 0')), []);
    // Returned without `== 0`, the triangle is 1 on the future: inverted for `masked_fill(mask == 0, ...)`; joined by `&`
    // with the keep padding mask it is one part of each meaning, reported at the combination (ormask30).
    assert.deepEqual(await att002(src('sub')), [15, 29]);
  });

  it('ESPnet-style: a non-padding mask turned into the positions to fill with .eq(0) inside the attention', async () => {
    const src = (build: string): string => `import math

import torch
import torch.nn as nn


def make_pad_mask(lengths):
    maxlen = int(max(lengths))
    seq_range = torch.arange(0, maxlen, dtype=torch.int64).unsqueeze(0).expand(len(lengths), maxlen)
    return seq_range >= lengths.unsqueeze(-1)


class MultiHeadedAttention(nn.Module):
    def __init__(self, n_head=4, n_feat=64):
        super().__init__()
        self.h, self.d_k = n_head, n_feat // n_head
        self.linear_qkv = nn.Linear(n_feat, 3 * n_feat)

    def forward(self, x, mask):
        B = x.size(0)
        q, k, v = self.linear_qkv(x).view(B, -1, 3, self.h, self.d_k).permute(2, 0, 3, 1, 4)
        scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(self.d_k)
        mask = mask.unsqueeze(1).eq(0)
        scores = scores.masked_fill(mask, torch.finfo(scores.dtype).min)
        attn = torch.softmax(scores, dim=-1).masked_fill(mask, 0.0)
        return torch.matmul(attn, v)


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.att = MultiHeadedAttention()

    def forward(self, xs, ilens):
        masks = ${build}
        return self.att(xs, masks)
`;
    assert.deepEqual(await att002(src('(~make_pad_mask(ilens)[:, None, :]).to(xs.device)')), []);
    assert.deepEqual(await att002(src('make_pad_mask(ilens)[:, None, :].to(xs.device)')), [24]);
  });

  it('additive biases built with torch.where from a keep or a padding mask', async () => {
    const src = (bias: string): string => `import torch
import torch.nn.functional as F


def attend(q, k, v, ids, pad_id=0):
    keep = ids != pad_id
    pad = ids == pad_id
    bias = ${bias}
    return F.scaled_dot_product_attention(q, k, v, attn_mask=bias[:, None, None, :])
`;
    assert.deepEqual(await att002(src('torch.where(keep, 0.0, float("-inf"))')), []);
    assert.deepEqual(await att002(src('torch.where(pad, float("-inf"), 0.0)')), []);
    assert.deepEqual(await att002(src('torch.where(pad, 0.0, float("-inf"))')), [8]);
  });
});
