// Session 39 (eng-scale-s39): a head width the constructor replaces by the input width when it is None.
//
// ATT004 reports `C ** -0.5`, the width going into a query projection that narrows it (`nn.Linear(n_embd,
// head_size)`), unless every construction of the class in view passes the same value for both widths (one head as wide
// as the embedding). A constructor that defaults `head_size` to None and replaces it by `n_embd` (`head_size =
// head_size or n_embd`), built without a head size, makes the projection keep the width just as well: the constructions
// in view bind `head_size` to `n_embd` (probe s63 of test/lint-probes/session-39/scale-axis). Now read so.
import { strict as assert } from 'node:assert';
import { findingLines } from './helpers';

// x: (B, T, C); q, k: (B, T, head_size); the scores (B, T, T).
const HEAD = (fallback: string, build: string): string => `import torch
import torch.nn as nn


class Head(nn.Module):
    def __init__(self, n_embd, block_size, head_size=None):
        super().__init__()
        ${fallback}
        self.key = nn.Linear(n_embd, head_size, bias=False)
        self.query = nn.Linear(n_embd, head_size, bias=False)
        self.value = nn.Linear(n_embd, head_size, bias=False)

    def forward(self, x):
        B, T, C = x.shape
        k, q = self.key(x), self.query(x)
        wei = q @ k.transpose(-2, -1) * C ** -0.5
        return wei.softmax(dim=-1) @ self.value(x)


class Block(nn.Module):
    def __init__(self, n_embd, block_size, n_head):
        super().__init__()
        self.sa = ${build}
`;

describe('engscale39: a head width that falls back to the input width (ATT004)', () => {
  for (const fallback of [
    'head_size = head_size or n_embd',
    'head_size = n_embd if head_size is None else head_size',
    'head_size = head_size if head_size is not None else n_embd',
    'if head_size is None:\n            head_size = n_embd',
  ])
    it(`is silent when the head is built without a head size (${fallback.split('\n')[0]})`, async () => {
      assert.deepEqual(await findingLines(HEAD(fallback, 'Head(n_embd, block_size)'), 'ATT004'), []);
    });
  it('still reports when the block builds narrower heads (the bug)', async () => {
    const src = HEAD('head_size = head_size or n_embd', 'Head(n_embd, block_size, n_embd // n_head)');
    assert.deepEqual(await findingLines(src, 'ATT004'), [16]);
  });
  it('still reports when the constructor falls back to another width', async () => {
    const src = HEAD('head_size = head_size or block_size', 'Head(n_embd, block_size)');
    assert.deepEqual(await findingLines(src, 'ATT004'), [16]);
  });
});
