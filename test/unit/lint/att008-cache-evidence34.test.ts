// Session 34 (prec-cache34): ATT008's evidence that a KV cache puts more keys than queries under a top-left causal
// mask, read from what the code does rather than from names.
//  1. A causal path the code takes only for several queries (`if q_len > 1:`, the `else` of `if q.size(2) == 1:`, past
//     an `if T == 1: return ...`) is the prompt's: code that picks its causal form by the query count treats a single
//     query as the decode step and several as the prompt, and whether a call with several queries ever meets a filled
//     cache (a chunked prefill) is not in view. Silent, as `is_causal = q_len > 1` already was; reported when the same
//     arm also runs only with the cache (`if past is not None and q_len > 1:`), and never an excuse for a mask skipped
//     whenever a cache is passed (the prompt still goes through unmasked).
//  2. A zero test of how many positions the cache object holds (`if cache.offset == 0:`, `past.get_seq_length() == 0`,
//     `not len(cache)`) around the causal call: there the cache adds no keys to the new ones (as `if start_pos == 0:`
//     for a preallocated buffer already was).
//  3. Keys read from a method of an object named like a cache (`k, v = kv_cache.get(layer_idx)`) are cached keys only
//     when the code hands that object the new keys (`cache.update(k, v)`, `k = cache.extend(k)`, or an earlier
//     `cache.append(layer, k, v)`): read on the name alone, how many keys they are against the queries is not in view.
import { strict as assert } from 'node:assert';
import { findingLines, KV_STORE_PY, kvStoreModelPy, workspaceFindingLines } from './helpers';

// q: (B, H, T, D); k, v: (B, H, T, D) joined with the cached (B, H, P, D) along the key axis.
const JOINED = `import torch
import torch.nn.functional as F


class Attention(torch.nn.Module):
    def forward(self, q, k, v, past_key_value=None):
        if past_key_value is not None:
            k = torch.cat([past_key_value[0], k], dim=2)
            v = torch.cat([past_key_value[1], v], dim=2)
        q_len = q.size(2)
        out = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        return out, (k, v)
`;

const CALL = '        out = F.scaled_dot_product_attention(q, k, v, is_causal=True)\n';
const withCall = (by: string): string => {
  assert.ok(JOINED.includes(CALL));
  return JOINED.replace(CALL, by);
};

