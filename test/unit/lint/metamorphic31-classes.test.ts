// Session 31 (metamorphic31): classes found by the metamorphic run (test/lint-metamorphic; scripts/lint-metamorphic.ts),
// where a finding changed under a rewrite that does not change what the code computes. Each class with its natural
// example, its rewritten form (what the run showed) and its fixed form:
//  1. ATT008 (precision; `rename`): the cache tested against None is whatever the cached piece of the key
//     concatenation is read from (`torch.cat([state[0], k])` → `state`), not only a name that says cache. Before, a
//     guard `if state is None and seqlen > 1: sdpa(..., is_causal=True)` was read as unknown and the prompt-only
//     causal call reported on keys a caller's `past_key_values[i]` extends.
//  2. ATT008 (recall; `rename`): a container the function reads the past keys from and writes the extended keys back
//     into in place (`store[:] = [k, v]`, `store[0] = k`) is a KV cache, whatever it is called.
//  3. ATT006 (precision; `cfg`): the blend `w * b + fill * (1 - b)` (or `w * b - fill * (1 - b)`) with a fill the code
//     does not show (a constructor argument, a config field, an imported constant from outside the workspace) is still
//     the `where` of a blend, not scores times a 0/1 mask: an unshown mask step, silent. Before, only a fill known to be
//     a large number made it a blend, and an unknown one left `w * b` reported as a 0/1 product.
//  4. ATT004 (recall; `hoist`): a scale held in a local defined once (`norm = math.sqrt(T)` then `/ norm`) is read
//     through its definition wherever the rule reads the factor's expression: the sequence length under the root, and
//     the head count floor-divided by the width, whatever the local is called. Before, only the factor written inline
//     was read.
//  5. ATT007 (precision; `inline`): scores whose layout the operands do not name (`einsum('bhd,bthd->bth', q,
//     k_cache[:, idx])`, the keys an indexed cache rather than a local called K) have their key axis where every softmax
//     of them normalises (dim=1: keys at -2), so padding along -2 hides keys and empties no query row. Before, the
//     query axis defaulted to -2 and the decode step was reported as fully masking padded query rows.
//  6. ATT004 (precision; `extract`): a module-level helper that forms the scores for a method (`wei = scores(q, k, C)`
//     in `Head.forward`) is read with its caller's class, so the constructions that exempt the method (`Head(n_embd)`:
//     one head as wide as the embedding) exempt the helper. Before, the helper had no class, and `C ** -0.5` there was
//     reported as the projection's input width.
//  7. ATT004 (precision; `const`): a fused projection whose part count is a module-level constant (`nn.Linear(dim,
//     dim * N_PARTS)` with `N_PARTS = 3`) is read as `3 * dim` is: on one head each part is as wide as the input, so
//     sqrt(C) of the input's last axis is the head width. Before, only a literal count was read.
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

const GUARDED = `import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self, dim, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.head_dim = dim // n_heads
        self.wq = nn.Linear(dim, dim, bias=False)
        self.wk = nn.Linear(dim, dim, bias=False)
        self.wv = nn.Linear(dim, dim, bias=False)
        self.wo = nn.Linear(dim, dim, bias=False)

    def forward(self, x, mask, state=None):
        bsz, seqlen, _ = x.shape
        xq = self.wq(x).view(bsz, seqlen, self.n_heads, self.head_dim).transpose(1, 2)
        xk = self.wk(x).view(bsz, seqlen, self.n_heads, self.head_dim).transpose(1, 2)
        xv = self.wv(x).view(bsz, seqlen, self.n_heads, self.head_dim).transpose(1, 2)
        if state is not None:
            xk = torch.cat([state[0], xk], dim=2)
            xv = torch.cat([state[1], xv], dim=2)
        if state is None and seqlen > 1:
            out = F.scaled_dot_product_attention(xq, xk, xv, is_causal=True)
        else:
            out = F.scaled_dot_product_attention(xq, xk, xv, attn_mask=mask)
        return self.wo(out.transpose(1, 2).reshape(bsz, seqlen, -1)), (xk, xv)


class Model(nn.Module):
    def __init__(self, vocab, dim, n_heads, n_layers):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.layers = nn.ModuleList([Attention(dim, n_heads) for _ in range(n_layers)])

    def forward(self, tokens, mask, past_key_values=None):
        h = self.emb(tokens)
        new_kvs = []
        for i, layer in enumerate(self.layers):
            pkv = past_key_values[i] if past_key_values is not None else None
            a, kv = layer(h, mask, pkv)
            h = h + a
            new_kvs.append(kv)
        return h, new_kvs
`;

