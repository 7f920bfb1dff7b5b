// Classes of correct code read wrongly, found by the false-positive scan of session 29 on attention outside NLP
// decoders: sequential recommenders, speech Conformers, point-cloud, graph and time-series transformers
// (test/lint-scan/results/2026-12-05-scan-precscan9c.md). Small examples written fresh, each with its buggy forms,
// which must still be reported.
//  1. ATT004: one attention head per module, its projections as wide as the width its constructor is given
//     (`nn.Linear(dim, n_hidden)`, `self.n_hidden = n_hidden`), scaled by sqrt(self.n_hidden), and a multi-head module
//     that builds them with the per-head width, `AttentionHead(dim, n_hidden // num_heads)` (or through its own
//     `self.n_hidden = n_hidden // num_heads`), as graph transformers written from scratch do. The caller's binding
//     made the factor read `n_hidden // num_heads`, and that text's `n_hidden` (the caller's) was compared with the
//     head's own `n_hidden` (its projections' width): "one head's width on scores never split into heads". The
//     factor is now not reported when, in the class that forms the scores, its `self.` attribute is defined only as
//     the very width the projections output: then it is the size the product sums over, whatever a caller binds.
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

const codes = findingLines;

const HEAD = `import torch
import torch.nn as nn
import torch.nn.functional as F


class AttentionHead(nn.Module):
    def __init__(self, dim: int, n_hidden: int):
        super().__init__()
        self.W_Q = nn.Linear(dim, n_hidden)
        self.W_K = nn.Linear(dim, n_hidden)
        self.W_V = nn.Linear(dim, n_hidden)
        self.n_hidden = n_hidden

    def forward(self, x, adj=None):
        Q = self.W_Q(x)
        K = self.W_K(x)
        V = self.W_V(x)
        scores = torch.matmul(Q, K.transpose(-2, -1)) / torch.sqrt(torch.tensor(self.n_hidden, dtype=torch.float32))
        if adj is not None:
            scores = scores.masked_fill(adj == 0, float("-inf"))
        alpha = F.softmax(scores, dim=-1)
        return torch.matmul(alpha, V), alpha
`;

const MULTI = `

class MultiHeadedAttention(nn.Module):
    def __init__(self, dim: int, n_hidden: int, num_heads: int):
        super().__init__()
        self.n_hidden = n_hidden // num_heads
        self.heads = nn.ModuleList([AttentionHead(dim, self.n_hidden) for _ in range(num_heads)])
        self.linear = nn.Linear(n_hidden, dim)

    def forward(self, x, adj=None):
        outs = []
        for head in self.heads:
            out, _ = head(x, adj)
            outs.append(out)
        return self.linear(torch.cat(outs, dim=-1))
`;

describe('lint: one head per module, built by a multi-head module with the per-head width (ATT004)', () => {
  it('the head scaled by sqrt of its own projection width, built with `self.n_hidden = n_hidden // num_heads`: silent', async () => {
    assert.deepEqual(await codes(HEAD + MULTI, 'ATT004'), []);
  });
  it('the per-head width passed inline, `AttentionHead(dim, n_hidden // num_heads)`, also in a comprehension: silent', async () => {
    const inline = MULTI.replace('AttentionHead(dim, self.n_hidden)', 'AttentionHead(dim, n_hidden // num_heads)');
    assert.deepEqual(await codes(HEAD + inline, 'ATT004'), []);
    const comp = inline.replace(/outs = \[\]\n[\s\S]*?outs\.append\(out\)\n/, 'outs = [head(x, adj)[0] for head in self.heads]\n');
    assert.ok(comp.includes('for head in self.heads]'));
    assert.deepEqual(await codes(HEAD + comp, 'ATT004'), []);
  });
  it('the head in one file, the multi-head module importing it in another: silent', async () => {
    const multi = 'import torch\nimport torch.nn as nn\nfrom heads import AttentionHead\n' + MULTI;
    assert.deepEqual(await workspaceFindingLines({ 'heads.py': HEAD, 'multi.py': multi }, 'heads.py', 'ATT004'), []);
  });
  it('buggy: the head module given the whole width, scaled by its own per-head width, never split: reported', async () => {
    const bug = HEAD.replace('def __init__(self, dim: int, n_hidden: int):', 'def __init__(self, dim: int, n_hidden: int, num_heads: int):').replace(
      'self.n_hidden = n_hidden',
      'self.n_hidden = n_hidden // num_heads',
    );
    assert.deepEqual(await codes(bug, 'ATT004'), [18]);
    const caller = MULTI.replace('AttentionHead(dim, self.n_hidden)', 'AttentionHead(dim, n_hidden, num_heads)');
    assert.deepEqual(await codes(bug + caller, 'ATT004'), [18]);
  });
  it('buggy: the same, the head in one file and its caller in another: reported', async () => {
    const bug = HEAD.replace('def __init__(self, dim: int, n_hidden: int):', 'def __init__(self, dim: int, n_hidden: int, num_heads: int):').replace(
      'self.n_hidden = n_hidden',
      'self.n_hidden = n_hidden // num_heads',
    );
    const multi =
      'import torch\nimport torch.nn as nn\nfrom heads import AttentionHead\n' +
      MULTI.replace('AttentionHead(dim, self.n_hidden)', 'AttentionHead(dim, n_hidden, num_heads)');
    assert.deepEqual(await workspaceFindingLines({ 'heads.py': bug, 'multi.py': multi }, 'heads.py', 'ATT004'), [18]);
  });
  it('buggy: the head scaled by the whole width while the caller gives it one head: the model-width finding is not the concern here, division by the width itself still is', async () => {
    const bug = HEAD.replace('torch.sqrt(torch.tensor(self.n_hidden, dtype=torch.float32))', 'self.n_hidden');
    assert.deepEqual(await codes(bug + MULTI, 'ATT004'), [18]);
  });
});
