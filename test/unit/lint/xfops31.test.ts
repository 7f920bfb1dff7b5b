// Session 31 (xfops31): a mask step applied to the scores by a helper of another file counts as one on the returned
// scores. Values crossing files keep no nodes of the other file (portable.ts); the step crosses as a mask applied at
// the call that returned them (how it masked: a fill or an additive mask), so readers asking "were the scores masked
// before the softmax" see it, while a helper that does not mask adds no such step.
import { strict as assert } from 'node:assert';
import { createLinter } from '../../../src/lint';
import type { Finding } from '../../../src/lint';
import { grammar, memoryWorkspace } from './helpers';

async function lint(files: Record<string, string>, path: string, code: string): Promise<Finding[]> {
  const l = await createLinter(grammar(), { workspace: memoryWorkspace(files), onInternalError: (e) => assert.fail(String(e)) });
  return l.lintPython(files[path] ?? '', { path }).filter((f) => f.code === code);
}

// Class 1: scores masked before the softmax by a helper of another file (a fill), then the same positions zeroed
// after it (cleaning fully masked rows): the zeroing is not the only mask (ATT006 silent).
const FILL_HELPER = `def fill_masked(scores, mask):
    return scores.masked_fill(mask == 0, float("-inf"))
`;
const NO_MASK_HELPER = `def fill_masked(scores, mask):
    return scores.clamp(min=-50.0, max=50.0)
`;
const attn6 = (imp: string): string => `import math

import torch
import torch.nn.functional as F
${imp}

def attention(q, k, v, mask):
    scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(q.size(-1))
    scores = fill_masked(scores, mask)
    weights = F.softmax(scores, dim=-1)
    weights = weights.masked_fill(mask == 0, 0.0)
    return torch.matmul(weights, v)
`;

describe('lint: a mask applied to the scores by a helper of another file (xfops31)', () => {
  describe('ATT006: scores filled by a helper before the softmax, zeroed after it', () => {
    it('two files: silent (the helper masked the scores)', async () => {
      const files = { 'pkg/__init__.py': '', 'pkg/util.py': FILL_HELPER, 'pkg/attn.py': attn6('from .util import fill_masked\n') };
      assert.deepEqual(await lint(files, 'pkg/attn.py', 'ATT006'), []);
    });
    it('one file: silent', async () => {
      const files = { 'pkg/__init__.py': '', 'pkg/attn.py': attn6('\n\n' + FILL_HELPER) };
      assert.deepEqual(await lint(files, 'pkg/attn.py', 'ATT006'), []);
    });
    it('two files, the helper does not mask: the zeroing after the softmax is reported', async () => {
      const files = { 'pkg/__init__.py': '', 'pkg/util.py': NO_MASK_HELPER, 'pkg/attn.py': attn6('from .util import fill_masked\n') };
      const found = await lint(files, 'pkg/attn.py', 'ATT006');
      assert.equal(found.length, 1);
      assert.equal(found[0].line, 12);
    });
    it('one file, the helper does not mask: reported', async () => {
      const files = { 'pkg/__init__.py': '', 'pkg/attn.py': attn6('\n\n' + NO_MASK_HELPER) };
      assert.equal((await lint(files, 'pkg/attn.py', 'ATT006')).length, 1);
    });
  });

  // Class 2: scores q·kᵀ formed by a helper of another file and normalised here. Their steps there cross as steps
  // (scales of known form, masks), so scores formed with no scale on the way reach the softmax unscaled (ATT003), as
  // they do when the helper is in the same file; a helper that scales them, or operands scaled here, are silent.
  describe('ATT003: scores formed by a helper of another file, softmaxed here', () => {
    const scoresHelper = (body: string): string => `import math

import torch


def attention_scores(q, k):
    ${body}
`;
    const caller = (imp: string, args = 'q, k'): string => `import torch
import torch.nn as nn
import torch.nn.functional as F
${imp}

class SelfAttention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.heads, C // self.heads).permute(2, 0, 3, 1, 4)
        scores = attention_scores(${args})
        weights = F.softmax(scores, dim=-1)
        return (weights @ v).transpose(1, 2).reshape(B, T, C)
`;
    const UNSCALED = 'return q @ k.transpose(-2, -1)';
    const SCALED = 'return q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))';
    it('two files, no scale anywhere: reported at the softmax', async () => {
      const files = { 'pkg/__init__.py': '', 'pkg/ops.py': scoresHelper(UNSCALED), 'pkg/attn.py': caller('from .ops import attention_scores\n') };
      const found = await lint(files, 'pkg/attn.py', 'ATT003');
      assert.equal(found.length, 1, JSON.stringify(found));
      assert.equal(found[0].line, 17);
    });
    it('one file, no scale anywhere: reported', async () => {
      const one = caller(scoresHelper(UNSCALED).replace('import math\n\nimport torch\n', '') + '\n');
      assert.equal((await lint({ 'pkg/__init__.py': '', 'pkg/attn.py': one }, 'pkg/attn.py', 'ATT003')).length, 1);
    });
    it('two files, the helper scales the scores by 1/sqrt(d): silent', async () => {
      const files = { 'pkg/__init__.py': '', 'pkg/ops.py': scoresHelper(SCALED), 'pkg/attn.py': caller('from .ops import attention_scores\n') };
      assert.deepEqual(await lint(files, 'pkg/attn.py', 'ATT003'), []);
    });
    it('two files, the caller scales the queries it passes: silent', async () => {
      const files = {
        'pkg/__init__.py': '',
        'pkg/ops.py': scoresHelper(UNSCALED),
        'pkg/attn.py': caller('from .ops import attention_scores\n', 'q * (C // self.heads) ** -0.5, k'),
      };
      assert.deepEqual(await lint(files, 'pkg/attn.py', 'ATT003'), []);
    });
    it('two files, the helper is not in the workspace: silent', async () => {
      const files = { 'pkg/__init__.py': '', 'pkg/attn.py': caller('from .ops import attention_scores\n') };
      assert.deepEqual(await lint(files, 'pkg/attn.py', 'ATT003'), []);
    });
  });
});
