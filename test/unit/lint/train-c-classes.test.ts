// Classes learnt from the training set (test/lint-train/c, session 27), each with a small example written fresh, its
// other (correct or buggy) form, and a cross-file pair where the evidence sits in another file:
//   1. ATT004: tied row attention scales by 1/sqrt(head_dim) and 1/sqrt(rows), rows read off a non-feature axis of
//      the input (`rows, cols, batch, embed = x.shape`): its scores sum over the rows too, so that is one scaling,
//      not 1/sqrt(d) twice. Two head-width factors still are.
//   2. ATT007: a -inf fill under a causal & key-padding keep mask empties a row only with left padding; reported
//      when the code shows left padding (a right-aligned write into a padded batch, `padding_side="left"`, a
//      comment saying so until session 48, when a comment alone stopped counting) in the file or a file importing it, silent for the right padding of training code.
//   3. Importer calls through a wrapper module: the fill sits in `Core.forward`, called by `SelfAttention.forward`
//      of the same file, which the importing model calls with its mask: judged with that mask.
//   4. JAX shape ops keep a mask's meaning: `jnp.expand_dims(m, axis=(0, 2))` and `jnp.broadcast_to(m, s.shape)`.
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

const codes = findingLines;

const inWorkspace = workspaceFindingLines;

// ---------------------------------------------------------------------------------------------- 1. ATT004

const TIED_ROWS = (scale: string): string => `import math

import torch
import torch.nn as nn


class TiedRowAttention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.head_dim = dim // heads
        self.to_q = nn.Linear(dim, dim)
        self.to_k = nn.Linear(dim, dim)
        self.to_v = nn.Linear(dim, dim)

    def forward(self, x):
        # x: (rows, cols, batch, dim); one attention map shared by all rows
        rows, cols, batch, dim = x.shape
        shape = (rows, cols, batch, self.heads, self.head_dim)
        q = self.to_q(x).view(shape)
        k = self.to_k(x).view(shape)
        v = self.to_v(x).view(shape)
        q = q * ${scale}
        scores = torch.einsum("rihbd,rjhbd->hbij", q, k)
        attn = scores.softmax(dim=-1)
        return torch.einsum("hbij,rjhbd->rihbd", attn, v).reshape(rows, cols, batch, dim)
`;

describe('train c, class 1: tied row attention scaled by 1/sqrt(head_dim) and 1/sqrt(rows) (ATT004)', () => {
  it('1/sqrt(rows), rows a non-feature axis of the input: one scaling of scores summed over rows and features, silent', async () => {
    assert.deepEqual(await codes(TIED_ROWS('self.head_dim**-0.5 / math.sqrt(rows)'), 'ATT004'), []);
  });
  it('the same with the row count read as x.shape[0]: silent', async () => {
    assert.deepEqual(await codes(TIED_ROWS('self.head_dim**-0.5 / math.sqrt(x.shape[0])'), 'ATT004'), []);
  });
  it('buggy form: the head width twice (1/sqrt(head_dim) and 1/sqrt(head_dim) again): reported', async () => {
    assert.deepEqual(await codes(TIED_ROWS('self.head_dim**-0.5 / math.sqrt(self.head_dim)'), 'ATT004'), [23]);
  });
  const ROWS_CFG = `from dataclasses import dataclass


@dataclass
class RowConfig:
    dim: int = 256
    heads: int = 8
`;
  const CROSS = (scale: string): string => `import math

import torch
import torch.nn as nn

from config import RowConfig


class TiedRowAttention(nn.Module):
    def __init__(self, cfg: RowConfig):
        super().__init__()
        self.heads = cfg.heads
        self.head_dim = cfg.dim // cfg.heads
        self.to_qk = nn.Linear(cfg.dim, 2 * cfg.dim)

    def forward(self, x):
        rows, cols, batch, dim = x.shape
        q, k = self.to_qk(x).view(rows, cols, batch, 2, self.heads, self.head_dim).unbind(dim=3)
        q = q * ${scale}
        scores = torch.einsum("rihbd,rjhbd->hbij", q, k)
        return scores.softmax(dim=-1)
`;
  it('cross-file: the widths come from a config of another file; 1/sqrt(rows) on top is silent', async () => {
    const files = { 'config.py': ROWS_CFG, 'rows.py': CROSS('self.head_dim**-0.5 / math.sqrt(rows)') };
    assert.deepEqual(await inWorkspace(files, 'rows.py', 'ATT004'), []);
  });
  it('cross-file, buggy: the config head width twice is reported', async () => {
    const files = { 'config.py': ROWS_CFG, 'rows.py': CROSS('self.head_dim**-0.5 / math.sqrt(self.head_dim)') };
    assert.deepEqual(await inWorkspace(files, 'rows.py', 'ATT004'), [19]);
  });
});

