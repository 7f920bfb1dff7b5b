// Session 36 (prec-cache36): ATT008's evidence that keys include a KV cache BEYOND the queries, tightened where it
// rested on a method name, an assumed read length or a piece's name alone (path audit: briefs/prec-cache36-audit.md).
//  1. `.update(...)` is Hugging Face's Cache.update only where the receiver is named or built as a cache
//     (`past_key_value.update(k, v, i)`, `self.kv_cache.update(...)`, a cache class of the workspace). Any other
//     object's `update` (a running statistic, a normaliser, an EMA) handed the keys is a method name, not a cache.
//  2. Keys read back from a preallocated buffer from position 0 up to the queries' own count, with no offset
//     (`self.cache_k[:B, :, :T]` in a prefill for T queries): as many keys as queries, so a top-left mask is right.
//     A read with an offset (`: start_pos + T`, `: positions.max() + 1`) or up to another length stays cached keys.
//  3. A piece named as a cache joined along an axis the layout shows to be the heads or the features
//     (`torch.cat([memory_k, k], dim=1)` of (B, h, T, d) keys) adds no positions: the name says nothing there.
//  4. (recall, training t27t-08) a parameter that the arm joining the keys with the cache requires (`if cache_enabled:`)
//     is True wherever the cache was joined; state kept as a pair and stored back (`c_k, c_v = self.kv_cache` ...
//     `self.kv_cache = [k, v]`) is a cache the module extends in place; an `assert ... or T == 1 or ...` does not hold
//     the query count to one. So a causal fill skipped behind `not cache_enabled` is the prompt left unmasked.
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

// q, k, v: (B, h, T, dh) from one projection of x: (B, T, C).
const HEAD = `import torch
import torch.nn as nn
import torch.nn.functional as F


class Attn(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.h = h
        self.qkv = nn.Linear(d, 3 * d)
        self.kv_cache = KVCache()
        self.stats = RunningStats()

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.h, C // self.h).permute(2, 0, 3, 1, 4)  # (B, h, T, dh)
`;
const update = (line: string, call = '        return F.scaled_dot_product_attention(q, k, v, is_causal=True)\n'): string => `${HEAD}${line}${call}`;

