// A module of this file built and called by a file that imports it gives its forward the arguments that file passes,
// however the importing file writes the call: `self.layer(x, mask)`, a local built then called
// (`layer = Attention(64); layer(x, keep)`), or built and called in one expression (`Attention(64)(x, keep)`), and
// wherever it sits at the top level of that file: in a function, under `if __name__ == "__main__":`, in a `with` block
// or a `try:` (importer-calls.ts, `callsNamed`). The mask parameter of the forward below is explained by nothing in
// its own file, so the importing file's mask decides: a keep mask filled where True is inverted (ATT002), a padding
// mask is right.
import { strict as assert } from 'node:assert';
import { createLinter } from '../../../src/lint';
import { grammar, memoryWorkspace } from './helpers';

const ATTENTION = `import math
import torch
from torch import nn


class Attention(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.qkv = nn.Linear(dim, dim * 3)

    def forward(self, x, mask):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
        scores = scores.masked_fill(mask, float("-inf"))
        return scores.softmax(dim=-1) @ v
`;

async function lintAttention(run: string): Promise<string[]> {
  const files = { 'attn.py': ATTENTION, 'run.py': run };
  const l = await createLinter(grammar(), { workspace: memoryWorkspace(files), onInternalError: (e) => assert.fail(String(e)) });
  const fs = l.lintPython(files['attn.py'], { path: 'attn.py', select: ['ATT002'] });
  return fs.map((f) => `${f.line} ${f.code}`);
}

const HEADER = `from attn import Attention
from data import load_ids, embed, session
`;

// [how the importing file writes it, its text with MASK for the mask expression]
const forms: [string, string][] = [
  [
    'built and called in one expression, in a function',
    `${HEADER}

def main():
    ids = load_ids()
    return Attention(64)(embed(ids), MASK)
`,
  ],
  [
    'built into a local, then called, in a function',
    `${HEADER}

def main():
    ids = load_ids()
    layer = Attention(64)
    return layer(embed(ids), MASK)
`,
  ],
  [
    'built and called in one expression, under if __name__ == "__main__"',
    `${HEADER}
if __name__ == "__main__":
    ids = load_ids()
    out = Attention(64)(embed(ids), MASK)
`,
  ],
  [
    'built into a local, then called, in a with block',
    `${HEADER}
with session():
    ids = load_ids()
    layer = Attention(64)
    out = layer(embed(ids), MASK)
`,
  ],
  [
    'built and called in one expression, in a try block',
    `${HEADER}
try:
    ids = load_ids()
    out = Attention(64)(embed(ids), MASK)
except KeyboardInterrupt:
    out = None
`,
  ],
];

describe("a module built and called by an importing file gives its forward that call's arguments", () => {
  for (const [how, run] of forms) {
    it(`${how}: a keep mask is inverted; a padding mask is right`, async () => {
      assert.deepEqual(await lintAttention(run.replace('MASK', '(ids != 0)[:, None, :]')), ['14 ATT002']);
      assert.deepEqual(await lintAttention(run.replace('MASK', '(ids == 0)[:, None, :]')), []);
    });
  }
});

describe('built and called in one expression: the constructor arguments cross too', () => {
  const attn = `import torch
import torch.nn.functional as F
from torch import nn


class Attention(nn.Module):
    def __init__(self, dim, heads, causal=False):
        super().__init__()
        self.heads = heads
        self.causal = causal
        self.qkv = nn.Linear(dim, dim * 3)

    def forward(self, x, past_kv=None):
        b, t, c = x.shape
        q, k, v = self.qkv(x).view(b, t, 3, self.heads, -1).permute(2, 0, 3, 1, 4)
        if past_kv is not None:
            k = torch.cat([past_kv[0], k], dim=-2)
            v = torch.cat([past_kv[1], v], dim=-2)
        out = F.scaled_dot_product_attention(q, k, v, is_causal=self.causal)
        return out, (k, v)
`;
  const step = (causal: string) => `from attn import Attention


def step(x, past_kv):
    return Attention(64, 4, causal=${causal})(x, past_kv)
`;
  async function lintAttn(run: string): Promise<string[]> {
    const files = { 'attn.py': attn, 'model.py': run };
    const l = await createLinter(grammar(), { workspace: memoryWorkspace(files), onInternalError: (e) => assert.fail(String(e)) });
    return l.lintPython(files['attn.py'], { path: 'attn.py', select: ['ATT008'] }).map((f) => `${f.line} ${f.code}`);
  }

  it('Attention(64, 4, causal=True)(x, past_kv): the causal flag on cached keys is reported; causal=False is not', async () => {
    assert.deepEqual(await lintAttn(step('True')), ['19 ATT008']);
    assert.deepEqual(await lintAttn(step('False')), []);
  });
});
