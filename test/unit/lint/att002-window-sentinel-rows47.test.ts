// Session 47, eng-s47b: three ATT002 precision classes sent by eng-s47d from a first-contact scan of fresh public
// repositories (`/work/wt/s47-classes.md`), correct code reported as an inverted mask:
//
// 1. "the two sides of a band": an upper and a lower triangle joined (`triu(ones, M + 1) + tril(ones, 0)`,
//    Transformer-XL's same-length mask over memory and new keys: True at the future and at the keys that fell out of
//    the window). The lower triangle is no causal keep-triangle bounding the join: the result is a window's outside,
//    and filled where True it is right. A lower triangle alone filled where True still hides each query's past.
// 2. "a sentinel rewritten to the fill": `scores * (1 - future) + 1e9 * future`, then `scores[scores >= 1e9] = -inf`
//    on the next line: the large positive number marks the future, and what the softmax reads is the scores filled
//    where `future` is 1 (masked_fill's convention), not an addition of a large positive number.
// 3. "rows that attend": `wei = k @ q.T` normalised with `softmax(wei, dim=1)`, then `wei @ v`: the product with the
//    values sums over the last axis, so each row is the token whose output it is, and `tril` kept is right for it; the
//    softmax axis is the bug (ATT001's finding). Scores laid out keys first and contracted over the keys
//    (`einsum('bkq,bkd->bqd', w, v)`) are still read over their axes.
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

const SAME_LENGTH = (built: string): string => `import torch
import torch.nn.functional as F


def memory_attention(q, k, v, n_mem):
    T = q.size(0)
    scores = torch.einsum("ibnd,jbnd->ijbn", q, k) / q.size(-1) ** 0.5
    ones = q.new_ones((T, n_mem + T), dtype=torch.uint8)
    hidden = ${built}
    scores = scores.masked_fill(hidden.bool()[:, :, :, None], -1e4)
    probs = F.softmax(scores, dim=1)
    return torch.einsum("ijbn,jbnd->ibnd", probs, v)
`;

describe('ATT002: an upper and a lower triangle joined mark a window, not a causal triangle (session 47)', () => {
  it('is silent on the same-length window mask filled where True', async () => {
    assert.deepEqual(await findingLines(SAME_LENGTH('(torch.triu(ones, n_mem + 1) + torch.tril(ones, 0))[:, :, None]'), 'ATT002'), []);
    assert.deepEqual(await findingLines(SAME_LENGTH('(torch.triu(ones, n_mem + 1) | torch.tril(ones, 0))[:, :, None]'), 'ATT002'), []);
  });

  it('still reports a lower triangle alone filled where True', async () => {
    const square = SAME_LENGTH('torch.tril(ones, 0)[:, :, None]').replace('(T, n_mem + T)', '(T, T)');
    assert.deepEqual(await findingLines(square, 'ATT002'), [10]);
  });

  it('reads the window built in another file the same way', async () => {
    const helper = `import torch


def same_length_mask(ref, n_new, n_mem):
    ones = ref.new_ones((n_new, n_mem + n_new), dtype=torch.uint8)
    return (torch.triu(ones, n_mem + 1) + torch.tril(ones, 0))[:, :, None]


def past_mask(ref, n_new):
    ones = ref.new_ones((n_new, n_new), dtype=torch.uint8)
    return torch.tril(ones, 0)[:, :, None]
`;
    const model = (call: string): string =>
      SAME_LENGTH(call)
        .replace('import torch.nn.functional as F\n', 'import torch.nn.functional as F\n\nfrom xl.masks import past_mask, same_length_mask\n')
        .replace('    ones = q.new_ones((T, n_mem + T), dtype=torch.uint8)\n', '');
    assert.deepEqual(
      await workspaceFindingLines({ 'xl/model.py': model('same_length_mask(q, T, n_mem)'), 'xl/masks.py': helper }, 'xl/model.py', 'ATT002'),
      [],
    );
    assert.deepEqual(await workspaceFindingLines({ 'xl/model.py': model('past_mask(q, T)'), 'xl/masks.py': helper }, 'xl/model.py', 'ATT002'), [11]);
  });
});

const SENTINEL = (marked: string, rewrite: string): string => `import torch
import torch.nn.functional as F


def causal_attention(q, k, v):
    S = q.size(-2)
    scores = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5
    future = torch.triu(torch.ones((1, 1, S, S), device=q.device), diagonal=1)
    scores = ${marked}
${rewrite}    weights = F.softmax(scores, dim=-1)
    return weights @ v
`;