describe('prec-cache36 1. ATT008: .update(...) reads as a KV cache update only on a cache', () => {
  it('the natural bug, keys from self.kv_cache.update(k, v) under is_causal=True: reported', async () => {
    assert.deepEqual(await findingLines(update('        k, v = self.kv_cache.update(k, v)  # (B, h, past + T, dh)\n'), 'ATT008'), [18]);
  });
  it('the natural bug with a parameter: past_key_value.update(k, v, self.layer_idx): reported', async () => {
    const src =
      HEAD.replace('def forward(self, x):', 'def forward(self, x, past_key_value):') +
      '        k, v = past_key_value.update(k, v, 0)\n        return F.scaled_dot_product_attention(q, k, v, is_causal=True)\n';
    assert.deepEqual(await findingLines(src, 'ATT008'), [18]);
  });
  it('fixed: a bottom-right mask over the cached keys: silent', async () => {
    const src = update(
      '        k, v = self.kv_cache.update(k, v)\n        S = k.size(2)\n        keep = torch.ones(T, S, dtype=torch.bool, device=q.device).tril(diagonal=S - T)\n',
      '        return F.scaled_dot_product_attention(q, k, v, attn_mask=keep)\n',
    );
    assert.deepEqual(await findingLines(src, 'ATT008'), []);
  });
  it('a running statistic and an EMA handed the keys (self.stats.update, ema.update of a parameter): silent', async () => {
    assert.deepEqual(await findingLines(update('        k, v = self.stats.update(k, v)  # normalised, (B, h, T, dh)\n'), 'ATT008'), []);
    const ema =
      HEAD.replace('def forward(self, x):', 'def forward(self, x, ema):') +
      '        k, v = ema.update(k, v)\n        return F.scaled_dot_product_attention(q, k, v, is_causal=True)\n';
    assert.deepEqual(await findingLines(ema, 'ATT008'), []);
  });
  const STATS_PY = `import torch


class RunningNorm:
    def __init__(self):
        self.mean = None

    def update(self, k, v):
        m = k.mean(dim=(0, 2), keepdim=True)  # (1, h, 1, dh)
        self.mean = m if self.mean is None else 0.9 * self.mean + 0.1 * m
        return k - self.mean, v
`;
  const CACHE_PY = `import torch


class LayerMemory:
    def __init__(self):
        self.k = None
        self.v = None

    def update(self, k, v):
        if self.k is not None:
            k = torch.cat([self.k, k], dim=2)  # (B, h, past + T, dh)
            v = torch.cat([self.v, v], dim=2)
        self.k, self.v = k, v
        return k, v
`;
  const model = (imp: string, cls: string): string =>
    `${imp}\n` +
    HEAD.replace('        self.kv_cache = KVCache()\n        self.stats = RunningStats()\n', `        self.store = ${cls}()\n`) +
    '        k, v = self.store.update(k, v)\n        return F.scaled_dot_product_attention(q, k, v, is_causal=True)\n';
  it('cross-file: a normaliser class of another file whose update returns the keys: silent', async () => {
    const files = { 'stats.py': STATS_PY, 'model.py': model('from stats import RunningNorm', 'RunningNorm') };
    assert.deepEqual(await workspaceFindingLines(files, 'model.py', 'ATT008'), []);
  });
  it('cross-file: a class of another file that grows the keys by concatenation and stores them back: reported', async () => {
    const files = { 'memory.py': CACHE_PY, 'model.py': model('from memory import LayerMemory', 'LayerMemory') };
    assert.deepEqual(await workspaceFindingLines(files, 'model.py', 'ATT008'), [18]);
  });
});

// A preallocated cache: (1, h, max_len, dh) buffers written at the new positions and read back.
const BUFFERS = `import torch
import torch.nn as nn
import torch.nn.functional as F


class Attn(nn.Module):
    def __init__(self, d, h, max_len):
        super().__init__()
        self.h = h
        self.qkv = nn.Linear(d, 3 * d)
        self.register_buffer("cache_k", torch.zeros(1, h, max_len, d // h))
        self.register_buffer("cache_v", torch.zeros(1, h, max_len, d // h))
        self.register_buffer("bias", torch.tril(torch.ones(max_len, max_len)).view(1, 1, max_len, max_len))

    def forward(self, x, start_pos):
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.h, C // self.h).permute(2, 0, 3, 1, 4)  # (B, h, T, dh)
        self.cache_k[:B, :, start_pos : start_pos + T] = k
        self.cache_v[:B, :, start_pos : start_pos + T] = v
`;
const withRead = (read: string, tail = '        return F.scaled_dot_product_attention(q, k, v, is_causal=True)\n'): string => `${BUFFERS}${read}${tail}`;