describe('prec-cache34 1. ATT008: a causal path taken only for several queries', () => {
  it('the natural bug, is_causal=True on keys joined with the cache for every query count: reported', async () => {
    assert.deepEqual(await findingLines(JOINED, 'ATT008'), [11]);
  });
  it('fixed: a bottom-right mask, tril(diagonal=S - L)', async () => {
    const fixed = withCall(
      '        S = k.size(2)\n        keep = torch.ones(q_len, S, dtype=torch.bool, device=q.device).tril(diagonal=S - q_len)\n        out = F.scaled_dot_product_attention(q, k, v, attn_mask=keep)\n',
    );
    assert.deepEqual(await findingLines(fixed, 'ATT008'), []);
  });
  it('`if q_len > 1:` causal, else no mask (one query sees every key): silent', async () => {
    const src = withCall(
      '        if q_len > 1:\n            out = F.scaled_dot_product_attention(q, k, v, is_causal=True)\n        else:\n            out = F.scaled_dot_product_attention(q, k, v)\n',
    );
    assert.deepEqual(await findingLines(src, 'ATT008'), []);
  });
  it('the else of `if q.size(2) == 1:` and of `if q_len != 1` negated, and a length unpacked from x.shape: silent', async () => {
    const elseArm = withCall(
      '        if q.size(2) == 1:\n            out = F.scaled_dot_product_attention(q, k, v)\n        else:\n            out = F.scaled_dot_product_attention(q, k, v, is_causal=True)\n',
    );
    assert.deepEqual(await findingLines(elseArm, 'ATT008'), []);
    const notOne = withCall(
      '        if not q_len == 1:\n            out = F.scaled_dot_product_attention(q, k, v, is_causal=True)\n        else:\n            out = F.scaled_dot_product_attention(q, k, v)\n',
    );
    assert.deepEqual(await findingLines(notOne, 'ATT008'), []);
    const unpacked = withCall(
      '        B, H, T, D = q.shape\n        if T >= 2:\n            out = F.scaled_dot_product_attention(q, k, v, is_causal=True)\n        else:\n            out = F.scaled_dot_product_attention(q, k, v)\n',
    );
    assert.deepEqual(await findingLines(unpacked, 'ATT008'), []);
  });
  it('past an early return for one query: silent', async () => {
    const src = withCall(
      '        if q_len == 1:\n            return F.scaled_dot_product_attention(q, k, v), (k, v)\n        out = F.scaled_dot_product_attention(q, k, v, is_causal=True)\n',
    );
    assert.deepEqual(await findingLines(src, 'ATT008'), []);
  });
  it('the same arm also runs only with the cache (`if past_key_value is not None and q_len > 1:`): reported', async () => {
    const src = withCall(
      '        if past_key_value is not None and q_len > 1:\n            out = F.scaled_dot_product_attention(q, k, v, is_causal=True)\n        else:\n            out = F.scaled_dot_product_attention(q, k, v)\n',
    );
    assert.deepEqual(await findingLines(src, 'ATT008'), [12]);
  });
  it('the causal call in the one-query arm (`if q_len == 1:`), or under a test that says nothing about the count: reported', async () => {
    const oneQuery = withCall(
      '        if q_len > 1:\n            out = F.scaled_dot_product_attention(q, k, v)\n        else:\n            out = F.scaled_dot_product_attention(q, k, v, is_causal=True)\n',
    );
    assert.deepEqual(await findingLines(oneQuery, 'ATT008'), [14]);
    const other = withCall(
      '        if q_len > 0:\n            out = F.scaled_dot_product_attention(q, k, v, is_causal=True)\n        else:\n            out = F.scaled_dot_product_attention(q, k, v)\n',
    );
    assert.deepEqual(await findingLines(other, 'ATT008'), [12]);
  });
  it('a count that is not the tokens (the batch, `B` of `q.shape` or `q.shape[0]`; the features, `q.size(-1)`; len(q)): reported', async () => {
    for (const guard of ['B, H, T, D = q.shape\n        if B > 1:', 'if q.shape[0] > 1:', 'if q.size(-1) > 1:', 'if len(q) > 1:']) {
      const src = withCall(
        `        ${guard}\n            out = F.scaled_dot_product_attention(q, k, v, is_causal=True)\n        else:\n            out = F.scaled_dot_product_attention(q, k, v)\n`,
      );
      const line = guard.includes('\n') ? 13 : 12;
      assert.deepEqual(await findingLines(src, 'ATT008'), [line], guard);
    }
  });
  it('a hand-written top-left mask applied only for several queries: silent; for every count: reported', async () => {
    const hand = (guard: string) => `import torch


def attend(q, k, v, past=None):
    # q: (B, H, T, D); past: (k, v) of (B, H, P, D)
    if past is not None:
        k = torch.cat([past[0], k], dim=-2)
        v = torch.cat([past[1], v], dim=-2)
    T, S = q.size(-2), k.size(-2)
    scores = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5
${guard}
    return scores.softmax(dim=-1) @ v, (k, v)
`;
    const mask = 'scores = scores.masked_fill(torch.tril(torch.ones(T, S, dtype=torch.bool)) == 0, float("-inf"))';
    assert.deepEqual(await findingLines(hand(`    ${mask}`), 'ATT008'), [11]);
    assert.deepEqual(await findingLines(hand(`    if T > 1:\n        ${mask}`), 'ATT008'), []);
  });
  it('a mask skipped whenever the cache is passed stays reported under a query-count guard', async () => {
    const src = `import torch
import torch.nn as nn


class Attention(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.register_buffer("future", torch.triu(torch.ones(n, n, dtype=torch.bool), 1))

    def forward(self, q, k, v, cache=None):
        # q, k, v: (B, H, T, D)
        T = q.size(2)
        if cache is not None:
            k, v = cache.update(k, v)
        att = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5
        if T > 1:
            if cache is None:
                att = att.masked_fill(self.future[:T, :T], float("-inf"))
        return att.softmax(dim=-1) @ v
`;
    assert.deepEqual(await findingLines(src, 'ATT008'), [18]);
  });
  it('cross-file: keys a store of another file extends, the causal call only for several queries: silent; for all: reported', async () => {
    const model = kvStoreModelPy;
    const all = model('        return F.scaled_dot_product_attention(q, k, v, is_causal=True)');
    assert.deepEqual(await workspaceFindingLines({ 'store.py': KV_STORE_PY, 'model.py': all }, 'model.py', 'ATT008'), [14]);
    const guarded = model(
      '        if q.size(2) == 1:\n            return F.scaled_dot_product_attention(q, k, v)\n        return F.scaled_dot_product_attention(q, k, v, is_causal=True)',
    );
    assert.deepEqual(await workspaceFindingLines({ 'store.py': KV_STORE_PY, 'model.py': guarded }, 'model.py', 'ATT008'), []);
  });
});

