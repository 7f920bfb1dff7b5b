// Session 29, training batch i: the classes behind its false findings and misses, as unit tests.
//
// ATT002, class "a left-padding mask written right-aligned per example": `real = zeros(B, W, dtype=bool)` and, in a
// loop over the batch, `real[i, W - len(p):] = True` (the example's tokens written right-aligned, as its ids are)
// marks the tokens, so `real` keeps and `~real` is True at the padding; `real[i, :W - len(p)] = True` marks the
// padding. A bound counted back by something other than a sequence's length (`L - pad_len`, `-n`) may count the
// tokens or the padding, so no polarity is read from it.
//
// ATT007, class "a term constant along the keys combined into the mask of a -inf fill": `visible & keep` where `keep`
// has a length-1 key axis (`block_keep.view(B, 1, N, 1).repeat_interleave(bs, dim=2)`) and the fill goes where the
// mask is False (`torch.where(mask, 0.0, -inf)`), or `hide | drop` with such a `drop` filled where True: a query row
// the term masks is masked at every key, and softmax of it is NaN. Decided from the shapes; the fixed form that ORs
// each row's own keys back in (`(visible & keep) | own_block`), a finite fill, and a term along the keys stay silent.
import { strict as assert } from 'node:assert';
import { findingLines, linter, workspaceFindingLines } from './helpers';

const leftPad = (slice: string, negate: boolean): string => `import torch


def left_pad(prompts, pad_id):
    n = len(prompts)
    width = max(len(p) for p in prompts)
    ids = torch.full((n, width), pad_id, dtype=torch.long)
    marked = torch.zeros((n, width), dtype=torch.bool)
    for i, p in enumerate(prompts):
        ids[i, width - len(p):] = torch.tensor(p)
        marked[i, ${slice}] = True
    pad = ${negate ? '~marked' : 'marked'}
    return ids, pad


def attend(scores, pad):
    scores = scores.masked_fill(pad[:, None, None, :], float("-inf"))
    return scores.softmax(dim=-1)


def run(q, k, prompts, pad_id):
    ids, pad = left_pad(prompts, pad_id)
    return attend(q @ k.transpose(-2, -1), pad)
`;

describe('lint: a left-padding mask written right-aligned per example (ATT002)', () => {
  it('1s on the right-aligned tokens, negated, fill the padding: silent', async () => {
    assert.deepEqual(await findingLines(leftPad('width - len(p):', true), 'ATT002'), []);
  });
  it('1s on the right-aligned tokens, not negated, fill the tokens: reported', async () => {
    assert.deepEqual(await findingLines(leftPad('width - len(p):', false), 'ATT002'), [17]);
  });
  it('1s before the right-aligned tokens mark the padding: silent as is, reported negated', async () => {
    assert.deepEqual(await findingLines(leftPad(':width - len(p)', false), 'ATT002'), []);
    assert.deepEqual(await findingLines(leftPad(':width - len(p)', true), 'ATT002'), [17]);
  });
  it('-len(p): counts back by the length too', async () => {
    assert.deepEqual(await findingLines(leftPad('-len(p):', true), 'ATT002'), []);
    assert.deepEqual(await findingLines(leftPad('-len(p):', false), 'ATT002'), [17]);
  });
  it('right padding, 1s past each length (`len(p):`), still marks the padding', async () => {
    assert.deepEqual(await findingLines(leftPad('len(p):', false), 'ATT002'), []);
    assert.deepEqual(await findingLines(leftPad('len(p):', true), 'ATT002'), [17]);
  });
  it('a bound minus a count that may be padding (`width - n_pad:`) says nothing either way', async () => {
    const src = leftPad('width - n_pad:', true).replace('for i, p in enumerate(prompts):', 'for i, p in enumerate(prompts):\n        n_pad = width - len(p)');
    assert.deepEqual(await findingLines(src, 'ATT002'), []);
  });
  it('cross-file: the left-padded pad mask built in a batch module, applied by torch.where in another', async () => {
    const batch = `import torch


def left_pad(prompts, pad_id):
    n = len(prompts)
    width = max(len(p) for p in prompts)
    ids = torch.full((n, width), pad_id, dtype=torch.long)
    real = torch.zeros((n, width), dtype=torch.bool)
    for i, p in enumerate(prompts):
        ids[i, width - len(p):] = torch.tensor(p)
        real[i, width - len(p):] = True
    return ids, ~real, real
`;
    const use = (which: string): string => `import torch

from batch import left_pad


def attend(q, k, v, prompts, pad_id):
    ids, pad_mask, real = left_pad(prompts, pad_id)
    scores = q @ k.transpose(-2, -1)
    floor = torch.finfo(scores.dtype).min
    scores = torch.where(${which}[:, None, None, :], torch.tensor(floor), scores)
    return scores.softmax(dim=-1) @ v
`;
    assert.deepEqual(await workspaceFindingLines({ 'batch.py': batch, 'attn.py': use('pad_mask') }, 'attn.py', 'ATT002'), []);
    assert.deepEqual(await workspaceFindingLines({ 'batch.py': batch, 'attn.py': use('real') }, 'attn.py', 'ATT002'), [10]);
  });
});