describe('prec-cache36 2. ATT008: a buffer read back only up to the queries own count', () => {
  it('the natural bug, keys read up to start_pos + T under is_causal=True: reported', async () => {
    const src = withRead('        k = self.cache_k[:B, :, : start_pos + T]  # (B, h, start_pos + T, dh)\n        v = self.cache_v[:B, :, : start_pos + T]\n');
    assert.deepEqual(await findingLines(src, 'ATT008'), [22]);
  });
  it('fixed: the rows start_pos:start_pos + T of the causal buffer as attn_mask: silent', async () => {
    const src = withRead(
      '        k = self.cache_k[:B, :, : start_pos + T]\n        v = self.cache_v[:B, :, : start_pos + T]\n',
      '        return F.scaled_dot_product_attention(q, k, v, attn_mask=self.bias[:, :, start_pos : start_pos + T, : start_pos + T] > 0)\n',
    );
    assert.deepEqual(await findingLines(src, 'ATT008'), []);
  });
  it('a prefill that reads back the first T positions for its T queries (a name, or in place): silent', async () => {
    const named = withRead('        k = self.cache_k[:B, :, :T]  # (B, h, T, dh): the prompt just written at 0\n        v = self.cache_v[:B, :, :T]\n');
    assert.deepEqual(await findingLines(named, 'ATT008'), []);
    const inPlace = withRead('', '        return F.scaled_dot_product_attention(q, self.cache_k[:B, :, :T], self.cache_v[:B, :, :T], is_causal=True)\n');
    assert.deepEqual(await findingLines(inPlace, 'ATT008'), []);
  });
  it('hand-written: the same prefill read under the top-left rows :T of the causal buffer: silent; read up to start_pos + T: reported', async () => {
    const scores = (stop: string): string =>
      withRead(
        `        k = self.cache_k[:B, :, :${stop}]\n        v = self.cache_v[:B, :, :${stop}]\n        att = (q @ k.transpose(-2, -1)) * (1.0 / (C // self.h) ** 0.5)  # (B, h, T, S)\n        att = att.masked_fill(self.bias[:, :, :T, :k.size(2)] == 0, float("-inf"))\n`,
        '        return F.softmax(att, dim=-1) @ v\n',
      );
    assert.deepEqual(await findingLines(scores('T'), 'ATT008'), []);
    assert.deepEqual(await findingLines(scores('start_pos + T'), 'ATT008'), [23]);
  });
  it('a read up to another length (a name bound to start_pos + T, or the offset written in): reported', async () => {
    const end = withRead('        end = start_pos + T\n        k = self.cache_k[:B, :, :end]\n        v = self.cache_v[:B, :, :end]\n');
    assert.deepEqual(await findingLines(end, 'ATT008'), [23]);
  });
  it('cross-file: the prefill read in the importer, a top-left (T, S) mask in a helper of another file: silent; the decode read: reported', async () => {
    // attend.py: hand-written attention over the keys it is given, masked top-left over (T, S).
    const helper = `import torch


def attend(q, k, v, T, S):
    att = q @ k.transpose(-2, -1)  # (B, h, T, S)
    att = att.masked_fill(torch.tril(torch.ones(T, S)) == 0, float("-inf"))
    return att.softmax(-1) @ v
`;
    const importer = (stop: string): string =>
      `from attend import attend\n${BUFFERS}        k = self.cache_k[:B, :, :${stop}]\n        v = self.cache_v[:B, :, :${stop}]\n        return attend(q, k, v, T, ${stop})\n`;
    assert.deepEqual(await workspaceFindingLines({ 'attend.py': helper, 'model.py': importer('T') }, 'attend.py', 'ATT008'), []);
    assert.deepEqual(await workspaceFindingLines({ 'attend.py': helper, 'model.py': importer('start_pos + T') }, 'attend.py', 'ATT008'), [6]);
  });
});

describe('prec-cache36 3. ATT008: a cache-named piece joined along the heads or the features', () => {
  const MEM = (dim: number, q = ''): string =>
    `${HEAD.replace('def forward(self, x):', 'def forward(self, x, memory_k=None, memory_v=None):')}        if memory_k is not None:\n            k = torch.cat([memory_k, k], dim=${dim})\n            v = torch.cat([memory_v, v], dim=${dim})\n${q}        return F.scaled_dot_product_attention(q, k, v, is_causal=True)\n`;
  it('the natural bug, memory positions joined before the keys (dim=2 of (B, h, T, dh)): reported', async () => {
    assert.deepEqual(await findingLines(MEM(2), 'ATT008'), [20]);
  });
  it('fixed: queries over memory and keys with a bottom-right mask: silent', async () => {
    const src = MEM(2).replace(
      '        return F.scaled_dot_product_attention(q, k, v, is_causal=True)\n',
      '        S = k.size(2)\n        keep = torch.ones(T, S, dtype=torch.bool, device=q.device).tril(diagonal=S - T)\n        return F.scaled_dot_product_attention(q, k, v, attn_mask=keep)\n',
    );
    assert.deepEqual(await findingLines(src, 'ATT008'), []);
  });
  it('memory stacked on the heads axis (dim=1, the queries repeated to match): silent', async () => {
    assert.deepEqual(await findingLines(MEM(1, '            q = torch.cat([q, q], dim=1)  # (B, 2h, T, dh)\n'), 'ATT008'), []);
  });
  it('cached features appended on the feature axis of the keys only (dim=-1, values widened alike): silent', async () => {
    const src = `${HEAD.replace('def forward(self, x):', 'def forward(self, x, cached_feats):')}        k = torch.cat([k, cached_feats], dim=-1)  # (B, h, T, dh + f)\n        q = self.widen(q)  # (B, h, T, dh + f)\n        return F.scaled_dot_product_attention(q, k, v, is_causal=True)\n`;
    assert.deepEqual(await findingLines(src, 'ATT008'), []);
  });
});

