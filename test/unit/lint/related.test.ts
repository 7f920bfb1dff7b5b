// Related locations: every rule names the lines its evidence comes from (where the mask was built, where the
// scale or the keys were defined, the scores, the softmax, the product with the values, the cache
// concatenation), at the right lines; the fixed forms are silent; notebook evidence in another cell names it.
import { strict as assert } from 'node:assert';
import type { Finding, RelatedLocation } from '../../../src/lint';
import { linter } from './helpers';

/** 1-based line and column of the first occurrence of `needle` (after the first occurrence of `after`, if given). */
function at(source: string, needle: string, after?: string): { line: number; column: number } {
  const from = after === undefined ? 0 : source.indexOf(after);
  assert.ok(from >= 0, `no ${after} in the source`);
  const i = source.indexOf(needle, from);
  assert.ok(i >= 0, `no ${needle} in the source`);
  const before = source.slice(0, i).split('\n');
  return { line: before.length, column: before[before.length - 1].length + 1 };
}

async function only(source: string, code: string): Promise<Finding> {
  const findings = (await linter()).lintPython(source, { select: [code] });
  assert.equal(findings.length, 1, JSON.stringify(findings, null, 1));
  return findings[0];
}

function relatedAt(f: Finding, where: { line: number; column: number }, message: RegExp): RelatedLocation {
  const r = f.related?.find((x) => x.line === where.line && x.column === where.column);
  assert.ok(r, `${f.code}: nothing related at ${where.line}:${where.column}: ${JSON.stringify(f.related, null, 1)}`);
  assert.match(r.message, message);
  assert.equal(r.path, undefined, 'evidence in the same file has no path');
  return r;
}

const ATT002 = `import torch
import torch.nn.functional as F


def make_pad_mask(ids, pad_id):
    return ids.eq(pad_id)  # True at padding


def attend(q, k, v, ids, pad_id):
    mask = make_pad_mask(ids, pad_id)[:, None, None, :]
    return F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
`;

const ATT003 = `import torch


def attend(x, wq, wk, v):
    q = x @ wq
    k = x @ wk
    scores = q @ k.transpose(-2, -1)
    weights = torch.softmax(scores, dim=-1)
    return weights @ v
`;

const ATT004 = `import torch
import torch.nn.functional as F
from torch import nn


class Attention(nn.Module):
    def __init__(self, d_model, n_head):
        super().__init__()
        self.head_dim = d_model // n_head
        self.scale = self.head_dim ** -0.5

    def forward(self, q, k, v):
        q = q * self.scale
        return F.scaled_dot_product_attention(q, k, v)
`;

const ATT005 = `import torch
from torch import nn


class Attention(nn.Module):
    def __init__(self, d, n_head):
        super().__init__()
        self.n_head = n_head
        self.q_proj = nn.Linear(d, d)
        self.k_proj = nn.Linear(d, d)

    def forward(self, x):
        B, T, C = x.size()
        q = self.q_proj(x).view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        k = self.k_proj(x).view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        att = q @ k.transpose(1, 2)
        return att.softmax(dim=-1)
`;

const ATT006 = `import math
import torch
import torch.nn.functional as F


def attend(q, k, v, ids, pad_id):
    pad_mask = (ids == pad_id)[:, None, None, :]
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
    weights = F.softmax(scores, dim=-1)
    weights = weights.masked_fill(pad_mask, 0.0)
    return weights @ v
`;

const ATT007 = `import math
import torch


def attend(q, k, v):
    L = q.size(-2)
    causal = torch.triu(torch.ones(L, L, dtype=torch.bool))
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
    scores = scores.masked_fill(causal, float("-inf"))
    return torch.softmax(scores, dim=-1) @ v


def fp16_attend(q, k, v, mask):
    q, k = q.half(), k.half()
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
    scores = scores.masked_fill(mask == 0, -1e9)
    return torch.softmax(scores, dim=-1) @ v
`;

