// Session 48 (eng-s48d1, fresh ledger s48-d1 rows 1 and 8): logits the analysis does not know as q·k scores, masked
// before the softmax through a mask expression, then zeroed again after it (ATT006).
//
// Class: a graph-attention layer's logits (`LeakyReLU(a1 . h_i + a2 . h_j)`), a Gram matrix or a helper's parameter
// are filled with a large negative number where a boolean the call computes says (`adj <= 0`, `~mask`,
// `torch.logical_not(mask)`, `mask.eq(0)`), softmaxed, and the same positions zeroed after the softmax (which only
// cleans rows with no key left). masked_fill takes a boolean mask, so such an expression is the fill's mask as a name
// saying `mask` is: the step now stays on the logits' path (mask-ops.ts: maskedFill, computedBoolean), and the
// softmax's weights are known to be of masked logits. Weights zeroed after a softmax of logits that nothing masked
// before are still reported.
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

/** A GAT layer; `before` is the line that masks the non-edges before the softmax (or nothing). */
const GAT = (before: string): string => `import torch
from torch import nn


class GraphAttention(nn.Module):
    def __init__(self, in_dim, out_dim, alpha=0.2):
        super().__init__()
        self.proj = nn.Linear(in_dim, out_dim, bias=False)
        self.a_src = nn.Parameter(torch.randn(out_dim, 1))
        self.a_dst = nn.Parameter(torch.randn(out_dim, 1))
        self.leaky = nn.LeakyReLU(alpha)

    def forward(self, x, adj):
        h = self.proj(x)
        e = self.leaky(h @ self.a_src + (h @ self.a_dst).transpose(0, 1))
        ${before}
        w = torch.softmax(e, dim=-1)
        w = w.masked_fill(adj <= 0, 0.0)
        return w @ h
`;

/** A masked softmax helper whose caller hands it scores joined from two blocks (the analysis knows them as no q·k). */
const HELPER = (fill: string): string => `import torch


def masked_softmax(att_score, mask, axis=-1):
    if mask is not None:
        ${fill}
        return torch.softmax(att_score, dim=axis) * mask
    return torch.softmax(att_score, dim=axis)


def global_attention(q, k, g, v, keep):
    scores = torch.cat((q @ k.transpose(-2, -1), q @ g.transpose(-2, -1)), dim=-1)
    weights = masked_softmax(scores, keep[:, None, None, :] > 0)
    return weights @ v
`;

describe('ATT006 logits masked before the softmax through a mask expression (session 48)', () => {
  it('stays silent on a GAT layer whose non-edges are filled with -1e9 before the softmax and zeroed after', async () => {
    assert.deepEqual(await findingLines(GAT('e = e.masked_fill(adj <= 0, -1e9)'), 'ATT006'), []);
  });

  it('reads each boolean the fill computes as its mask', async () => {
    for (const mask of ['adj == 0', '~(adj > 0)', 'torch.logical_not(adj > 0)', 'adj.eq(0)', 'adj.le(0)'])
      assert.deepEqual(await findingLines(GAT(`e = e.masked_fill(${mask}, float("-inf"))`), 'ATT006'), [], mask);
  });

  it('reports the zeroing when nothing masked the logits before the softmax', async () => {
    assert.deepEqual(await findingLines(GAT('pass'), 'ATT006'), [18]);
  });

  it('reports the zeroing when the fill before the softmax writes a value that masks nothing', async () => {
    assert.deepEqual(await findingLines(GAT('e = e.masked_fill(adj <= 0, 0.0)'), 'ATT006'), [18]);
  });

  it('stays silent on a masked softmax helper that fills where torch.logical_not(mask) says', async () => {
    assert.deepEqual(await findingLines(HELPER('att_score = att_score.masked_fill(torch.logical_not(mask), -1e18)'), 'ATT006'), []);
  });

  it('reads the fill in a helper of another file, called with the logits of a GAT layer', async () => {
    const utils = (before: string): string => `import torch


def edge_attention(e, adj, h):
    ${before}
    w = torch.softmax(e, dim=-1)
    w = w.masked_fill(adj <= 0, 0.0)
    return torch.bmm(w, h)
`;
    const model = `import torch
from torch import nn

from utils import edge_attention


class GraphAttention(nn.Module):
    def __init__(self, alpha):
        super().__init__()
        self.leaky = nn.LeakyReLU(alpha)

    def forward(self, h, a, adj):
        e = torch.bmm(h, a)
        e = self.leaky(e[:, :, 0].unsqueeze(2) + e[:, :, 1].unsqueeze(1))
        return edge_attention(e, adj, h)
`;
    const files = (before: string): Record<string, string> => ({ 'utils.py': utils(before), 'model.py': model });
    assert.deepEqual(await workspaceFindingLines(files('e = e.masked_fill(adj <= 0, -1e9)'), 'utils.py', 'ATT006'), []);
    assert.deepEqual(await workspaceFindingLines(files('pass'), 'utils.py', 'ATT006'), [7]);
  });
});