describe('ATT002: a large positive sentinel rewritten to the fill is judged as that fill (session 47)', () => {
  const rewrite = '    scores[scores >= 1e9] = -torch.inf\n';
  it('is silent on the future marked with the sentinel and rewritten to -inf', async () => {
    assert.deepEqual(await findingLines(SENTINEL('scores * (1 - future) + 1e9 * future', rewrite), 'ATT002'), []);
    assert.deepEqual(await findingLines(SENTINEL('scores * (1 - future) + 1e9 * future', "    scores[scores == 1e9] = float('-inf')\n"), 'ATT002'), []);
    // The fill given as a large negative number.
    assert.deepEqual(await findingLines(SENTINEL('scores * (1 - future) + 1e9 * future', '    scores[scores > 1e9 - 1] = -1e9\n'), 'ATT002'), []);
  });

  it('reports the past marked with the sentinel and rewritten, and the sentinel without the rewrite', async () => {
    // Both the product (scores kept where future is 1) and the sentinel (the past rewritten to -inf) are reported.
    assert.deepEqual(await findingLines(SENTINEL('scores * future + 1e9 * (1 - future)', rewrite), 'ATT002'), [9, 9]);
    assert.deepEqual(await findingLines(SENTINEL('scores * (1 - future) + 1e9 * future', ''), 'ATT002'), [9]);
    // A rewrite that does not mask (to zero) leaves the sentinel an addition.
    assert.deepEqual(await findingLines(SENTINEL('scores * (1 - future) + 1e9 * future', '    scores[scores >= 1e9] = 0.0\n'), 'ATT002'), [9]);
  });

  it('reads the future mask of another file the same way', async () => {
    const helper = `import torch


def future_mask(S, device):
    return torch.triu(torch.ones((1, 1, S, S), device=device), diagonal=1)
`;
    const model = (marked: string): string =>
      SENTINEL(marked, rewrite)
        .replace('import torch.nn.functional as F\n', 'import torch.nn.functional as F\n\nfrom gpt.masks import future_mask\n')
        .replace('torch.triu(torch.ones((1, 1, S, S), device=q.device), diagonal=1)', 'future_mask(S, q.device)');
    const files = (marked: string): Record<string, string> => ({ 'gpt/attention.py': model(marked), 'gpt/masks.py': helper });
    assert.deepEqual(await workspaceFindingLines(files('scores * (1 - future) + 1e9 * future'), 'gpt/attention.py', 'ATT002'), []);
    assert.deepEqual(await workspaceFindingLines(files('scores * future + 1e9 * (1 - future)'), 'gpt/attention.py', 'ATT002'), [11, 11]);
  });
});

const ROWS = (softmaxDim: string) => `import torch
import torch.nn as nn
import torch.nn.functional as F


class Head(nn.Module):
    def __init__(self, n_embd, head_size, block_size):
        super().__init__()
        self.key = nn.Linear(n_embd, head_size, bias=False)
        self.query = nn.Linear(n_embd, head_size, bias=False)
        self.value = nn.Linear(n_embd, head_size, bias=False)
        self.register_buffer("tril", torch.tril(torch.ones(block_size, block_size)))

    def forward(self, x):
        B, T, C = x.shape
        k = self.key(x)
        q = self.query(x)
        wei = k @ q.transpose(-2, -1) * k.size(-1) ** -0.5
        wei = wei.masked_fill(self.tril[:T, :T] == 0, float("-inf"))
        wei = F.softmax(wei, dim=${softmaxDim})
        return wei @ self.value(x)
`;

const KEYS_FIRST = `import torch
import torch.nn.functional as F


def attend(q, k, v):
    T = q.size(1)
    s = torch.einsum("bkd,bqd->bkq", k, q) / q.size(-1) ** 0.5
    keep = torch.tril(torch.ones(T, T, device=q.device))
    s = s.masked_fill(keep == 0, float("-inf"))
    w = F.softmax(s, dim=1)
    return torch.einsum("bkq,bkd->bqd", w, v)
`;

describe('ATT002: scores whose product with the values sums over the last axis have the queries as rows (session 47)', () => {
  it('is silent on tril kept over k @ q.T multiplied by the values as wei @ v, with the softmax axis left to ATT001', async () => {
    assert.deepEqual(await findingLines(ROWS('1'), 'ATT002'), []);
    assert.deepEqual(await findingLines(ROWS('1'), 'ATT001'), [21]);
    assert.deepEqual(await findingLines(ROWS('-1'), 'ATT002'), []);
  });

  it('still reads scores laid out keys first and contracted over the keys over their axes', async () => {
    assert.deepEqual(await findingLines(KEYS_FIRST, 'ATT002'), [9]);
  });

  it('reads the buffer built by a helper of another file the same way', async () => {
    const helper = `import torch


def lower_ones(n):
    return torch.tril(torch.ones(n, n))
`;
    const model = ROWS('1')
      .replace('import torch.nn.functional as F\n', 'import torch.nn.functional as F\n\nfrom tiny.masks import lower_ones\n')
      .replace('torch.tril(torch.ones(block_size, block_size))', 'lower_ones(block_size)');
    assert.deepEqual(await workspaceFindingLines({ 'tiny/head.py': model, 'tiny/masks.py': helper }, 'tiny/head.py', 'ATT002'), []);
    const keysFirst = KEYS_FIRST.replace('import torch.nn.functional as F\n', 'import torch.nn.functional as F\n\nfrom tiny.masks import lower_ones\n').replace(
      'torch.tril(torch.ones(T, T, device=q.device))',
      'lower_ones(T)',
    );
    assert.deepEqual(await workspaceFindingLines({ 'tiny/attend.py': keysFirst, 'tiny/masks.py': helper }, 'tiny/attend.py', 'ATT002'), [11]);
  });
});
