// Interprocedural analysis within a file: helpers' results at their call sites (summaries per function and
// abstract arguments, tuple returns unpacked), `self.` attributes set in __init__ or another method, and
// flags set in a branch (both paths kept, and which definitions hold together on one path). Each class: a
// small natural example that is buggy (finding expected) and its fixed form (silent).
import { strict as assert } from 'node:assert';
import { Evaluator } from '../../../src/lint/analysis/evaluator';
import { analyseScopes } from '../../../src/lint/analysis/scopes';
import { createPythonParser } from '../../../src/lint/parser';
import { linter, grammar } from './helpers';

async function codes(src: string): Promise<string[]> {
  return (await linter()).lintPython(src).map((f) => `${f.code}@${f.line}`);
}

describe('interprocedural: helpers and tuple returns', () => {
  const tupleHelper = (cmp: string) => `import torch
import torch.nn.functional as F


def build_masks(input_ids, pad_id):
    padding = input_ids ${cmp} pad_id
    lengths = padding.sum(-1)
    return padding[:, None, None, :], lengths


def attend(q, k, v, input_ids):
    pad_mask, lengths = build_masks(input_ids, 0)
    return F.scaled_dot_product_attention(q, k, v, attn_mask=pad_mask)
`;

  it('a tuple-returning mask helper, unpacked at the call site: buggy and fixed', async () => {
    assert.deepEqual(await codes(tupleHelper('==')), ['ATT002@13']);
    assert.deepEqual(await codes(tupleHelper('!=')), []);
  });

  it('a helper called from two sites with the same abstract arguments shares one summary', async () => {
    const src = `import torch
import torch.nn.functional as F


def pad_mask(ids):
    return ids.eq(0)[:, None, None, :]


def first(q, k, v, ids):
    return F.scaled_dot_product_attention(q, k, v, attn_mask=pad_mask(ids))


def second(q, k, v, ids):
    return F.scaled_dot_product_attention(q, k, v, attn_mask=pad_mask(ids))
`;
    assert.deepEqual(await codes(src), ['ATT002@10', 'ATT002@14']);
    const parser = await createPythonParser(grammar());
    const tree = parser.parse(src, { full: true });
    const sr = analyseScopes(tree);
    const ev = new Evaluator(tree, sr);
    ev.run();
    const helper = sr.scopes.find((s) => s.name === 'pad_mask')!;
    // The default context and one summary for `ids` (both callers pass a parameter named ids).
    assert.equal(ev.contextsOf(helper).length, 2);
  });
});

describe('interprocedural: self attributes set in another method', () => {
  const cacheClass = (build: string) => `import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dim = dim
        self.mask = None

    def setup_cache(self, max_len):
        self.mask = ${build}

    def forward(self, q, k, v):
        return F.scaled_dot_product_attention(q, k, v, attn_mask=self.mask)
`;

  it('a mask built in setup_cache, read in forward: buggy and fixed', async () => {
    assert.deepEqual(await codes(cacheClass('torch.ones(max_len, max_len, dtype=torch.bool).triu(1)')), ['ATT002@16']);
    assert.deepEqual(await codes(cacheClass('torch.ones(max_len, max_len, dtype=torch.bool).tril()')), []);
  });

  const bufferClass = (use: string) => `import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self, block_size):
        super().__init__()
        self.register_buffer("causal", torch.tril(torch.ones(block_size, block_size, dtype=torch.bool)))

    def forward(self, q, k, v):
        T = q.size(-2)
        return F.scaled_dot_product_attention(q, k, v, attn_mask=${use})
`;

  it('a causal buffer registered in __init__, inverted in forward: buggy and fixed', async () => {
    assert.deepEqual(await codes(bufferClass('~self.causal[:T, :T]')), ['ATT002@13']);
    assert.deepEqual(await codes(bufferClass('self.causal[:T, :T]')), []);
  });
});

describe('interprocedural: a flag set in a branch', () => {
  const flagged = (inCacheBranch: string, before: string) => `import torch
import torch.nn.functional as F


def attend(q, k, v, past_kv=None):
    is_causal = ${before}
    if past_kv is not None:
        k = torch.cat([past_kv[0], k], dim=-2)
        v = torch.cat([past_kv[1], v], dim=-2)
        is_causal = ${inCacheBranch}
    return F.scaled_dot_product_attention(q, k, v, is_causal=is_causal)
`;

  it('is_causal = True set where the keys take the cache: buggy; set False there: fixed', async () => {
    assert.deepEqual(await codes(flagged('True', 'False')), ['ATT008@11']);
    assert.deepEqual(await codes(flagged('False', 'True')), []);
  });

  it('with an else branch: True only on the path without the cache is fixed', async () => {
    const src = (cacheFlag: string, otherFlag: string) => `import torch
import torch.nn.functional as F


def attend(q, k, v, past_kv=None):
    if past_kv is not None:
        k = torch.cat([past_kv[0], k], dim=-2)
        v = torch.cat([past_kv[1], v], dim=-2)
        causal = ${cacheFlag}
    else:
        causal = ${otherFlag}
    return F.scaled_dot_product_attention(q, k, v, is_causal=causal)
`;
    assert.deepEqual(await codes(src('True', 'True')), ['ATT008@12']);
    assert.deepEqual(await codes(src('False', 'True')), []);
  });

  it('the flag set in the arm that joins the keys with the cache, whatever its condition says: buggy and fixed', async () => {
    const src = (inCacheArm: string) => `import torch
import torch.nn.functional as F


def attend(q, k, v, kv_cache, use_cache=False):
    is_causal = True
    if use_cache:
        k = torch.cat([kv_cache[0], k], dim=-2)
        v = torch.cat([kv_cache[1], v], dim=-2)
        is_causal = ${inCacheArm}
    return F.scaled_dot_product_attention(q, k, v, is_causal=is_causal)
`;
    assert.deepEqual(await codes(src('True')), ['ATT008@11']);
    assert.deepEqual(await codes(src('q.size(-2) == k.size(-2)')), []);
  });
});

