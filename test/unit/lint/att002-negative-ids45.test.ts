// Session 45, eng-s45a: ATT002, class "token ids compared with a negative padding id" (the regression group's
// `b3-03-mask`, a PaLM-style model used as an encoder: `mask = x < 0` over the token ids, the negative ids cleared
// with `x.masked_fill(mask, 0)` before the embedding, then every block fills `sim.masked_fill(~mask, ...)`).
//
// The linter knew `ids == pad_id`, `ids != 0` and `ids > 0` (padding id 0), but a comparison of token ids with a
// negative bound gave no meaning, so the mask reached the blocks unknown and the inverted fill was not reported. An
// embedding has no row for a negative id: the negative entries are the padding, so `ids < 0`, `ids <= -1` and
// `ids == -1` are True at padding, and `ids >= 0`, `ids > -1` and `ids != -1` at the tokens. (With padding id 0 the
// first are all False and the second all True; a use that reads them the other way round still hides every token.)
// The ids are known as ids as before: by their name, or by the function passing them to an embedding layer.
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

const BLOCK = `import torch
from torch import nn


class ParallelMixer(nn.Module):
    def __init__(self, width, n_heads=4):
        super().__init__()
        self.n_heads = n_heads
        self.inv_root = (width // n_heads) ** -0.5
        self.fused = nn.Linear(width, width * 3, bias=False)
        self.merge = nn.Linear(width, width)

    def forward(self, h, mask=None):
        b, n, _ = h.shape
        q, k, v = self.fused(h).view(b, n, 3, self.n_heads, -1).permute(2, 0, 3, 1, 4)
        sim = (q @ k.transpose(-2, -1)) * self.inv_root
        if mask is not None:
            sim = sim.masked_fill(KEEP_FILL, -torch.finfo(sim.dtype).max)
        attn = sim.softmax(dim=-1)
        return self.merge((attn @ v).transpose(1, 2).reshape(b, n, -1))
`;

const ENCODER = (build: string): string => `

class IdEncoder(nn.Module):
    def __init__(self, vocab, width, depth, causal=False):
        super().__init__()
        self.causal = causal
        self.lookup = nn.Embedding(vocab, width)
        self.mixers = nn.ModuleList([ParallelMixer(width) for _ in range(depth)])

    def forward(self, x):
        # as an encoder, token ids below zero are padding
        mask = (${build}) if not self.causal else None
        if mask is not None:
            x = x.clamp(min=0)
        x = self.lookup(x)
        for mixer in self.mixers:
            x = x + mixer(x, mask=mask)
        return x
`;

const file = (build: string, fill: string): string => BLOCK.replace('KEEP_FILL', fill) + ENCODER(build);

describe('ATT002: token ids compared with a negative padding id (session 45)', () => {
  it('reports `x < 0` (True at padding) filled where False', async () => {
    assert.deepEqual(await findingLines(file('x < 0', '~mask[:, None, None, :]'), 'ATT002'), [18]);
    assert.deepEqual(await findingLines(file('x == -1', '~mask[:, None, None, :]'), 'ATT002'), [18]);
  });

  it('is silent on the fixed forms (`x >= 0` filled where False, `x < 0` filled where True)', async () => {
    assert.deepEqual(await findingLines(file('x >= 0', '~mask[:, None, None, :]'), 'ATT002'), []);
    assert.deepEqual(await findingLines(file('x != -1', '~mask[:, None, None, :]'), 'ATT002'), []);
    assert.deepEqual(await findingLines(file('x < 0', 'mask[:, None, None, :]'), 'ATT002'), []);
  });

  it('reports `ids >= 0` (True at tokens) filled where True', async () => {
    assert.deepEqual(await findingLines(file('x > -1', 'mask[:, None, None, :]'), 'ATT002'), [18]);
  });

  it('gives no meaning to a negative comparison of something that is not token ids', async () => {
    const src = `import torch


def attend(q, k, v, offsets):
    mask = offsets < 0
    s = (q @ k.transpose(-2, -1)) / q.size(-1) ** 0.5
    s = s.masked_fill(~mask[:, None, None, :], float("-inf"))
    return s.softmax(dim=-1) @ v
`;
    assert.deepEqual(await findingLines(src, 'ATT002'), []);
  });

  it('reports the mask built from negative ids in another file, as the blocks there fill it', async () => {
    const files = (build: string): Record<string, string> => ({
      'palm/block.py': BLOCK.replace('KEEP_FILL', '~mask[:, None, None, :]'),
      'palm/model.py': `import torch
from torch import nn

from palm.block import ParallelMixer


class IdEncoder(nn.Module):
    def __init__(self, vocab, width, depth):
        super().__init__()
        self.lookup = nn.Embedding(vocab, width)
        self.mixers = nn.ModuleList([ParallelMixer(width) for _ in range(depth)])

    def forward(self, token_ids):
        mask = ${build}
        x = self.lookup(token_ids.clamp(min=0))
        for mixer in self.mixers:
            x = x + mixer(x, mask=mask)
        return x
`,
    });
    assert.deepEqual(await workspaceFindingLines(files('token_ids < 0'), 'palm/block.py', 'ATT002'), [18]);
    assert.deepEqual(await workspaceFindingLines(files('token_ids >= 0'), 'palm/block.py', 'ATT002'), []);
  });
});