describe('prec-cache34 2. ATT008: a zero test of what the cache object holds', () => {
  const cached = (cond: string, armCausal = true) => `import torch
import torch.nn.functional as F


class Attention(torch.nn.Module):
    def forward(self, q, k, v, cache):
        # q, k, v: (B, H, T, D); the cache grows the keys along T
        k, v = cache.update(k, v)
        if ${cond}:
            out = F.scaled_dot_product_attention(q, k, v${armCausal ? ', is_causal=True' : ''})
        else:
            out = F.scaled_dot_product_attention(q, k, v${armCausal ? '' : ', is_causal=True'})
        return out
`;
  it('causal only where the cache holds nothing (offset, get_seq_length(), len, not): silent', async () => {
    for (const cond of ['cache.offset == 0', 'cache.get_seq_length() == 0', 'len(cache) == 0', 'not cache.seq_len', '0 == cache.pos'])
      assert.deepEqual(await findingLines(cached(cond), 'ATT008'), [], cond);
    // The else of a test that the cache holds something.
    assert.deepEqual(await findingLines(cached('cache.offset > 0', false), 'ATT008'), []);
  });
  it('causal where the cache holds something, or under a test of another attribute (its layer): reported', async () => {
    assert.deepEqual(await findingLines(cached('cache.offset > 0'), 'ATT008'), [10]);
    assert.deepEqual(await findingLines(cached('cache.layer_idx == 0'), 'ATT008'), [10]);
    assert.deepEqual(await findingLines(cached('other.offset == 0'), 'ATT008'), [10]);
  });
  it('a local that is 0 or the length of the cached keys, tested for zero: silent in its zero arm, reported in the other', async () => {
    const src = (zeroArm: string, otherArm: string, pastLen = 'past_key_value[0].size(2)') => `import torch
import torch.nn.functional as F


class Attention(torch.nn.Module):
    def forward(self, q, k, v, past_key_value=None):
        # q, k, v: (B, H, T, D); past_key_value: (k, v) of (B, H, P, D)
        past_len = 0
        if past_key_value is not None:
            past_len = ${pastLen}
            k = torch.cat([past_key_value[0], k], dim=2)
            v = torch.cat([past_key_value[1], v], dim=2)
        if past_len > 0:
            out = F.scaled_dot_product_attention(q, k, v${otherArm})
        else:
            out = F.scaled_dot_product_attention(q, k, v${zeroArm})
        return out, (k, v)
`;
    assert.deepEqual(await findingLines(src(', is_causal=True', ''), 'ATT008'), []);
    assert.deepEqual(await findingLines(src('', ', is_causal=True'), 'ATT008'), [14]);
    // A local bound to something that is not what the cache holds proves nothing.
    assert.deepEqual(await findingLines(src(', is_causal=True', '', 'self.window'), 'ATT008'), [16]);
  });
  it('the container a concatenation reads the cached keys from, tested for its length: silent', async () => {
    const src = JOINED.replace(
      CALL,
      '        if past_key_value is None or past_key_value[0].size(2) == 0:\n            out = F.scaled_dot_product_attention(q, k, v, is_causal=True)\n        else:\n            out = F.scaled_dot_product_attention(q, k, v)\n',
    );
    assert.deepEqual(await findingLines(src, 'ATT008'), []);
  });
});