const BLEND = `import math

import torch
import torch.nn as nn


class Attention(nn.Module):
    def __init__(self, n_embd, n_head, n_ctx, fill):
        super().__init__()
        self.n_head = n_head
        self.fill = fill
        self.register_buffer("b", torch.tril(torch.ones(n_ctx, n_ctx)).view(1, 1, n_ctx, n_ctx))
        self.c_attn = nn.Linear(n_embd, 3 * n_embd)

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.c_attn(x).split(C, dim=2)
        q = q.view(B, T, self.n_head, -1).transpose(1, 2)
        k = k.view(B, T, self.n_head, -1).transpose(1, 2)
        v = v.view(B, T, self.n_head, -1).transpose(1, 2)
        w = q @ k.transpose(-2, -1) / math.sqrt(k.size(-1))
        b = self.b[:, :, :T, :T]
        w = w * b + self.fill * (1 - b)
        w = w.softmax(dim=-1)
        return (w @ v).transpose(1, 2).reshape(B, T, C)
`;

const SEQ_NORM = `import math

import torch
import torch.nn as nn


class Attention(nn.Module):
    def __init__(self, d_model, d_head):
        super().__init__()
        self.q = nn.Linear(d_model, d_head)
        self.k = nn.Linear(d_model, d_head)
        self.v = nn.Linear(d_model, d_head)

    def forward(self, x):
        B, T, C = x.shape
        q = self.q(x).view(B, T, -1)
        k = self.k(x).view(B, T, -1)
        v = self.v(x)
        norm = math.sqrt(T)
        scores = q @ k.transpose(1, 2) / norm
        return scores.softmax(dim=-1) @ v
`;

const FLOOR_NORM = `import numpy as np
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self, cout, heads):
        super().__init__()
        self.cout, self.heads = cout, heads
        self.q = nn.Linear(cout, cout)
        self.k = nn.Linear(cout, cout)
        self.v = nn.Linear(cout, cout)

    def forward(self, x):
        b, n, _ = x.shape
        dh = self.cout // self.heads
        q = self.q(x).view(b, n, self.heads, dh).transpose(1, 2)
        k = self.k(x).view(b, n, self.heads, dh).transpose(1, 2)
        v = self.v(x).view(b, n, self.heads, dh).transpose(1, 2)
        norm = np.sqrt(self.heads // self.cout)
        att = q @ k.transpose(-2, -1) * norm
        att = F.softmax(att, dim=-1)
        return (att @ v).transpose(1, 2).reshape(b, n, -1)
`;

const DECODE = `import math

import torch


def decode_step(q, k_cache, v_cache, idx, lens):
    pos = torch.arange(idx.shape[1], device=q.device)
    s = torch.einsum("bhd,bthd->bth", q, k_cache[:, idx]) / math.sqrt(q.shape[-1])
    valid = pos[None, :] < lens[:, None]
    s = s.masked_fill(~valid.unsqueeze(-1), float("-inf"))
    w = torch.softmax(s, dim=1)
    return torch.einsum("bth,bthd->bhd", w, v_cache[:, idx])
`;

const PAD_QUERIES = `import math

import torch


def attend(x, wq, wk, wv, lens):
    pos = torch.arange(x.shape[1], device=x.device)
    s = torch.einsum("bqd,bkd->bqk", x @ wq, x @ wk) / math.sqrt(wq.shape[-1])
    valid = pos[None, :] < lens[:, None]
    s = s.masked_fill(~valid.unsqueeze(-1), float("-inf"))
    w = torch.softmax(s, dim=-1)
    return torch.einsum("bqk,bkd->bqd", w, x @ wv)
`;