// ---------------------------------------------------------------------------------------------- 2. ATT007

const CAUSAL_PAD = (extra: string): string => `import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class DecoderSelfAttention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)

    def forward(self, x, ids, pad_id):
        b, t, c = x.shape
        q, k, v = self.qkv(x).view(b, t, 3, self.heads, c // self.heads).permute(2, 0, 3, 1, 4)
        causal = torch.tril(torch.ones(t, t, dtype=torch.bool, device=x.device))
        keep = causal[None, None] & (ids != pad_id)[:, None, None, :]
        scores = q @ k.transpose(-2, -1) / math.sqrt(c // self.heads)
        scores = scores.masked_fill(~keep, float("-inf"))
        return (F.softmax(scores, dim=-1) @ v).transpose(1, 2).reshape(b, t, c)
${extra}`;

const LEFT_PAD_BATCH = `

def pad_batch(seqs, pad_id):
    longest = max(len(s) for s in seqs)
    ids = torch.full((len(seqs), longest), pad_id)
    for row, s in enumerate(seqs):
        ids[row, longest - len(s):] = torch.tensor(s)
    return ids
`;

const RIGHT_PAD_BATCH = `

def pad_batch(seqs, pad_id):
    longest = max(len(s) for s in seqs)
    ids = torch.full((len(seqs), longest), pad_id)
    for row, s in enumerate(seqs):
        ids[row, : len(s)] = torch.tensor(s)
    return ids
`;

describe('train c, class 2: -inf under a causal & key-padding mask needs left padding to empty a row (ATT007)', () => {
  it('no left padding anywhere (training code pads right): silent', async () => {
    assert.deepEqual(await codes(CAUSAL_PAD(RIGHT_PAD_BATCH), 'ATT007'), []);
  });
  it('the file writes each sequence right-aligned into the padded batch (left padding): reported', async () => {
    assert.deepEqual(await codes(CAUSAL_PAD(LEFT_PAD_BATCH), 'ATT007'), [20]);
  });
  // Session 48 (eng-s48c): a comment alone no longer shows left padding (it decided no readable true finding, and a
  // comment may deny it: att007-left-padding-comment48.test.ts).
  it('a comment saying the batch is left-padded, with no code that pads: silent', async () => {
    assert.deepEqual(await codes(CAUSAL_PAD('\n# generation batches are left-padded\n'), 'ATT007'), []);
  });
  const GENERATE = (side: string): string => `from transformers import AutoTokenizer

from attn import DecoderSelfAttention

tok = AutoTokenizer.from_pretrained("gpt2", padding_side="${side}")
layer = DecoderSelfAttention(64, 4)
`;
  it('cross-file: a file importing the attention sets padding_side="left": reported', async () => {
    const files = { 'attn.py': CAUSAL_PAD(''), 'generate.py': GENERATE('left') };
    assert.deepEqual(await inWorkspace(files, 'attn.py', 'ATT007'), [20]);
  });
  it('cross-file: padding_side="right": silent', async () => {
    const files = { 'attn.py': CAUSAL_PAD(''), 'generate.py': GENERATE('right') };
    assert.deepEqual(await inWorkspace(files, 'attn.py', 'ATT007'), []);
  });
});

// ---------------------------------------------------------------------------------------------- 3. wrapper module