// t27t-08's class: a use-flag parameter gates the arm that joins the keys with state the module keeps as a pair and
// stores back (`c_k, c_v = self.kv_cache`, `self.kv_cache = [k, v]`), and the causal fill runs only without the flag.
// q, k, v: (B, h, T, dh); the keys (B, h, past + T, dh) with the cache.
const FLAGGED = `import torch
import torch.nn as nn
import torch.nn.functional as F


class Attn(nn.Module):
    def __init__(self, d, h, max_len=1024):
        super().__init__()
        self.h = h
        self.qkv = nn.Linear(d, 3 * d)
        self.register_buffer("future", torch.triu(torch.ones(max_len, max_len, dtype=torch.bool), diagonal=1))
        self.kv_cache = None

    def forward(self, x, cache_enabled=False):
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.h, C // self.h).permute(2, 0, 3, 1, 4)  # (B, h, T, dh)
        if cache_enabled:
            if self.kv_cache is not None:
                c_k, c_v = self.kv_cache
                k = torch.cat((c_k, k), dim=-2)  # (B, h, past + T, dh)
                v = torch.cat((c_v, v), dim=-2)
            self.kv_cache = [k, v]
        att = (q @ k.transpose(-2, -1)) * (1.0 / (C // self.h) ** 0.5)  # (B, h, T, S)
        if not cache_enabled:
            att = att.masked_fill(self.future[:T, :T], float("-inf"))
        return F.softmax(att, dim=-1) @ v
`;
const MASK_LINE = '        if not cache_enabled:\n            att = att.masked_fill(self.future[:T, :T], float("-inf"))\n';

