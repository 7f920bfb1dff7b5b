// Session 39 (eng-scale-s39): sqrt(d) on the scores of unit-normalised queries and keys.
//
// ATT004 reports a positive power of a dimension on the scores (`* math.sqrt(d)`, a kernel's `scale=d ** 0.5`): the
// logits grow with the head size. Where both q and k are divided by their norm (nGPT's `justnorm`, cosine attention),
// their dot products lie in [-1, 1], and multiplying by sqrt(d) restores the spread on purpose: a temperature (probes s73
// and s74 of test/lint-probes/session-39/scale-axis). The code shows the normalisation (a division by the norm, in a
// helper of the file or of another file, or `F.normalize`); with only one operand normalised the finding stays.
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

// x: (B, T, C); q, k, v: (B, H, T, hd); the scores (B, H, T, T).
const MODULE = (qk: string, attend: string, imports = ''): string => `import math
import torch
import torch.nn as nn
import torch.nn.functional as F
${imports}

def justnorm(x):
    return x / x.norm(p=2, dim=-1, keepdim=True)


class Normalized(nn.Module):
    def __init__(self, n_embd, n_head):
        super().__init__()
        self.n_head = n_head
        self.head_dim = n_embd // n_head
        self.qkv = nn.Linear(n_embd, 3 * n_embd, bias=False)
        self.sqk = nn.Parameter(torch.ones(n_head, 1, self.head_dim))

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.n_head, self.head_dim).permute(2, 0, 3, 1, 4)
        ${qk}
        ${attend}
        return y.transpose(1, 2).reshape(B, T, C)
`;

const KERNEL = 'y = F.scaled_dot_product_attention(q, k, v, is_causal=True, scale=self.head_dim ** 0.5)';
const MANUAL = 'y = ((q @ k.transpose(-2, -1)) * math.sqrt(self.head_dim)).softmax(-1) @ v';
const BOTH = 'q, k = self.sqk * justnorm(q), self.sqk * justnorm(k)';

describe('engscale39: sqrt(d) on unit-normalised q and k is a temperature (ATT004)', () => {
  it('is silent on a kernel given scale=sqrt(d) for unit q and k (nGPT)', async () => {
    assert.deepEqual(await findingLines(MODULE(BOTH, KERNEL), 'ATT004'), []);
  });
  it('is silent on the hand-written product times sqrt(d) of unit q and k', async () => {
    assert.deepEqual(await findingLines(MODULE(BOTH, MANUAL), 'ATT004'), []);
  });
  it('is silent with F.normalize', async () => {
    assert.deepEqual(await findingLines(MODULE('q, k = F.normalize(q, dim=-1), F.normalize(k, dim=-1)', MANUAL), 'ATT004'), []);
  });
  it('still reports sqrt(d) on raw q and k (the bug)', async () => {
    assert.deepEqual(await findingLines(MODULE('pass', KERNEL), 'ATT004'), [23]);
    assert.deepEqual(await findingLines(MODULE('pass', MANUAL), 'ATT004'), [23]);
  });
  it('still reports sqrt(d) when only the queries are normalised', async () => {
    assert.deepEqual(await findingLines(MODULE('q = justnorm(q)', MANUAL), 'ATT004'), [23]);
  });
  it('is silent when the normalising helper is in another workspace file', async () => {
    const model = MODULE('q, k = unit(q), unit(k)', MANUAL, 'from norms import unit\n');
    const norms = 'def unit(x, eps=1e-6):\n    return x / (x.norm(dim=-1, keepdim=True) + eps)\n';
    assert.deepEqual(await workspaceFindingLines({ 'model.py': model, 'norms.py': norms }, 'model.py', 'ATT004'), []);
  });
});
