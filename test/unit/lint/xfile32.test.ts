// Session 32 (xfile32): what crosses a file boundary with attention scores passed to a helper of another file.
// Class 1: a masking helper (`def fill_padding(scores, mask): return scores.masked_fill(mask == 0, v)`) fills a
// parameter nothing in its file shows to be attention scores; the files importing it pass the scores, so the fill is
// judged as they call it (importer-calls.ts), with what the caller does after the call carried along with the scores:
// whether a softmax there normalises them and whether the weights are cleared of NaN there (also by a helper of the
// other file). Class 2: scores handed back by such a helper with their key axis where it was are still the caller's
// scores (cross-file.ts: resumed), as a helper of the same file would leave them. Class 3: a helper choosing between
// two of its parameters (`torch.where(keep, scores, fill)`): which one is the fill is what the callers pass.
import { strict as assert } from 'node:assert';
import { createLinter } from '../../../src/lint';
import type { Finding } from '../../../src/lint';
import { grammar, memoryWorkspace } from './helpers';

async function lint(files: Record<string, string>, path: string, code: string): Promise<Finding[]> {
  const l = await createLinter(grammar(), { workspace: memoryWorkspace(files), onInternalError: (e) => assert.fail(String(e)) });
  return l.lintPython(files[path] ?? '', { path }).filter((f) => f.code === code);
}

const helper = (fill: string, extra = ''): string => `import torch


def fill_padding(scores, mask):
    return scores.masked_fill(mask == 0, ${fill})
${extra}`;

/** Cross-attention whose padding mask covers the queries too (a padded query row is fully masked). */
const crossAttention = (imp: string, after = '', tail = ''): string => `import math

import torch
import torch.nn as nn
${imp}

class CrossAttention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.q = nn.Linear(dim, dim)
        self.kv = nn.Linear(dim, 2 * dim)

    def forward(self, x, mem, len_x, len_mem):
        B, T, C = x.shape
        S = mem.shape[1]
        q = self.q(x).view(B, T, self.heads, C // self.heads).transpose(1, 2)
        k, v = self.kv(mem).view(B, S, 2, self.heads, C // self.heads).permute(2, 0, 3, 1, 4)
        scores = q @ k.transpose(-2, -1) / math.sqrt(C // self.heads)
        mask = torch.zeros(B, T, S, device=x.device)
        for i in range(B):
            mask[i, : len_x[i], : len_mem[i]] = 1
        scores = fill_padding(scores, mask.unsqueeze(1))
        weights = torch.softmax(scores, dim=-1)
        ${after}
        return (weights @ v).transpose(1, 2).reshape(B, T, C)
${tail}`;

/** The helper moved into the caller's file (the imports it needs are there already). */
const oneFile = (caller: string, h: string): string => caller.replace(/^from \.masks import .*$/m, '') + '\n\n' + h.replace('import torch\n', '');

const IMPORT = 'from .masks import fill_padding, clear_nan';
const CLEAR_NAN = `

def clear_nan(weights):
    return torch.where(torch.isnan(weights), torch.zeros_like(weights), weights)
`;

