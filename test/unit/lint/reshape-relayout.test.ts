// A view/reshape whose sizes put the feature axis before the last (`x.view(B, H, hd, -1)`, `reshape(b, h, d, n)`)
// lays the tensor out as those sizes say: its last axis is no longer the features, whatever the input's was. The
// "features last" label of a token-major input must not survive it, or `q.transpose(-2, -1) @ k` on such tensors
// (the right product for that layout) reads as a transposed query. The view itself, on token-major keys, is still
// reported (it scrambles the tokens, ATT005's view-for-transpose), and a token-major q transposed is still reported.
// A natural example, its correct form, and a cross-file pair (the heads split by a helper of another file).
import { strict as assert } from 'node:assert';
import { createLinter, type Finding } from '../../../src/lint';
import { grammar, linter, memoryWorkspace } from './helpers';

const QUERY_TRANSPOSED = /transposes the query instead of the keys/;
const VIEW_FOR_TRANSPOSE = /with the per-head features before the tokens/;

const kinds = (fs: readonly Finding[]): string[] =>
  fs.map(
    (f) =>
      `${f.line} ${f.code} ${QUERY_TRANSPOSED.test(f.message) ? 'query transposed' : VIEW_FOR_TRANSPOSE.test(f.message) ? 'view for transpose' : f.message}`,
  );

async function att005(source: string): Promise<string[]> {
  return kinds((await linter()).lintPython(source, { select: ['ATT005'] }));
}

const module = (split: string, product: string) => `import torch
from torch import nn


class Attention(nn.Module):
    def __init__(self, dim, heads=8, dim_head=64):
        super().__init__()
        self.heads = heads
        self.dim_head = dim_head
        self.to_q = nn.Linear(dim, heads * dim_head)
        self.to_k = nn.Linear(dim, heads * dim_head)

    def forward(self, x):
        b = x.shape[0]
        q = self.to_q(x)${split}
        k = self.to_k(x)${split}
        sim = ${product} * self.dim_head ** -0.5
        return sim.softmax(dim=-1)
`;

describe('a reshape that puts the features before the last axis drops "features last"', () => {
  it('view(b, h, d, -1) of token-major q and k: the view is reported, the product on that layout is not', async () => {
    assert.deepEqual(await att005(module('.view(b, self.heads, self.dim_head, -1)', '(q.transpose(-2, -1) @ k)')), ['16 ATT005 view for transpose']);
  });

  it('reshape(b, h, d, n) with the token count named: no transposed query either', async () => {
    // (The view-for-transpose finding reads a `-1` last size only; it stays silent here, as before.)
    const src = module('.reshape(b, self.heads, self.dim_head, n)', '(q.transpose(-2, -1) @ k)').replace('b = x.shape[0]', 'b, n = x.shape[0], x.shape[1]');
    assert.deepEqual(await att005(src), []);
  });

  it('the correct form (heads split with the tokens first, keys transposed): nothing', async () => {
    assert.deepEqual(await att005(module('.view(b, -1, self.heads, self.dim_head).transpose(1, 2)', '(q @ k.transpose(-2, -1))')), []);
  });

  it('token-major q and k with the query transposed: still reported', async () => {
    assert.deepEqual(await att005(module('.view(b, -1, self.heads, self.dim_head).transpose(1, 2)', '(q.transpose(-2, -1) @ k)')), [
      '17 ATT005 query transposed',
    ]);
  });

  describe('cross-file: the heads split by a helper of another file', () => {
    const helper = (split: string) => `def split_heads(t, b, heads, dim_head):
    return t${split}
`;
    const caller = (product: string) => `import torch
from torch import nn
from heads import split_heads


class Attention(nn.Module):
    def __init__(self, dim, heads=8, dim_head=64):
        super().__init__()
        self.heads = heads
        self.dim_head = dim_head
        self.to_q = nn.Linear(dim, heads * dim_head)
        self.to_k = nn.Linear(dim, heads * dim_head)

    def forward(self, x):
        b = x.shape[0]
        q = split_heads(self.to_q(x), b, self.heads, self.dim_head)
        k = split_heads(self.to_k(x), b, self.heads, self.dim_head)
        sim = ${product} * self.dim_head ** -0.5
        return sim.softmax(dim=-1)
`;
    async function lintCaller(split: string, product: string): Promise<string[]> {
      const files = { 'heads.py': helper(split), 'model.py': caller(product) };
      const l = await createLinter(grammar(), { workspace: memoryWorkspace(files), onInternalError: (e) => assert.fail(String(e)) });
      return kinds(l.lintPython(files['model.py'], { path: 'model.py', select: ['ATT005'] }));
    }

    it('split as (b, h, d, -1) there: the product on that layout is no transposed query here', async () => {
      assert.ok(!(await lintCaller('.view(b, heads, dim_head, -1)', '(q.transpose(-2, -1) @ k)')).some((f) => f.includes('query transposed')));
    });

    it('split as (b, -1, h, d) then transposed there: the transposed query is still found here', async () => {
      assert.deepEqual(await lintCaller('.view(b, -1, heads, dim_head).transpose(1, 2)', '(q.transpose(-2, -1) @ k)'), ['18 ATT005 query transposed']);
    });
  });
});