const ATT008 = `import torch
import torch.nn.functional as F


def step(q, k, v, past_k, past_v, mask):
    k = torch.cat([past_k, k], dim=-2)
    v = torch.cat([past_v, v], dim=-2)
    out = F.scaled_dot_product_attention(q, k, v, is_causal=True)
    keep = torch.ones(q.size(-2), k.size(-2), dtype=torch.bool).tril()
    return out, F.scaled_dot_product_attention(q, k, v, attn_mask=keep, is_causal=True)
`;

describe('related locations of findings', () => {
  it('ATT001: the scores (their key axis) and the product with the values', async () => {
    const src = `import math
import torch.nn.functional as F


def attend(q, k, v):
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
    weights = F.softmax(scores, dim=-2)
    return weights @ v
`;
    const f = await only(src, 'ATT001');
    assert.deepEqual({ line: f.line, column: f.column }, at(src, 'dim=-2'));
    relatedAt(f, at(src, 'q @ k'), /scores are formed here; their key axis is -1/);
    relatedAt(f, at(src, 'weights @ v'), /summed over axis -1 here \(the product with the values\)/);
    assert.deepEqual((await linter()).lintPython(src.replace('dim=-2', 'dim=-1')), []);
  });

  it("ATT001: scores from a layer of the code's own (a Linear to one feature) name where the layer is defined", async () => {
    const src = `import torch
import torch.nn.functional as F
from torch import nn


class Pool(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.score = nn.Linear(d, 1)

    def forward(self, h):
        w = F.softmax(self.score(h), dim=-1)
        return (w * h).sum(dim=1)
`;
    const f = await only(src, 'ATT001');
    relatedAt(f, at(src, 'self.score = '), /`self.score` is defined here/);
    assert.deepEqual((await linter()).lintPython(src.replace('dim=-1', 'dim=1'), { select: ['ATT001'] }), []);
  });

  it('ATT002: the mask built inside a helper, and the API that reads it', async () => {
    const f = await only(ATT002, 'ATT002');
    assert.deepEqual({ line: f.line, column: f.column }, at(ATT002, 'mask)', 'attn_mask='));
    const built = relatedAt(f, at(ATT002, 'ids.eq(pad_id)'), /the mask is built here \(True\/1 at positions to ignore\)/);
    assert.deepEqual({ endLine: built.endLine, endColumn: built.endColumn }, { endLine: built.line, endColumn: built.column + 'ids.eq(pad_id)'.length });
    relatedAt(f, at(ATT002, 'F.scaled_dot_product_attention'), /reads attn_mask as True\/1 = attend/);
    assert.deepEqual((await linter()).lintPython(ATT002.replace('attn_mask=mask', 'attn_mask=~mask')), []);
  });

  it('ATT002: a mask built one way and inverted on the way names both places, each with its meaning', async () => {
    const src = `import torch.nn.functional as F


def attend(q, k, v, ids, pad_id):
    keep = ids != pad_id
    masked = ~keep
    return F.scaled_dot_product_attention(q, k, v, attn_mask=masked[:, None, None, :])
`;
    const f = await only(src, 'ATT002');
    relatedAt(f, at(src, 'ids != pad_id'), /the mask is built here \(True\/1 at positions to keep\)/);
    relatedAt(f, at(src, '~keep'), /its meaning is inverted here \(now True\/1 at positions to ignore\)/);
    assert.deepEqual((await linter()).lintPython(src.replace('masked = ~keep', 'masked = keep')), []);
  });

  it("ATT003: the scores, the query's definition and the softmax", async () => {
    const f = await only(ATT003, 'ATT003');
    relatedAt(f, at(ATT003, 'q @ k'), /are formed here, from `q` and `k.transpose\(-2, -1\)`/);
    relatedAt(f, at(ATT003, 'q = x @ wq'), /`q` is defined here, with no 1\/sqrt\(d\) factor/);
    relatedAt(f, at(ATT003, 'torch.softmax'), /normalises them here, unscaled/);
    assert.deepEqual((await linter()).lintPython(ATT003.replace('k.transpose(-2, -1)', 'k.transpose(-2, -1) / q.size(-1) ** 0.5')), []);
  });

  it('ATT004: the manual scaling of q and where the scale is defined', async () => {
    const f = await only(ATT004, 'ATT004');
    relatedAt(f, at(ATT004, 'q * self.scale'), /`q` is scaled by `self.scale` here/);
    relatedAt(f, at(ATT004, 'self.scale = '), /`self.scale` is defined here/);
    assert.deepEqual((await linter()).lintPython(ATT004.replace('(q, k, v)', '(q, k, v, scale=1.0)')), []);
  });

  it('ATT004: a dimension used as the divisor names its definition', async () => {
    const src = `import torch


def attend(q, k, v):
    d_k = q.size(-1)
    scores = q @ k.transpose(-2, -1) / d_k
    return torch.softmax(scores, dim=-1) @ v
`;
    const f = await only(src, 'ATT004');
    relatedAt(f, at(src, 'd_k = q.size'), /`d_k` is defined here/);
  });

  it('ATT005: where the keys get their layout', async () => {
    const f = await only(ATT005, 'ATT005');
    relatedAt(f, at(ATT005, 'k = self.k_proj'), /the keys `k` get their layout here/);
    assert.deepEqual((await linter()).lintPython(ATT005.replace('k.transpose(1, 2)', 'k.transpose(-2, -1)'), { select: ['ATT005'] }), []);
  });

  it('ATT006: the softmax before the mask, where the mask was built, and where the weights are used', async () => {
    const f = await only(ATT006, 'ATT006');
    relatedAt(f, at(ATT006, 'F.softmax'), /the softmax normalises the weights here, before the mask/);
    relatedAt(f, at(ATT006, 'ids == pad_id'), /the mask is built here/);
    relatedAt(f, at(ATT006, 'weights @ v'), /are used here/);
  });

  it("ATT007: the mask that can hide a whole row, and the file's float16 evidence", async () => {
    const findings = (await linter()).lintPython(ATT007, { select: ['ATT007'] });
    assert.equal(findings.length, 2, JSON.stringify(findings));
    const [inf, fp16] = findings;
    relatedAt(inf, at(ATT007, 'torch.triu'), /the mask is built here \(True\/1 at positions to ignore\)/);
    relatedAt(inf, at(ATT007, 'torch.softmax'), /normalises the filled scores here/);
    relatedAt(fp16, at(ATT007, '.half()'), /this file runs in float16/);
  });

  it('ATT007: a fill given by name is defined where every finding on it says; a discarded fill names the softmax and the mask', async () => {
    const src = `import math
import torch

NEG_INF = float("-inf")
NO_MASK = 0.0


def causal_attend(q, k, v):
    L = q.size(-2)
    causal = torch.triu(torch.ones(L, L, dtype=torch.bool))
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
    scores = scores.masked_fill(causal, NEG_INF)
    return torch.softmax(scores, dim=-1) @ v


def weak_attend(q, k, v, mask):
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
    scores = scores.masked_fill(mask == 0, NO_MASK)
    return torch.softmax(scores, dim=-1) @ v


def inf_times_mask(q, k, v, input_ids, pad_id):
    keep = input_ids != pad_id  # (B, S), True at real tokens
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
    bias = (1 - keep[:, None, None, :].float()) * NEG_INF
    return torch.softmax(scores + bias, dim=-1) @ v


def discarded_attend(q, k, v):
    L = q.size(-2)
    future = torch.triu(torch.ones(L, L, dtype=torch.bool), diagonal=1)
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
    scores.masked_fill(future, -1e9)
    return torch.softmax(scores, dim=-1) @ v
`;
    const findings = (await linter()).lintPython(src, { select: ['ATT007'] });
    assert.equal(findings.length, 4, JSON.stringify(findings, null, 1));
    const [rows, weak, times, discarded] = findings;
    relatedAt(rows, at(src, 'NEG_INF = '), /the fill `NEG_INF` is defined here/);
    relatedAt(weak, at(src, 'NO_MASK = '), /the fill `NO_MASK` is defined here/);
    relatedAt(times, at(src, 'NEG_INF = '), /the fill `NEG_INF` is defined here/);
    relatedAt(times, at(src, 'input_ids != pad_id'), /the mask is built here/);
    relatedAt(rows, at(src, 'torch.triu'), /the mask is built here/);
    relatedAt(weak, at(src, 'torch.softmax', 'def weak_attend'), /normalises the filled scores here/);
    relatedAt(discarded, at(src, 'torch.softmax', 'def discarded_attend'), /torch\.softmax normalises the scores here, without the mask/);
    relatedAt(discarded, at(src, 'torch.triu', 'def discarded_attend'), /the mask is built here \(True\/1 at positions to ignore\)/);
  });

  it('ATT008: the cache concatenation, and the attn_mask passed with is_causal', async () => {
    const findings = (await linter()).lintPython(ATT008, { select: ['ATT008'] });
    const cache = findings.find((f) => f.message.startsWith('is_causal=True on keys'))!;
    const both = findings.find((f) => f.message.includes('is passed together with attn_mask'))!;
    const topLeft = findings.find((f) => f.message.includes('is a causal mask aligned top-left'))!;
    relatedAt(topLeft, at(ATT008, 'torch.ones'), /attn_mask is built here \(True\/1 at positions to keep\)/);
    relatedAt(topLeft, at(ATT008, 'torch.cat([past_k'), /the keys `k` include the KV cache here/);
    relatedAt(cache, at(ATT008, 'torch.cat([past_k'), /the keys `k` include the KV cache here/);
    relatedAt(both, at(ATT008, 'keep, is_causal'), /attn_mask is passed here as well/);
    relatedAt(both, at(ATT008, 'torch.ones'), /attn_mask is built here \(True\/1 at positions to keep\)/);
  });

  it('ATT001: a product with the values over the query axis names where the scores were formed', async () => {
    const src = `import math
import torch


def attend(q, k, v):
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
    weights = torch.softmax(scores, dim=-1)
    return (v.transpose(-2, -1) @ weights).transpose(-2, -1)
`;
    const [f] = (await linter()).lintPython(src, { select: ['ATT001'] });
    assert.match(f.message, /their query axis/);
    relatedAt(f, at(src, 'q @ k'), /the scores are formed here; the softmax makes their key axis \(-1\) sum to 1/);
  });

  it("drops evidence inside the finding's own range (an inline mask)", async () => {
    const src = `import torch.nn.functional as F


def attend(q, k, v, ids, pad_id):
    return F.scaled_dot_product_attention(q, k, v, attn_mask=(ids == pad_id)[:, None, None, :])
`;
    const f = await only(src, 'ATT002');
    assert.ok(!f.related?.some((r) => r.message.includes('built here')), JSON.stringify(f.related));
    for (const r of f.related ?? []) assert.ok(r.line !== f.line || r.column !== f.column);
  });

  it('notebooks: evidence in another cell names that cell, with lines relative to it', async () => {
    const cells = [
      { index: 0, source: '# markdown stands in' },
      { index: 1, source: 'import torch.nn.functional as F\n\npad_mask = input_ids == pad_id  # True at padding' },
      { index: 3, source: 'out = F.scaled_dot_product_attention(q, k, v, attn_mask=pad_mask[:, None, None, :])' },
    ];
    const result = (await linter()).lintCells(cells.slice(1), { select: ['ATT002'] });
    const f = result.find((c) => c.cellIndex === 3)?.findings[0];
    assert.ok(f, JSON.stringify(result));
    assert.equal(f.line, 1);
    const built = f.related?.find((r) => /built here/.test(r.message));
    assert.deepEqual(built && { cell: built.cell, line: built.line, column: built.column }, { cell: 1, line: 3, column: 12 }, JSON.stringify(f.related));
    const api = f.related?.find((r) => /reads attn_mask/.test(r.message));
    assert.ok(api && api.cell === undefined && api.line === 1, 'the same cell is not named');
  });
});