const blockMask = (combine: string, fill = 'float("-inf")', keepView = 'view(B, 1, N, 1)'): string => `import torch


def block_mask(anchors, block_keep, ctx_len, block_size):
    B, N = anchors.shape
    q_idx = torch.arange(N * block_size).view(1, 1, -1, 1)
    kv_idx = torch.arange(ctx_len + N * block_size).view(1, 1, 1, -1)
    anchor = anchors.view(B, 1, N, 1).repeat_interleave(block_size, dim=2)
    visible = (kv_idx < ctx_len) & (kv_idx < anchor)
    own = (kv_idx >= ctx_len) & ((kv_idx - ctx_len) // block_size == q_idx // block_size)
    keep = block_keep.${keepView}.repeat_interleave(block_size, dim=2)
    allowed = ${combine}
    return torch.where(allowed, 0.0, ${fill})
`;

describe('lint: a term constant along the keys combined into the mask of a -inf fill (ATT007)', () => {
  it('(visible | own) & keep, keep of length 1 along the keys: the -inf fill is reported', async () => {
    assert.deepEqual(await findingLines(blockMask('(visible | own) & keep'), 'ATT007'), [13]);
  });
  it('the fixed form, (visible & keep) | own, keeps every row its own block: silent', async () => {
    assert.deepEqual(await findingLines(blockMask('(visible & keep) | own'), 'ATT007'), []);
  });
  it('a finite fill (finfo min) empties no row into NaN: silent', async () => {
    assert.deepEqual(await findingLines(blockMask('(visible | own) & keep', 'torch.finfo(torch.float32).min'), 'ATT007'), []);
  });
  it('a term along the keys (view(B, 1, 1, N)) hides keys, not rows: silent', async () => {
    const src = blockMask('(visible | own) & keep', 'float("-inf")', 'view(B, 1, 1, N)').replace(
      'repeat_interleave(block_size, dim=2)\n    allowed',
      'repeat_interleave(block_size, dim=3)\n    allowed',
    );
    assert.deepEqual(await findingLines(src, 'ATT007'), []);
  });
  it('masked_fill where True of hide | drop, drop constant along the keys: reported; drop along the keys: silent', async () => {
    const src = (view: string): string => `import torch


def attend(q, k, hide, dropped):
    B, T = dropped.shape
    scores = q @ k.transpose(-2, -1)
    scores = scores.masked_fill(hide | dropped.view(${view}), float("-inf"))
    return scores.softmax(dim=-1)
`;
    assert.deepEqual(await findingLines(src('B, 1, T, 1'), 'ATT007'), [7]);
    assert.deepEqual(await findingLines(src('B, 1, 1, T'), 'ATT007'), []);
  });
  it('cross-file: the row term comes from a helper in another module', async () => {
    const rows = `def rows_kept(block_keep, block_size):
    B, N = block_keep.shape
    return block_keep.view(B, 1, N, 1).repeat_interleave(block_size, dim=2)
`;
    const build = (combine: string): string => `import torch

from rows import rows_kept


def block_mask(visible, own, block_keep, block_size):
    keep = rows_kept(block_keep, block_size)
    allowed = ${combine}
    return torch.where(allowed, 0.0, float("-inf"))
`;
    assert.deepEqual(await workspaceFindingLines({ 'rows.py': rows, 'mask.py': build('(visible | own) & keep') }, 'mask.py', 'ATT007'), [9]);
    assert.deepEqual(await workspaceFindingLines({ 'rows.py': rows, 'mask.py': build('(visible & keep) | own') }, 'mask.py', 'ATT007'), []);
  });
});