describe('prec-cache34 3. ATT008: keys read from a cache object that is never handed the new keys', () => {
  const read = (body: string) => `import torch
import torch.nn.functional as F


class Attention(torch.nn.Module):
    def forward(self, q, k, v, kv_cache=None, layer_idx=0):
        # q, k, v: (B, H, T, D)
${body}
        return F.scaled_dot_product_attention(q, k, v, is_causal=True)
`;
  it('`k, v = kv_cache.get(layer_idx)` on its name alone: silent', async () => {
    assert.deepEqual(await findingLines(read('        if kv_cache is not None:\n            k, v = kv_cache.get(layer_idx)'), 'ATT008'), []);
  });
  it('handed the new keys first (`kv_cache.append(layer_idx, k, v)`), or by the read itself: reported', async () => {
    assert.deepEqual(await findingLines(read('        kv_cache.append(layer_idx, k, v)\n        k, v = kv_cache.get(layer_idx)'), 'ATT008'), [10]);
    assert.deepEqual(await findingLines(read('        k, v = kv_cache.update(k, v, layer_idx)'), 'ATT008'), [9]);
    assert.deepEqual(await findingLines(read('        k = kv_cache.extend_keys(k)\n        v = kv_cache.extend_values(v)'), 'ATT008'), [10]);
  });
  it('cross-file: a cache class of another file that only returns what it holds: silent; handed the keys first: reported', async () => {
    const cache = `class LayerCache:
    def __init__(self):
        self.k = {}
        self.v = {}

    def put(self, layer, k, v):
        self.k[layer] = k
        self.v[layer] = v

    def get(self, layer):
        return self.k[layer], self.v[layer]
`;
    const model = (body: string) => `import torch.nn as nn
import torch.nn.functional as F
from layer_cache import LayerCache


class Attention(nn.Module):
    def __init__(self):
        super().__init__()
        self.kv_cache = LayerCache()

    def forward(self, q, k, v, layer):
        # q, k, v: (B, H, T, D)
${body}
        return F.scaled_dot_product_attention(q, k, v, is_causal=True)
`;
    const onlyRead = model('        k, v = self.kv_cache.get(layer)');
    assert.deepEqual(await workspaceFindingLines({ 'layer_cache.py': cache, 'model.py': onlyRead }, 'model.py', 'ATT008'), []);
    const handed = model('        self.kv_cache.put(layer, k, v)\n        k, v = self.kv_cache.get(layer)');
    assert.deepEqual(await workspaceFindingLines({ 'layer_cache.py': cache, 'model.py': handed }, 'model.py', 'ATT008'), [15]);
  });
});

describe('prec-cache34 4. ATT008: a causal flag passed with a mask, "True on some calls" read from where it can come from', () => {
  // A helper passing its flag and a mask to SDPA; the flag's value is not in view in the helper's own (default) context.
  const helper = (rest: string, defaultCausal = 'False') => `import torch
import torch.nn as nn
import torch.nn.functional as F


def attention(q, k, v, mask, causal=${defaultCausal}):
    return F.scaled_dot_product_attention(q, k, v, attn_mask=mask, is_causal=causal)
${rest}`;
  const encoder = (call: string) => `

class Encoder(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)

    def forward(self, x, pad):
        # x: (B, T, C); pad: (B, T), True at padding
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.heads, -1).permute(2, 0, 3, 1, 4)
        keep = ~pad[:, None, None, :]
        return ${call}.transpose(1, 2).reshape(B, T, C)
`;
  const decoderDefault = `

class Decoder(nn.Module):
    def __init__(self, dim, causal=True):
        super().__init__()
        self.causal = causal
`;
  it("the only call passes the mask and leaves the flag False; `causal=True` is another class's default: silent", async () => {
    assert.deepEqual(await findingLines(helper(encoder('attention(q, k, v, keep)') + decoderDefault), 'ATT008'), []);
  });
  it('a call passes the mask with causal=True: reported', async () => {
    assert.deepEqual(await findingLines(helper(encoder('attention(q, k, v, keep, causal=True)')), 'ATT008'), [7]);
  });
  it('no call in view: a default of another function is no sign (silent); a keyword of a call the file does not define is (reported)', async () => {
    const otherDefault = helper('\n\ndef sample(logits, causal=True):\n    return logits.argmax(-1)\n');
    assert.deepEqual(await findingLines(otherDefault, 'ATT008'), []);
    const otherCall = helper('\n\ndef make(q, k, v, mask, masked_attention):\n    return masked_attention(q, k, v, mask, causal=True)\n');
    assert.deepEqual(await findingLines(otherCall, 'ATT008'), [7]);
    // A keyword of a call to another function this file defines sets that function's flag.
    const ownOther = helper(
      '\n\ndef make_mask(T, causal=False):\n    return torch.ones(T, T).tril() if causal else torch.ones(T, T)\n\n\nM = make_mask(4, causal=True)\n',
    );
    assert.deepEqual(await findingLines(ownOther, 'ATT008'), []);
    // The helper's own default of True is a sign.
    assert.deepEqual(await findingLines(helper('', 'True'), 'ATT008'), [7]);
  });
  it('a module flag: a builder in view leaves it False (silent), builds it causal (reported); an unrelated default True is no sign', async () => {
    const mod = (build: string) => `import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self, dim, heads, causal=False):
        super().__init__()
        self.causal = causal
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)

    def forward(self, x, mask):
        # x: (B, T, C); mask: (B, T), True at real tokens
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.heads, -1).permute(2, 0, 3, 1, 4)
        mask = mask[:, None, None, :].bool()
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=mask, is_causal=self.causal)
        return y.transpose(1, 2).reshape(B, T, C)


class TextEncoder(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.attn = ${build}

    def forward(self, x, mask):
        return self.attn(x, mask)


def sample(logits, causal=True):
    return logits.argmax(-1)
`;
    assert.deepEqual(await findingLines(mod('Attention(dim, heads)'), 'ATT008'), []);
    assert.deepEqual(await findingLines(mod('Attention(dim, heads, causal=True)'), 'ATT008'), [18]);
  });
  it('cross-file: the helper in attend.py, a file importing it calls it with the mask only: silent', async () => {
    const attend = helper('');
    const model = `import torch.nn as nn
from attend import attention


class Decoder(nn.Module):
    def __init__(self, causal=True):
        super().__init__()
        self.causal = causal

    def forward(self, q, k, v, keep):
        return attention(q, k, v, keep)
`;
    assert.deepEqual(await workspaceFindingLines({ 'attend.py': attend, 'model.py': model }, 'attend.py', 'ATT008'), []);
    assert.deepEqual(
      await workspaceFindingLines(
        { 'attend.py': attend, 'model.py': model.replace('attention(q, k, v, keep)', 'attention(q, k, v, keep, causal=True)') },
        'attend.py',
        'ATT008',
      ),
      [7],
    );
  });
});

