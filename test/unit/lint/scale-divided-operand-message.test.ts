// ATT004's "divided by a dimension" finding names what is divided. A division of the scores by the head width says
// "The scores are divided by ..."; a division of only the queries (`q = q / self.head_dim`) or only the keys says so
// ("The queries are divided by ..."), since the scores are then divided through them. Small examples written fresh;
// the correct form (q divided by the square root) stays silent.
import { strict as assert } from 'node:assert';
import { linter } from './helpers';

const ATTN = (onQ: string, onK: string, onScores: string): string => `import torch
from torch import nn


class SelfAttention(nn.Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.head_dim = d_model // n_heads
        self.qkv = nn.Linear(d_model, 3 * d_model)

    def forward(self, x):
        b, t, _ = x.shape
        q, k, v = self.qkv(x).view(b, t, 3, self.n_heads, self.head_dim).permute(2, 0, 3, 1, 4)
        q = q${onQ}
        k = k${onK}
        att = torch.softmax(q @ k.transpose(-2, -1)${onScores}, dim=-1)
        return (att @ v).transpose(1, 2).reshape(b, t, -1)
`;

async function att004(src: string): Promise<{ line: number; message: string }[]> {
  const l = await linter();
  return l
    .lintPython(src)
    .filter((f) => f.code === 'ATT004')
    .map((f) => ({ line: f.line, message: f.message }));
}

describe('lint: ATT004 names what a dimension divides (scores, queries or keys)', () => {
  it('the scores divided by head_dim: "The scores are divided by"', async () => {
    const found = await att004(ATTN('', '', ' / self.head_dim'));
    assert.equal(found.length, 1);
    assert.match(found[0].message, /^The scores are divided by `self\.head_dim`, a dimension/);
  });
  it('only the queries divided by head_dim: "The queries are divided by", at the query', async () => {
    const found = await att004(ATTN(' / self.head_dim', '', ''));
    assert.deepEqual(
      found.map((f) => f.line),
      [15],
    );
    assert.match(found[0].message, /^The queries are divided by `self\.head_dim`, a dimension/);
  });
  it('only the keys divided by head_dim: "The keys are divided by", at the key', async () => {
    const found = await att004(ATTN('', ' / self.head_dim', ''));
    assert.deepEqual(
      found.map((f) => f.line),
      [16],
    );
    assert.match(found[0].message, /^The keys are divided by `self\.head_dim`, a dimension/);
  });
  it('correct: the queries divided by the square root of head_dim: silent', async () => {
    assert.deepEqual(await att004(ATTN(' / self.head_dim ** 0.5', '', '')), []);
  });
});