const planes = (pad: string, combine: string, fullDtype = 'dtype'): string => `import torch


def causal_padding_bias(attention_mask, seq_len, dtype):
    floor = torch.finfo(dtype).min
    causal = torch.triu(torch.full((seq_len, seq_len), floor, dtype=${fullDtype}), diagonal=1)
    causal = causal[None, None]
    pad = ${pad}
    return ${combine}
`;

describe('lint: two additive mask planes of finfo(D).min added in D (ATT007)', () => {
  const keepPlane = '((1.0 - attention_mask.to(dtype)) * floor).unsqueeze(1).unsqueeze(2)';
  it('causal plane + padding plane: the sum is reported', async () => {
    const lint = (await linter()).lintPython(planes(keepPlane, 'causal + pad'));
    const f = lint.filter((x) => x.code === 'ATT007');
    assert.deepEqual(
      f.map((x) => x.line),
      [9],
    );
    assert.match(f[0]?.message ?? '', /-inf/);
  });
  it('the same sum clamped back to the floor: silent', async () => {
    assert.deepEqual(await findingLines(planes(keepPlane, '(causal + pad).clamp(min=floor)'), 'ATT007'), []);
  });
  it('the padding written once with torch.where over the causal plane: silent', async () => {
    const src = planes('(attention_mask == 0)[:, None, None, :]', 'torch.where(pad, torch.tensor(floor, dtype=dtype), causal)');
    assert.deepEqual(await findingLines(src, 'ATT007'), []);
  });
  it('a where-built padding plane in D: reported; a causal plane made in float32 with the minimum of another D: silent', async () => {
    const wherePlane = 'torch.where(attention_mask[:, None, None, :] == 0, torch.tensor(floor, dtype=dtype), torch.tensor(0.0, dtype=dtype))';
    assert.deepEqual(await findingLines(planes(wherePlane, 'causal + pad'), 'ATT007'), [9]);
    assert.deepEqual(await findingLines(planes(wherePlane, 'causal + pad', 'torch.float32'), 'ATT007'), []);
  });
  it('cross-file: the planes are built in a mask module, the sum is reported there and not in the attention importing it', async () => {
    const masks = planes(keepPlane, 'causal + pad');
    const attn = `import torch

from masks import causal_padding_bias


def attend(q, k, v, attention_mask):
    bias = causal_padding_bias(attention_mask, q.shape[-2], q.dtype)
    w = torch.softmax(q @ k.transpose(-2, -1) * q.shape[-1] ** -0.5 + bias, dim=-1)
    return w @ v
`;
    assert.deepEqual(await workspaceFindingLines({ 'masks.py': masks, 'attn.py': attn }, 'masks.py', 'ATT007'), [9]);
    assert.deepEqual(await workspaceFindingLines({ 'masks.py': masks, 'attn.py': attn }, 'attn.py', 'ATT007'), []);
  });
});