describe('lint: attention scores passed to a helper of another file (xfile32)', () => {
  describe('ATT007: -inf filled by a helper of another file, rows the caller empties', () => {
    it('two files: reported at the fill, in the helper', async () => {
      const files = { 'pkg/__init__.py': '', 'pkg/masks.py': helper('float("-inf")', CLEAR_NAN), 'pkg/attn.py': crossAttention(IMPORT) };
      const found = await lint(files, 'pkg/masks.py', 'ATT007');
      assert.equal(found.length, 1, JSON.stringify(found));
      assert.equal(found[0].line, 5);
      // The call in the importing file is a related location.
      assert.ok(
        found[0].related?.some((r) => r.path === 'pkg/attn.py'),
        JSON.stringify(found[0].related),
      );
    });
    it('one file: reported', async () => {
      const files = { 'pkg/__init__.py': '', 'pkg/attn.py': oneFile(crossAttention(IMPORT), helper('float("-inf")', CLEAR_NAN)) };
      assert.equal((await lint(files, 'pkg/attn.py', 'ATT007')).length, 1);
    });
    it('two files, fixed (a finite fill): silent', async () => {
      const files = { 'pkg/__init__.py': '', 'pkg/masks.py': helper('torch.finfo(scores.dtype).min', CLEAR_NAN), 'pkg/attn.py': crossAttention(IMPORT) };
      assert.deepEqual(await lint(files, 'pkg/masks.py', 'ATT007'), []);
    });
    it('two files, the caller clears NaN from the weights: silent', async () => {
      const caller = crossAttention(IMPORT, 'weights = torch.nan_to_num(weights, nan=0.0)');
      const files = { 'pkg/__init__.py': '', 'pkg/masks.py': helper('float("-inf")', CLEAR_NAN), 'pkg/attn.py': caller };
      assert.deepEqual(await lint(files, 'pkg/masks.py', 'ATT007'), []);
    });
    it('one file, the caller clears NaN from the weights: silent', async () => {
      const caller = crossAttention(IMPORT, 'weights = torch.nan_to_num(weights, nan=0.0)');
      const files = { 'pkg/__init__.py': '', 'pkg/attn.py': oneFile(caller, helper('float("-inf")', CLEAR_NAN)) };
      assert.deepEqual(await lint(files, 'pkg/attn.py', 'ATT007'), []);
    });
    it('two files, the weights cleared of NaN by a helper of the other file: silent', async () => {
      const caller = crossAttention(IMPORT, 'weights = clear_nan(weights)');
      const files = { 'pkg/__init__.py': '', 'pkg/masks.py': helper('float("-inf")', CLEAR_NAN), 'pkg/attn.py': caller };
      assert.deepEqual(await lint(files, 'pkg/masks.py', 'ATT007'), []);
      assert.deepEqual(await lint(files, 'pkg/attn.py', 'ATT007'), []);
    });
    it('the helper linted alone: silent (nothing shows what it fills)', async () => {
      const files = { 'pkg/__init__.py': '', 'pkg/masks.py': helper('float("-inf")', CLEAR_NAN) };
      assert.deepEqual(await lint(files, 'pkg/masks.py', 'ATT007'), []);
    });
  });

  describe('ATT007: a fill below float16 in a helper of another file, the model run in half precision', () => {
    const model = (imp: string): string => `import math

import torch
import torch.nn as nn
import torch.nn.functional as F
${imp}

class Attention(nn.Module):
    def forward(self, q, k, v, mask):
        scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(q.size(-1))
        scores = fill_padding(scores, mask)
        return torch.matmul(F.softmax(scores, dim=-1), v)


def build(device):
    return Attention().to(device).half()
`;
    it('two files: reported at the fill, naming the half precision', async () => {
      const files = { 'pkg/__init__.py': '', 'pkg/masks.py': helper('-1e9'), 'pkg/attn.py': model('from .masks import fill_padding') };
      const found = await lint(files, 'pkg/masks.py', 'ATT007');
      assert.equal(found.length, 1, JSON.stringify(found));
      assert.match(found[0].message, /float16/);
    });
    it('one file: reported', async () => {
      const files = { 'pkg/__init__.py': '', 'pkg/attn.py': oneFile(model('from .masks import fill_padding'), helper('-1e9')) };
      assert.equal((await lint(files, 'pkg/attn.py', 'ATT007')).length, 1);
    });
    it('two files, fixed (finfo min): silent', async () => {
      const files = { 'pkg/__init__.py': '', 'pkg/masks.py': helper('torch.finfo(scores.dtype).min'), 'pkg/attn.py': model('from .masks import fill_padding') };
      assert.deepEqual(await lint(files, 'pkg/masks.py', 'ATT007'), []);
    });
    it('two files, the helper fills logits that are no attention scores: silent', async () => {
      const caller = `import torch
import torch.nn as nn
import torch.nn.functional as F
from .masks import fill_padding


class Tagger(nn.Module):
    def __init__(self, dim, n_tags):
        super().__init__()
        self.out = nn.Linear(dim, n_tags)

    def forward(self, h, allowed):
        logits = fill_padding(self.out(h), allowed)
        return F.log_softmax(logits, dim=-1)


def build(device):
    return Tagger(256, 9).to(device).half()
`;
      const files = { 'pkg/__init__.py': '', 'pkg/masks.py': helper('-1e9'), 'pkg/attn.py': caller };
      assert.deepEqual(await lint(files, 'pkg/masks.py', 'ATT007'), []);
    });
  });

  describe('ATT007: a near-zero fill in a helper of another file', () => {
    const caller = (use: string): string => `import math

import torch
import torch.nn as nn
from .masks import fill_padding


class Attention(nn.Module):
    def forward(self, q, k, v, mask):
        scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(q.size(-1))
        scores = fill_padding(scores, mask)
        ${use}
`;
    const SOFTMAX = 'return torch.matmul(torch.softmax(scores, dim=-1), v)';
    it('two files, the caller softmaxes the filled scores: reported', async () => {
      const files = { 'pkg/__init__.py': '', 'pkg/masks.py': helper('-1e-9'), 'pkg/attn.py': caller(SOFTMAX) };
      const found = await lint(files, 'pkg/masks.py', 'ATT007');
      assert.equal(found.length, 1, JSON.stringify(found));
      assert.match(found[0].message, /close to\) zero/);
    });
    it('one file: reported', async () => {
      const files = { 'pkg/__init__.py': '', 'pkg/attn.py': oneFile(caller(SOFTMAX), helper('-1e-9')) };
      assert.equal((await lint(files, 'pkg/attn.py', 'ATT007')).length, 1);
    });
    it('two files, fixed (a large negative fill): silent', async () => {
      const files = { 'pkg/__init__.py': '', 'pkg/masks.py': helper('-1e9'), 'pkg/attn.py': caller(SOFTMAX) };
      assert.deepEqual(await lint(files, 'pkg/masks.py', 'ATT007'), []);
    });
    it('two files, the caller never softmaxes the filled scores (a ranking): silent', async () => {
      const files = { 'pkg/__init__.py': '', 'pkg/masks.py': helper('-1e-9'), 'pkg/attn.py': caller('return scores.topk(4, dim=-1).indices') };
      assert.deepEqual(await lint(files, 'pkg/masks.py', 'ATT007'), []);
    });
  });

  // Class 2: scores formed here, masked by a helper of another file and handed back, are still these scores: a softmax of
  // them is a softmax of attention scores (unscaled ones reach it: ATT003), as with a helper of this file.
  describe('ATT003: unscaled scores masked by a helper of another file, then softmaxed here', () => {
    const caller = (scores: string, imp = 'from .masks import fill_padding'): string => `import torch
import torch.nn as nn
import torch.nn.functional as F
${imp}

class SelfAttention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)

    def forward(self, x, mask):
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.heads, C // self.heads).permute(2, 0, 3, 1, 4)
        scores = ${scores}
        scores = fill_padding(scores, mask)
        weights = F.softmax(scores, dim=-1)
        return (weights @ v).transpose(1, 2).reshape(B, T, C)
`;
    const UNSCALED = 'q @ k.transpose(-2, -1)';
    it('two files: reported at the softmax', async () => {
      const files = { 'pkg/__init__.py': '', 'pkg/masks.py': helper('-1e9'), 'pkg/attn.py': caller(UNSCALED) };
      const found = await lint(files, 'pkg/attn.py', 'ATT003');
      assert.equal(found.length, 1, JSON.stringify(found));
      assert.equal(found[0].line, 17);
    });
    it('one file: reported', async () => {
      const files = { 'pkg/__init__.py': '', 'pkg/attn.py': oneFile(caller(UNSCALED), helper('-1e9')) };
      assert.equal((await lint(files, 'pkg/attn.py', 'ATT003')).length, 1);
    });
    it('two files, fixed (scaled scores): silent', async () => {
      const files = { 'pkg/__init__.py': '', 'pkg/masks.py': helper('-1e9'), 'pkg/attn.py': caller('q @ k.transpose(-2, -1) * (C // self.heads) ** -0.5') };
      assert.deepEqual(await lint(files, 'pkg/attn.py', 'ATT003'), []);
    });
    it('two files, a helper that scales the scores it masks: silent', async () => {
      const scaling = `import math

import torch


def fill_padding(scores, mask):
    return scores.masked_fill(mask == 0, -1e9) / math.sqrt(scores.size(-1))
`;
      const files = { 'pkg/__init__.py': '', 'pkg/masks.py': scaling, 'pkg/attn.py': caller(UNSCALED) };
      assert.deepEqual(await lint(files, 'pkg/attn.py', 'ATT003'), []);
    });
  });

  describe('ATT001: scores laid out keys-first, turned around by a helper of another file', () => {
    // k·qᵀ is (B, H, S, T): the keys on axis -2. The helper masks and transposes them to (B, H, T, S), so the softmax
    // over the last axis is over the keys: correct. Carrying the caller's key axis back unchanged would misread it.
    const turning = `import torch


def fill_padding(scores, mask):
    return scores.masked_fill(mask == 0, -1e9).transpose(-2, -1)
`;
    const caller = `import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from .masks import fill_padding


class Attention(nn.Module):
    def forward(self, q, k, v, mask):
        scores = torch.matmul(k, q.transpose(-2, -1)) / math.sqrt(q.size(-1))
        scores = fill_padding(scores, mask)
        weights = F.softmax(scores, dim=-1)
        return torch.matmul(weights, v)
`;
    it('two files: silent', async () => {
      const files = { 'pkg/__init__.py': '', 'pkg/masks.py': turning, 'pkg/attn.py': caller };
      assert.deepEqual(await lint(files, 'pkg/attn.py', 'ATT001'), []);
    });
    it('one file: silent', async () => {
      const files = { 'pkg/__init__.py': '', 'pkg/attn.py': oneFile(caller, turning) };
      assert.deepEqual(await lint(files, 'pkg/attn.py', 'ATT001'), []);
    });
  });
  describe('ATT007: torch.where between two parameters of a helper of another file, the fill passed by the caller', () => {
    const SELECT = `import torch


def select_scores(keep, scores, fill):
    return torch.where(keep, scores, fill)
`;
    const caller = (fill: string, imp = 'from .masks import select_scores'): string => `import torch
import torch.nn.functional as F
${imp}

def attend(q, k, v, keep, head_dim):
    # q, k, v: (B, H, T, hd); keep: (B, 1, T, T) bool, True = attend
    scores = torch.matmul(q, k.transpose(-2, -1)) * head_dim ** -0.5
    big_neg = ${fill}
    scores = select_scores(keep, scores, big_neg)
    return torch.matmul(F.softmax(scores, dim=-1), v)


def run(q, k, v, keep):
    with torch.autocast(device_type="cuda", dtype=torch.float16):
        return attend(q, k, v, keep, q.shape[-1])
`;
    it('two files, a fill below float16 under autocast: reported in the helper', async () => {
      const files = { 'pkg/__init__.py': '', 'pkg/masks.py': SELECT, 'pkg/attn.py': caller('-2.3819763e38') };
      const found = await lint(files, 'pkg/masks.py', 'ATT007');
      assert.equal(found.length, 1, JSON.stringify(found));
      assert.match(found[0].message, /float16/);
    });
    it('one file: reported', async () => {
      const one = caller('-2.3819763e38', '') + '\n\n' + SELECT.replace('import torch\n', '');
      assert.equal((await lint({ 'pkg/__init__.py': '', 'pkg/attn.py': one }, 'pkg/attn.py', 'ATT007')).length, 1);
    });
    it('two files, fixed (finfo min of the scores): silent', async () => {
      const files = { 'pkg/__init__.py': '', 'pkg/masks.py': SELECT, 'pkg/attn.py': caller('torch.finfo(scores.dtype).min') };
      assert.deepEqual(await lint(files, 'pkg/masks.py', 'ATT007'), []);
    });
    it('two files, the helper chooses between two feature maps (no fill): silent', async () => {
      const blend = `import torch
from .masks import select_scores


def gate(x, y, keep):
    return select_scores(keep, x, y)


def run(x, y, keep):
    with torch.autocast(device_type="cuda", dtype=torch.float16):
        return gate(x, y, keep)
`;
      const files = { 'pkg/__init__.py': '', 'pkg/masks.py': SELECT, 'pkg/attn.py': blend };
      assert.deepEqual(await lint(files, 'pkg/masks.py', 'ATT007'), []);
    });
  });
});
