// Session 45, eng-s45a: ATT005 (analysis, ops.ts), class "heads stacked on a new leading axis: `torch.stack` of
// `torch.split` read as a concatenation" (recorded by eng-s45d in /work/wt/s45-classes.md from the precision rescan:
// coqui-ai/TTS `TTS/tts/layers/tacotron/gst_layers.py:141`, false in both modes since session 33).
//
// `torch.stack(torch.split(k, size, dim=2), dim=0)` turns (B, T, units) keys into (H, B, T, size): a new axis for the
// heads, the pieces' own axes kept. The join of a projection's width pieces was read as `torch.cat` (the heads folded
// into the batch axis, the rank unchanged) for both functions, so the keys stayed 3-D and `k.transpose(2, 3)`, the last
// two axes of the 4-D keys, was reported as swapping the wrong ones. The stack of such pieces no longer claims a rank:
// giving it the right one (4-D) made ATT004 judge the GST scale `key_dim ** 0.5` against widths only the module's
// builders show (session 33 judged those findings false: `key_dim` is `E // num_heads` there), so the keys are left
// unjudged unless the code states their rank (a shape comment, `# [H, B, T_k, size]`); the concatenation keeps its
// reading, and a stack of other pieces gets one axis more than each piece, as every other stack does.
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

const GST = (join: string, swap: string, stated = ''): string => `import torch
import torch.nn as nn
import torch.nn.functional as F


class StyleTokenAttention(nn.Module):
    def __init__(self, query_dim, key_dim, units, heads):
        super().__init__()
        self.units = units
        self.heads = heads
        self.w_q = nn.Linear(query_dim, units, bias=False)
        self.w_k = nn.Linear(key_dim, units, bias=False)
        self.w_v = nn.Linear(key_dim, units, bias=False)

    def forward(self, query, tokens):
        q = self.w_q(query)  # [B, Tq, units]
        k = self.w_k(tokens)  # [B, Tk, units]
        v = self.w_v(tokens)
        size = self.units // self.heads
        q = torch.${join}(torch.split(q, size, dim=2), dim=0)${stated}
        k = torch.${join}(torch.split(k, size, dim=2), dim=0)${stated}
        v = torch.${join}(torch.split(v, size, dim=2), dim=0)
        scores = torch.matmul(q, k.transpose(${swap})) / (size ** 0.5)
        weights = F.softmax(scores, dim=-1)
        return torch.matmul(weights, v)
`;

describe('ATT005: heads stacked on a new axis by torch.stack of torch.split (session 45)', () => {
  it('is silent on the last two axes of the stacked keys, reports a swap of the batch and the tokens it states', async () => {
    assert.deepEqual(await findingLines(GST('stack', '2, 3'), 'ATT005'), []);
    assert.deepEqual(await findingLines(GST('stack', '-2, -1'), 'ATT005'), []);
    assert.deepEqual(await findingLines(GST('stack', '2, 3', '  # [H, B, T, size]'), 'ATT005'), []);
    assert.deepEqual(await findingLines(GST('stack', '1, 2', '  # [H, B, T, size]'), 'ATT005'), [23]);
  });

  it('keeps reading the concatenation as 3-D (heads on the batch axis)', async () => {
    assert.deepEqual(await findingLines(GST('cat', '1, 2'), 'ATT005'), []);
    assert.deepEqual(await findingLines(GST('cat', '2, 3'), 'ATT005'), [23]);
  });

  it('is silent on keys a helper of another file stacks, reports the concatenated ones', async () => {
    const files = (join: string, swap: string): Record<string, string> => ({
      'gst/heads.py': `import torch


def split_heads(x, size):
    return torch.${join}(torch.split(x, size, dim=2), dim=0)
`,
      'gst/attention.py': `import torch
import torch.nn as nn

from gst.heads import split_heads


class StyleTokenAttention(nn.Module):
    def __init__(self, dim, units, heads):
        super().__init__()
        self.size = units // heads
        self.w_q = nn.Linear(dim, units, bias=False)
        self.w_k = nn.Linear(dim, units, bias=False)

    def forward(self, query, tokens):
        q = self.w_q(query)  # [B, Tq, units]
        k = self.w_k(tokens)  # [B, Tk, units]
        q, k = split_heads(q, self.size), split_heads(k, self.size)
        scores = torch.matmul(q, k.transpose(${swap})) / (self.size ** 0.5)
        return torch.softmax(scores, dim=-1)
`,
    });
    assert.deepEqual(await workspaceFindingLines(files('stack', '2, 3'), 'gst/attention.py', 'ATT005'), []);
    assert.deepEqual(await workspaceFindingLines(files('cat', '2, 3'), 'gst/attention.py', 'ATT005'), [18]);
  });
});