describe('interprocedural: helpers whose text names no attention', () => {
  const plainHelper = (method: string) => `import torch
import torch.nn.functional as F


def token_flags(input_ids):
    return input_ids.${method}(0)[:, None, None, :]


def attend(q, k, v, input_ids):
    return F.scaled_dot_product_attention(q, k, v, attn_mask=token_flags(input_ids))
`;

  it('a helper the site calls is analysed whatever its text: buggy (eq) and fixed (ne)', async () => {
    assert.deepEqual(await codes(plainHelper('eq')), ['ATT002@10']);
    assert.deepEqual(await codes(plainHelper('ne')), []);
  });

  const cacheThroughHelper = (guard: string) => `import torch
import torch.nn.functional as F


def repeat_kv(x, n_rep):
    if n_rep == 1:
        return x
    b, h, s, d = x.shape
    return x[:, :, None].expand(b, h, n_rep, s, d).reshape(b, h * n_rep, s, d)


def attend(q, k, v, past_kv, n_rep):
    if past_kv is not None:
        k = torch.cat([past_kv[0], k], dim=-2)
        v = torch.cat([past_kv[1], v], dim=-2)
    k, v = repeat_kv(k, n_rep), repeat_kv(v, n_rep)
    Tq = q.size(-2)
    Tk = k.size(-2)
${guard}
`;

  it('keys from a cache through a helper: is_causal=True unguarded is buggy; under `if Tq == Tk` it is fixed', async () => {
    assert.deepEqual(await codes(cacheThroughHelper('    return F.scaled_dot_product_attention(q, k, v, is_causal=True)')), ['ATT008@19']);
    const guarded = `    if past_kv is None or Tq == Tk:
        return F.scaled_dot_product_attention(q, k, v, is_causal=True)
    mask = torch.ones(Tq, Tk, dtype=torch.bool).tril(diagonal=Tk - Tq)
    return F.scaled_dot_product_attention(q, k, v, attn_mask=mask)`;
    assert.deepEqual(await codes(cacheThroughHelper(guarded)), []);
  });
});

describe('interprocedural: a flag set in forward, read in the method it calls', () => {
  const src = (before: string, onCachePath: string) => `import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def forward(self, q, k, v, past=None):
        self.causal = ${before}
        if past is not None:
            k = torch.cat([past[0], k], dim=-2)
            v = torch.cat([past[1], v], dim=-2)
            self.causal = ${onCachePath}
        return self._attend(q, k, v)

    def _attend(self, q, k, v):
        return F.scaled_dot_product_attention(q, k, v, is_causal=self.causal)
`;

  it('self.causal = True set where forward takes the cache: buggy; set False there: fixed', async () => {
    assert.deepEqual(await codes(src('False', 'True')), ['ATT008@16']);
    assert.deepEqual(await codes(src('True', 'False')), []);
  });
});

describe('interprocedural: modules built and called in the same file', () => {
  const model = (mask: string, fill: string) => `import torch
from torch import nn


class Attention(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.to_qkv = nn.Linear(dim, dim * 3)

    def forward(self, x, mask=None):
        q, k, v = self.to_qkv(x).chunk(3, dim=-1)
        sim = q @ k.transpose(-2, -1) * q.shape[-1] ** -0.5
        if mask is not None:
            sim = sim.masked_fill(${fill}, -torch.finfo(sim.dtype).max)
        return sim.softmax(dim=-1) @ v


class Encoder(nn.Module):
    def __init__(self, dim, depth):
        super().__init__()
        self.layers = nn.ModuleList([Attention(dim) for _ in range(depth)])

    def forward(self, x, text_mask=None):
        for layer in self.layers:
            x = layer(x, mask=text_mask) + x
        return x


def encode(x, ids):
    encoder = Encoder(64, depth=2)
    mask = ${mask}
    return encoder(x, text_mask=mask)
`;
  it("a caller builds the model, which iterates its nn.ModuleList of layers: the caller's mask reaches the layer", async () => {
    assert.deepEqual(await codes(model('ids != 0', 'mask[:, None, :]')), ['ATT002@14']);
    assert.deepEqual(await codes(model('ids != 0', '~mask[:, None, :]')), []);
  });
  it('an all-ones tensor passed as the mask masks nothing: 1 = keep', async () => {
    assert.deepEqual(await codes(model('torch.ones_like(ids).bool()', 'mask[:, None, :]')), ['ATT002@14']);
    assert.deepEqual(await codes(model('torch.ones_like(ids).bool()', '~mask[:, None, :]')), []);
  });
});