const HELPER_SCORES = `import torch.nn as nn
from torch.nn import functional as F

n_embd = 32


def scores(q, k, C):
    return q @ k.transpose(-2, -1) * C**-0.5


class Head(nn.Module):
    def __init__(self, head_size):
        super().__init__()
        self.key = nn.Linear(n_embd, head_size, bias=False)
        self.query = nn.Linear(n_embd, head_size, bias=False)
        self.value = nn.Linear(n_embd, head_size, bias=False)

    def forward(self, x):
        B, T, C = x.shape
        k = self.key(x)
        q = self.query(x)
        wei = scores(q, k, C)
        wei = F.softmax(wei, dim=-1)
        return wei @ self.value(x)


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.head = Head(n_embd)

    def forward(self, x):
        return self.head(x)
`;

const FUSED_CONST = `import math

import torch.nn as nn

N_PARTS = 3


class Attention(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.qkv = nn.Linear(dim, dim * N_PARTS)

    def forward(self, x):
        B, N, C = x.shape
        q, k, v = self.qkv(x).chunk(N_PARTS, dim=-1)
        attn = (q @ k.transpose(-2, -1)) / math.sqrt(C)
        return attn.softmax(dim=-1) @ v
`;

const FUSED_CONST_HEADS = `import math

import torch.nn as nn

N_PARTS = 3


class Attention(nn.Module):
    def __init__(self, dim, heads=8):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, dim * N_PARTS)

    def forward(self, x):
        B, N, C = x.shape
        q, k, v = self.qkv(x).view(B, N, N_PARTS, self.heads, C // self.heads).permute(2, 0, 3, 1, 4)
        attn = (q @ k.transpose(-2, -1)) / math.sqrt(C)
        return (attn.softmax(dim=-1) @ v).transpose(1, 2).reshape(B, N, C)
`;

const GROWN = `import torch
import torch.nn as nn


class CachedSelfAttention(nn.Module):
    def __init__(self, hidden, heads, causal=True):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(hidden, 3 * hidden)
        self.causal = causal

    def forward(self, x, store=None):
        b, l, _ = x.shape
        q, k, v = self.qkv(x).reshape(b, l, 3, self.heads, -1).permute(2, 0, 3, 1, 4)
        if store is not None:
            k = torch.cat([store[0], k], dim=2)
            v = torch.cat([store[1], v], dim=2)
            store[:] = [k, v]
        out = nn.functional.scaled_dot_product_attention(q, k, v, is_causal=store is not None or self.causal)
        return out.permute(0, 2, 1, 3).reshape(b, l, -1)
`;