describe('prec-cache34 5. ATT008: a module causal flag read True on cached keys only from a `causal=True` that may build it', () => {
  const cached = (rest: string) => `import functools

import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self, dim, heads, causal=False):
        super().__init__()
        self.causal = causal
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)

    def forward(self, x, cache):
        # x: (B, T, C); the cache grows the keys along T
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.heads, -1).permute(2, 0, 3, 1, 4)
        k, v = cache.update(k, v)
        y = F.scaled_dot_product_attention(q, k, v, is_causal=self.causal)
        return y.transpose(1, 2).reshape(B, T, C)
${rest}`;
  it('built causal through a callable the file does not define (functools.partial): reported', async () => {
    assert.deepEqual(await findingLines(cached('\n\nmake_layer = functools.partial(Attention, causal=True)\n'), 'ATT008'), [20]);
  });
  it("`causal=True` only as another class's default or a keyword of another function of the file: silent", async () => {
    const other = '\n\nclass Pooler(nn.Module):\n    def __init__(self, causal=True):\n        super().__init__()\n        self.causal = causal\n';
    assert.deepEqual(await findingLines(cached(other), 'ATT008'), []);
    const fnCall =
      '\n\ndef make_mask(T, causal=False):\n    return torch.ones(T, T).tril() if causal else torch.ones(T, T)\n\n\nMASK = make_mask(8, causal=True)\n';
    assert.deepEqual(await findingLines(cached(fnCall), 'ATT008'), []);
  });
});

describe('prec-cache34 6. ATT008: is_causal=True with a mask parameter every call in view leaves None', () => {
  const attn = `import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)

    def forward(self, x, mask=None):
        # x: (B, T, C)
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.heads, -1).permute(2, 0, 3, 1, 4)
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=mask, is_causal=True)
        return y.transpose(1, 2).reshape(B, T, C)
`;
  const block = (call: string) => `${attn}

class Block(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.attn = Attention(dim, heads)

    def forward(self, x, pad=None):
        return x + ${call}
`;
  it('the block calls it without a mask: silent; fixed form (no mask parameter): silent', async () => {
    assert.deepEqual(await findingLines(block('self.attn(x)'), 'ATT008'), []);
    const fixed = block('self.attn(x)').replace('def forward(self, x, mask=None):', 'def forward(self, x):').replace('attn_mask=mask, ', '');
    assert.deepEqual(await findingLines(fixed, 'ATT008'), []);
  });
  it('the block passes a mask (a tensor, or a parameter that may be one): reported', async () => {
    assert.deepEqual(await findingLines(block('self.attn(x, mask=~pad[:, None, None, :])'), 'ATT008'), [16]);
    assert.deepEqual(await findingLines(block('self.attn(x, pad)'), 'ATT008'), [16]);
  });
  it('no call in view: the parameter is there to be passed, reported', async () => {
    assert.deepEqual(await findingLines(attn, 'ATT008'), [16]);
  });
  it('cross-file: a model of another file passes the mask: reported in attention.py', async () => {
    const model = `import torch.nn as nn
from attention import Attention


class Model(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.attn = Attention(dim, heads)

    def forward(self, x, pad):
        return self.attn(x, mask=~pad[:, None, None, :])
`;
    assert.deepEqual(await workspaceFindingLines({ 'attention.py': block('self.attn(x)'), 'model.py': model }, 'attention.py', 'ATT008'), [16]);
  });
});