const MASKS = (outer: boolean): string => `import torch


def causal_mask(n, device=None):
    return torch.tril(torch.ones((n, n), device=device)).bool()[None, None]


def padding_mask(ids, pad_id=0):
    keep = ids != pad_id
${outer ? '    return (keep.unsqueeze(-1) & keep.unsqueeze(-2)).unsqueeze(1)' : '    return keep[:, None, None, :]'}
`;

const LAYERS = `import torch
import torch.nn as nn
import torch.nn.functional as F


class Core(nn.Module):
    def forward(self, q, k, v, mask=None):
        scores = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5
        if mask is not None:
            scores = scores.masked_fill(mask == 0, float("-inf"))
        return F.softmax(scores, dim=-1) @ v


class SelfAttention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.core = Core()

    def forward(self, x, mask=None):
        b, t, c = x.shape
        q, k, v = self.qkv(x).view(b, t, 3, self.heads, c // self.heads).permute(2, 0, 3, 1, 4)
        return self.core(q, k, v, mask=mask).transpose(1, 2).reshape(b, t, c)
`;

const MODEL = `import torch.nn as nn

from layers import SelfAttention
from masks import causal_mask, padding_mask


class Tiny(nn.Module):
    def __init__(self, vocab, dim=64, heads=4):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.attn = SelfAttention(dim, heads)

    def forward(self, ids):
        b, t = ids.shape
        mask = causal_mask(t, ids.device) & padding_mask(ids)
        return self.attn(self.emb(ids), mask=mask)
`;

describe('train c, class 3: a fill reached through a wrapper module that the importing files call', () => {
  it('the model passes an outer-product padding mask through SelfAttention to Core: every padded query row is -inf, reported', async () => {
    const files = { 'masks.py': MASKS(true), 'layers.py': LAYERS, 'model.py': MODEL };
    assert.deepEqual(await inWorkspace(files, 'layers.py', 'ATT007'), [10]);
  });
  it('fixed form: the padding masks only the keys (right padding, nothing pads left): silent', async () => {
    const files = { 'masks.py': MASKS(false), 'layers.py': LAYERS, 'model.py': MODEL };
    assert.deepEqual(await inWorkspace(files, 'layers.py', 'ATT007'), []);
  });
  it('alone (no importing file), the mask is unknown: silent', async () => {
    assert.deepEqual(await codes(LAYERS, 'ATT007'), []);
  });
});

// ---------------------------------------------------------------------------------------------- 4. JAX shape ops

const FLAX = (mask: string, doc = 'True on padding'): string => `import flax.linen as nn
import jax.numpy as jnp


class KeyMaskedAttention(nn.Module):
    heads: int = 4

    @nn.compact
    def __call__(self, q, k, v, pad_mask=None):
        """q, k, v: (B, H, L, D); pad_mask: (B, L) bool, ${doc}."""
        scores = jnp.einsum("bhld,bhmd->bhlm", q, k) / jnp.sqrt(q.shape[-1])
        if pad_mask is not None:
            m = jnp.broadcast_to(jnp.expand_dims(${mask}, axis=(1, 2)), scores.shape)
            scores = jnp.where(m, scores, -1e9)
        return jnp.einsum("bhlm,bhmd->bhld", nn.softmax(scores, axis=-1), v)
`;