describe('metamorphic31 classes', () => {
  describe('1. ATT008: a cache tested against None under any name', () => {
    it('is_causal only when the container the cached keys come from is None: silent', async () => {
      assert.deepEqual(await findingLines(GUARDED, 'ATT008'), []);
      assert.deepEqual(await findingLines(GUARDED.replaceAll('state', 'past_key_value'), 'ATT008'), []);
    });
    it('is_causal whenever more than one query, cache or not: silent (several queries are the prompt; a chunked prefill is not in view)', async () => {
      assert.deepEqual(await findingLines(GUARDED.replace('if state is None and seqlen > 1:', 'if seqlen > 1:'), 'ATT008'), []);
    });
    it('is_causal with the cache and more than one query: reported', async () => {
      assert.deepEqual(await findingLines(GUARDED.replace('if state is None and seqlen > 1:', 'if state is not None and seqlen > 1:'), 'ATT008'), [25]);
    });
    it('the new keys tested against None are not the cache', async () => {
      assert.deepEqual(await findingLines(GUARDED.replace('if state is None and seqlen > 1:', 'if xk is None:'), 'ATT008'), [25]);
    });
  });
  describe('2. ATT008: a container written back with the extended keys is a KV cache', () => {
    it('is_causal true whenever the written-back container is passed: reported, under any name', async () => {
      assert.deepEqual(await findingLines(GROWN, 'ATT008'), [19]);
      assert.deepEqual(await findingLines(GROWN.replaceAll('store', 'kv_cache'), 'ATT008'), [19]);
    });
    it('not written back (what it holds is not in view): silent', async () => {
      assert.deepEqual(await findingLines(GROWN.replace('store[:] = [k, v]', 'pass'), 'ATT008'), []);
    });
    it('written back one entry at a time: reported', async () => {
      assert.deepEqual(await findingLines(GROWN.replace('store[:] = [k, v]', 'store[0] = k\n            store[1] = v'), 'ATT008'), [20]);
    });
    it('fixed (causal only without the cache): silent', async () => {
      assert.deepEqual(
        await findingLines(GROWN.replace('is_causal=store is not None or self.causal', 'is_causal=store is None and self.causal'), 'ATT008'),
        [],
      );
    });
  });
  describe('3. ATT006: a blend with a fill the code does not show', () => {
    it('fill from a constructor argument: silent', async () => {
      assert.deepEqual(await findingLines(BLEND, 'ATT006'), []);
    });
    it('fill subtracted, from a config field: silent', async () => {
      const src = BLEND.replace('w = w * b + self.fill * (1 - b)', 'w = w * b - self.cfg.neg * (1.0 - b)');
      assert.deepEqual(await findingLines(src, 'ATT006'), []);
    });
    it('the literal fill (the form it was rewritten from): silent', async () => {
      assert.deepEqual(await findingLines(BLEND.replace('self.fill * (1 - b)', '-1e9 * (1 - b)'), 'ATT006'), []);
    });
    it('the scores times the mask alone: reported', async () => {
      assert.deepEqual(await findingLines(BLEND.replace('w = w * b + self.fill * (1 - b)', 'w = w * b'), 'ATT006'), [23]);
    });
    it('another term than the complement of the mask: still reported', async () => {
      assert.deepEqual(await findingLines(BLEND.replace('self.fill * (1 - b)', 'self.fill * (1 - x)'), 'ATT006'), [23]);
    });
    it('fixed (masked_fill with -inf): silent', async () => {
      assert.deepEqual(await findingLines(BLEND.replace('w = w * b + self.fill * (1 - b)', 'w = w.masked_fill(b == 0, float("-inf"))'), 'ATT006'), []);
    });
    it('cross-file: the fill imported from a module outside the workspace: silent; the product alone: reported', async () => {
      const withImport = BLEND.replace('import math\n', 'import math\n\nfrom settings import NEG_FILL\n').replace('self.fill * (1 - b)', 'NEG_FILL * (1 - b)');
      assert.deepEqual(await workspaceFindingLines({ 'model/attn.py': withImport }, 'model/attn.py', 'ATT006'), []);
      const alone = withImport.replace('w = w * b + NEG_FILL * (1 - b)', 'w = w * b');
      assert.deepEqual(await workspaceFindingLines({ 'model/attn.py': alone }, 'model/attn.py', 'ATT006'), [25]);
    });
  });
  describe('4. ATT004: a scale held in a local is read through its definition', () => {
    it('sqrt of the sequence length held in a local: reported at the factor, as inline', async () => {
      assert.deepEqual(await findingLines(SEQ_NORM, 'ATT004'), [20]);
      const inline = SEQ_NORM.replace('        norm = math.sqrt(T)\n', '').replace('/ norm', '/ math.sqrt(T)');
      assert.deepEqual(await findingLines(inline, 'ATT004'), [19]);
    });
    it('fixed (sqrt of the head width in the local): silent', async () => {
      assert.deepEqual(await findingLines(SEQ_NORM.replace('math.sqrt(T)', 'math.sqrt(q.size(-1))'), 'ATT004'), []);
    });
    it('a local assigned twice is not read through (which definition reaches is not one): silent', async () => {
      const twice = SEQ_NORM.replace(
        '        norm = math.sqrt(T)\n',
        '        norm = math.sqrt(T)\n        if C > 0:\n            norm = math.sqrt(q.size(-1))\n',
      );
      assert.deepEqual(await findingLines(twice, 'ATT004'), []);
    });
    it('heads floor-divided by the width, held in a local: reported; true division: silent', async () => {
      assert.deepEqual(await findingLines(FLOOR_NORM, 'ATT004'), [21]);
      assert.deepEqual(await findingLines(FLOOR_NORM.replace('self.heads // self.cout', 'self.heads / self.cout'), 'ATT004'), []);
    });
  });
  describe('5. ATT007: the key axis of unnamed scores is where their softmax normalises', () => {
    it('decode step, keys at -2 (softmax over dim=1), padding along them: silent', async () => {
      assert.deepEqual(await findingLines(DECODE, 'ATT007'), []);
      // the same with the keys bound to a local first (the form it was inlined from)
      const local = DECODE.replace('q, k_cache[:, idx])', 'q, K)').replace('    s = torch.einsum(', '    K = k_cache[:, idx]\n    s = torch.einsum(');
      assert.deepEqual(await findingLines(local, 'ATT007'), []);
    });
    it('(batch, queries, keys) scores softmaxed over the last axis, padding along the queries: reported', async () => {
      assert.deepEqual(await findingLines(PAD_QUERIES, 'ATT007'), [10]);
    });
    it('fixed (padding along the keys): silent', async () => {
      assert.deepEqual(await findingLines(PAD_QUERIES.replace('~valid.unsqueeze(-1)', '~valid.unsqueeze(1)'), 'ATT007'), []);
    });
    it('two softmaxes of the same scores over different axes: no key axis is read from them (reported as before)', async () => {
      const two = DECODE.replace('    w = torch.softmax(s, dim=1)\n', '    w = torch.softmax(s, dim=1)\n    u = torch.softmax(s, dim=-1)\n');
      assert.deepEqual(await findingLines(two, 'ATT007'), [10]);
    });
  });
  describe("6. ATT004: a helper forming a method's scores is read with the caller's class", () => {
    it('one head as wide as the embedding, scores formed by a module-level helper: silent', async () => {
      assert.deepEqual(await findingLines(HELPER_SCORES, 'ATT004'), []);
    });
    it('a narrower head (the input width is then not the head width): reported at the helper', async () => {
      assert.deepEqual(await findingLines(HELPER_SCORES.replace('Head(n_embd)', 'Head(16)'), 'ATT004'), [8]);
    });
    it('fixed (the head width read off the keys): silent', async () => {
      const fixed = HELPER_SCORES.replace('Head(n_embd)', 'Head(16)').replace('scores(q, k, C)', 'scores(q, k, k.size(-1))');
      assert.deepEqual(await findingLines(fixed, 'ATT004'), []);
    });
  });
  describe('7. ATT004: a fused projection whose part count is a module constant', () => {
    it('one head, count held in a constant: silent (as with the literal 3)', async () => {
      assert.deepEqual(await findingLines(FUSED_CONST, 'ATT004'), []);
      assert.deepEqual(await findingLines(FUSED_CONST.replace('dim * N_PARTS', 'dim * 3'), 'ATT004'), []);
    });
    it('split into several heads: sqrt of the model width reported', async () => {
      assert.deepEqual(await findingLines(FUSED_CONST_HEADS, 'ATT004'), [17]);
    });
    it('fixed (sqrt of the head width): silent', async () => {
      assert.deepEqual(await findingLines(FUSED_CONST_HEADS.replace('math.sqrt(C)', 'math.sqrt(C // self.heads)'), 'ATT004'), []);
    });
    it('a constant that is no part count (N_PARTS = 1) is not a fused projection', async () => {
      const one = FUSED_CONST.replace('N_PARTS = 3', 'N_PARTS = 1').replace('.chunk(N_PARTS, dim=-1)', '.chunk(3, dim=-1)');
      assert.deepEqual(await findingLines(one, 'ATT004'), await findingLines(one.replace('dim * N_PARTS', 'dim * 1'), 'ATT004'));
    });
  });
});