describe('prec-cache36 4. ATT008: a causal fill skipped behind the flag that turns on a cache kept on the module', () => {
  it('the natural bug (the prompt with the flag on, empty cache, goes unmasked): reported at the mask', async () => {
    assert.deepEqual(await findingLines(FLAGGED, 'ATT008'), [25]);
  });
  it('the same with the pair read by index (self.kv_cache[0]) and with a use_cache and-condition: reported', async () => {
    const indexed = FLAGGED.replace('                c_k, c_v = self.kv_cache\n', '')
      .replace('(c_k, k)', '(self.kv_cache[0], k)')
      .replace('(c_v, v)', '(self.kv_cache[1], v)');
    assert.deepEqual(await findingLines(indexed, 'ATT008'), [24]);
    const anded = FLAGGED.replace('        if cache_enabled:\n', '        if cache_enabled and x.requires_grad is False:\n');
    assert.deepEqual(await findingLines(anded, 'ATT008'), [25]);
  });
  it('an assert that allows several queries on an empty cache (an `or`) does not excuse it: reported', async () => {
    const src = FLAGGED.replace(
      '        B, T, C = x.shape\n',
      '        B, T, C = x.shape\n        assert not cache_enabled or T == 1 or self.kv_cache is None\n',
    );
    assert.deepEqual(await findingLines(src, 'ATT008'), [26]);
  });
  it('fixed: a bottom-right cut of the causal buffer whatever the flag: silent', async () => {
    const fixed = FLAGGED.replace(MASK_LINE, '        S = k.size(2)\n        att = att.masked_fill(self.future[S - T : S, :S], float("-inf"))\n');
    assert.deepEqual(await findingLines(fixed, 'ATT008'), []);
  });
  it('decode-only designs: one query asserted, the mask also applied for the prefill, keys handed back: silent', async () => {
    const oneQuery = FLAGGED.replace(
      '        B, T, C = x.shape\n',
      '        B, T, C = x.shape\n        assert T == 1 or not cache_enabled\n'.replace(' or not cache_enabled', ''),
    );
    assert.deepEqual(await findingLines(oneQuery, 'ATT008'), []);
    const prefill = FLAGGED.replace('        if cache_enabled:\n', '        prefill = self.kv_cache is None\n        if cache_enabled:\n').replace(
      '        if not cache_enabled:\n',
      '        if not cache_enabled or prefill:\n',
    );
    assert.deepEqual(await findingLines(prefill, 'ATT008'), []);
    const handed = FLAGGED.replace('        return F.softmax(att, dim=-1) @ v\n', '        return F.softmax(att, dim=-1) @ v, (k, v)\n');
    assert.deepEqual(await findingLines(handed, 'ATT008'), []);
  });
  it('state grown directly (self.keys), its mask applied while the state is still empty (the prompt): silent', async () => {
    const direct = `import torch
import torch.nn as nn
import torch.nn.functional as F


class Attn(nn.Module):
    def __init__(self, d, h, max_len=1024):
        super().__init__()
        self.h = h
        self.qkv = nn.Linear(d, 3 * d)
        self.register_buffer("future", torch.triu(torch.ones(max_len, max_len, dtype=torch.bool), diagonal=1))
        self.keys = None
        self.values = None

    def forward(self, x, use_cache=False):
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.h, C // self.h).permute(2, 0, 3, 1, 4)  # (B, h, T, dh)
        empty = self.keys is None
        if use_cache:
            if self.keys is not None:
                k = torch.cat([self.keys, k], dim=2)  # (B, h, past + T, dh)
                v = torch.cat([self.values, v], dim=2)
            self.keys, self.values = k, v
        att = (q @ k.transpose(-2, -1)) * (1.0 / (C // self.h) ** 0.5)
        if not use_cache or empty:
            att = att.masked_fill(self.future[:T, :T], float("-inf"))
        return F.softmax(att, dim=-1) @ v
`;
    assert.deepEqual(await findingLines(direct, 'ATT008'), []);
    assert.deepEqual(await findingLines(direct.replace('        if not use_cache or empty:\n', '        if not use_cache:\n'), 'ATT008'), [26]);
  });
  it("a flag that is not the join arm's condition (the join under `if self.kv_cache is not None:` alone): silent as before", async () => {
    const src = FLAGGED.replace(
      '        if cache_enabled:\n            if self.kv_cache is not None:\n',
      '        if True:\n            if self.kv_cache is not None:\n',
    );
    assert.deepEqual(await findingLines(src, 'ATT008'), []);
  });
  it('cross-file: a model file that builds the layer and turns the flag on in eval mode: reported in the layer file; fixed layer: silent', async () => {
    const model = `import torch.nn as nn\n\nfrom attention import Attn\n\n\nclass Model(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.attn = Attn(256, 4)\n\n    def forward(self, x):\n        return self.attn(x, cache_enabled=not self.training)\n`;
    assert.deepEqual(await workspaceFindingLines({ 'attention.py': FLAGGED, 'model.py': model }, 'attention.py', 'ATT008'), [25]);
    const fixed = FLAGGED.replace(MASK_LINE, '        S = k.size(2)\n        att = att.masked_fill(self.future[S - T : S, :S], float("-inf"))\n');
    assert.deepEqual(await workspaceFindingLines({ 'attention.py': fixed, 'model.py': model }, 'attention.py', 'ATT008'), []);
  });
});