describe('prec-cache34 7. ATT008: an early exit with the cache leaves the rest of the function to the prompt', () => {
  const src = (test: string) => `import torch
import torch.nn.functional as F


def attend(q, k, v, past=None):
    # q, k, v: (B, H, T, D); past: (k, v) of (B, H, P, D)
    if past is not None:
        k = torch.cat([past[0], k], dim=2)
        v = torch.cat([past[1], v], dim=2)
    if ${test}:
        return F.scaled_dot_product_attention(q, k, v), (k, v)
    return F.scaled_dot_product_attention(q, k, v, is_causal=True), (k, v)
`;
  it('`if past is not None: return ...` first: silent; `if past is None: return ...` first: reported', async () => {
    assert.deepEqual(await findingLines(src('past is not None'), 'ATT008'), []);
    assert.deepEqual(await findingLines(src('past is None'), 'ATT008'), [12]);
  });
});

describe('prec-cache34 8. ATT008: a causal path taken in training or without the cache', () => {
  const src = (test: string) =>
    JOINED.replace(
      CALL,
      `        if ${test}:\n            out = F.scaled_dot_product_attention(q, k, v, is_causal=True)\n        else:\n            out = F.scaled_dot_product_attention(q, k, v)\n`,
    );
  it('`if self.training or past_key_value is None:` (a cache decodes in eval mode): silent', async () => {
    assert.deepEqual(await findingLines(src('self.training or past_key_value is None'), 'ATT008'), []);
    assert.deepEqual(await findingLines(src('self.training'), 'ATT008'), []);
  });
  it('`if not self.training or past_key_value is None:` (causal in eval, with the cache): reported', async () => {
    assert.deepEqual(await findingLines(src('not self.training or past_key_value is None'), 'ATT008'), [12]);
  });
});

describe('prec-cache34 9. ATT008: is_causal=True with a mask the code has just tested to be None', () => {
  const fn = (body: string) => `import torch
import torch.nn.functional as F


def attend(q, k, v, attn_mask=None):
    # q, k, v: (B, H, T, D); attn_mask: (B, 1, T, T) keep mask or None
${body}
`;
  const BOTH = 'F.scaled_dot_product_attention(q, k, v, attn_mask=attn_mask, is_causal=True)';
  it('the arm where `attn_mask is None`, the else of `is not None`, past an early return or raise, past an assert: silent', async () => {
    for (const body of [
      `    if attn_mask is None:\n        return ${BOTH}\n    return F.scaled_dot_product_attention(q, k, v, attn_mask=attn_mask)`,
      `    if attn_mask is not None:\n        out = F.scaled_dot_product_attention(q, k, v, attn_mask=attn_mask)\n    else:\n        out = ${BOTH}\n    return out`,
      `    if attn_mask is not None:\n        return F.scaled_dot_product_attention(q, k, v, attn_mask=attn_mask)\n    return ${BOTH}`,
      `    if q.size(0) == 0 or attn_mask is not None:\n        raise ValueError("causal attention takes no mask")\n    return ${BOTH}`,
      `    assert attn_mask is None, "causal attention takes no mask"\n    return ${BOTH}`,
      `    if not (attn_mask is not None) and q.size(2) > 0:\n        return ${BOTH}\n    return q`,
    ])
      assert.deepEqual(await findingLines(fn(body), 'ATT008'), [], body);
  });
  it('the arm where the mask is given, or a mask built after the test: reported', async () => {
    assert.deepEqual(await findingLines(fn(`    if attn_mask is not None:\n        return ${BOTH}\n    return q`), 'ATT008'), [8]);
    const rebuilt = `    if attn_mask is None:\n        attn_mask = torch.ones(q.size(2), k.size(2), dtype=torch.bool).tril()\n        return ${BOTH}\n    return q`;
    assert.deepEqual(await findingLines(fn(rebuilt), 'ATT008'), [9]);
    assert.deepEqual(await findingLines(fn(`    if attn_mask is None or q.size(0) > 0:\n        return ${BOTH}\n    return q`), 'ATT008'), [8]);
  });
});