describe('train c, class 4: jnp.expand_dims with a tuple of axes and jnp.broadcast_to keep the mask (ATT002)', () => {
  it('a documented padding mask (True on padding) kept by jnp.where after expand_dims/broadcast_to: reported', async () => {
    assert.deepEqual(await codes(FLAX('pad_mask'), 'ATT002'), [14]);
  });
  it('fixed form: the inverted mask is the keep condition: silent', async () => {
    assert.deepEqual(await codes(FLAX('~pad_mask'), 'ATT002'), []);
  });
  it('a mask documented True on real tokens is the keep condition: silent', async () => {
    assert.deepEqual(await codes(FLAX('pad_mask', 'True on real tokens'), 'ATT002'), []);
  });
  const HELPER = (cmp: string): string => `import jax.numpy as jnp


def key_mask(tokens, pad_id):
    """(B, L) tokens -> (B, 1, 1, L) mask."""
    return jnp.expand_dims(tokens ${cmp} pad_id, axis=(1, 2))
`;
  const USER = `import jax.numpy as jnp

from masking import key_mask


def attend(q, k, v, tokens, pad_id):
    scores = jnp.einsum("bhld,bhmd->bhlm", q, k) / jnp.sqrt(q.shape[-1])
    m = jnp.broadcast_to(key_mask(tokens, pad_id), scores.shape)
    scores = jnp.where(m, scores, -1e9)
    w = jnp.exp(scores - scores.max(axis=-1, keepdims=True))
    return jnp.einsum("bhlm,bhmd->bhld", w / w.sum(axis=-1, keepdims=True), v)
`;
  it('cross-file: the helper of another file builds tokens == pad (True on padding) and expands it: reported', async () => {
    assert.deepEqual(await inWorkspace({ 'masking.py': HELPER('=='), 'attend.py': USER }, 'attend.py', 'ATT002'), [9]);
  });
  it('cross-file, fixed: the helper builds tokens != pad: silent', async () => {
    assert.deepEqual(await inWorkspace({ 'masking.py': HELPER('!='), 'attend.py': USER }, 'attend.py', 'ATT002'), []);
  });
});

// ---------------------------------------------------------------------------------------------- 5. two importing hops

// The attention fills where its padding mask is 1; the mask is built two files away (the model builds it, the
// encoder's file passes it from `Encoder.forward` through each layer to the attention): the model file's code decides.
const ATTN5 = `import math

import torch
import torch.nn as nn


class PaddedAttention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)

    def forward(self, x, pad_mask=None):
        b, t, c = x.shape
        q, k, v = self.qkv(x).view(b, t, 3, self.heads, c // self.heads).permute(2, 0, 3, 1, 4)
        scores = q @ k.transpose(-2, -1) / math.sqrt(c // self.heads)
        if pad_mask is not None:
            scores = scores.masked_fill(pad_mask == 1, -1e9)
        return (scores.softmax(dim=-1) @ v).transpose(1, 2).reshape(b, t, c)
`;

const ENCODER5 = `import torch.nn as nn

from attn import PaddedAttention


class Layer(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.attn = PaddedAttention(dim, heads)
        self.norm = nn.LayerNorm(dim)

    def forward(self, x, pad_mask):
        return self.norm(x + self.attn(x, pad_mask=pad_mask))


class Encoder(nn.Module):
    def __init__(self, vocab, dim, heads, depth):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.layers = nn.ModuleList([Layer(dim, heads) for _ in range(depth)])

    def forward(self, tokens, pad_mask):
        x = self.embed(tokens)
        for layer in self.layers:
            x = layer(x, pad_mask)
        return x
`;

const MODEL5 = (cmp: string): string => `import torch.nn as nn

from encoder import Encoder


class Classifier(nn.Module):
    def __init__(self, vocab, classes, pad, dim=64):
        super().__init__()
        self.pad = pad
        self.encoder = Encoder(vocab, dim, 4, 2)
        self.head = nn.Linear(dim, classes)

    def forward(self, tokens):
        pad_mask = (tokens ${cmp} self.pad).unsqueeze(1).unsqueeze(2)
        return self.head(self.encoder(tokens, pad_mask))
`;

describe('train c, class 5: a mask passed through a module of an importing file, built by a file importing that one', () => {
  it('the model builds tokens != pad (True on real tokens) and the attention fills where it is 1: reported', async () => {
    const files = { 'attn.py': ATTN5, 'encoder.py': ENCODER5, 'model.py': MODEL5('!=') };
    assert.deepEqual(await inWorkspace(files, 'attn.py', 'ATT002'), [18]);
  });
  it('fixed form: the model builds tokens == pad: silent', async () => {
    const files = { 'attn.py': ATTN5, 'encoder.py': ENCODER5, 'model.py': MODEL5('==') };
    assert.deepEqual(await inWorkspace(files, 'attn.py', 'ATT002'), []);
  });
  it('without the model file, the mask is unknown: silent', async () => {
    const files = { 'attn.py': ATTN5, 'encoder.py': ENCODER5 };
    assert.deepEqual(await inWorkspace(files, 'attn.py', 'ATT002'), []);
  });
});
