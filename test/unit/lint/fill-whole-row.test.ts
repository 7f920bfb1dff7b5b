// Class from the session-30 scan (precscan10d, causal Linformer-style attention over compressed key blocks): ATT007's
// "fill does not mask" finding on a constant written over whole query rows. A mask whose key axis has length 1
// (`(~has_keys).view(1, 1, T, 1)`, `row_pad.unsqueeze(-1)`, `row_pad[..., None]`) writes the same value at every key of
// the rows it selects, and softmax is unchanged by adding a constant to a row: such a row comes out uniform whatever
// the fill is (0.0, -1e9, the dtype's minimum), so the fill value decides nothing. The common form is a NaN guard for
// rows whose keys were all filled with -inf (the row is set to 0 before the softmax and its weights zeroed after).
// Written fresh; the zero fills that vary along the keys stay reported, as does a row term combined with a key term.
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

const guarded = (rowMask: string, fill = '0.0'): string => `import torch
import torch.nn.functional as F


def attend_blocks(q, k_blocks, v_blocks, visible):
    # visible: (T, N) bool, which compressed key blocks each query may see
    T = q.size(-2)
    scores = q @ k_blocks.transpose(-1, -2) * q.size(-1) ** -0.5
    scores = scores.masked_fill(~visible, float("-inf"))
    has_keys = visible.any(dim=-1)
    scores = scores.masked_fill(${rowMask}, ${fill})
    w = F.softmax(scores, dim=-1)
    w = w.masked_fill(${rowMask}, 0.0)
    return w @ v_blocks
`;

describe('ATT007: a constant written over whole query rows is no fill that fails to mask', () => {
  it('a zero fill of rows with no visible key (view with a length-1 key axis) before the softmax is silent', async () => {
    assert.deepEqual(await findingLines(guarded('(~has_keys).view(1, 1, T, 1)'), 'ATT007'), []);
  });
  it('the same guard written with unsqueeze(-1) or [..., None] is silent', async () => {
    assert.deepEqual(await findingLines(guarded('(~has_keys).unsqueeze(-1)'), 'ATT007'), []);
    assert.deepEqual(await findingLines(guarded('~has_keys[..., None]'), 'ATT007'), []);
  });
  it('rows of a mask of unknown rank: any(dim=-1, keepdim=True) inverted, has[..., None] in torch.where, are silent', async () => {
    const src = (fill: string): string => `import torch


def attend(q, k, v, visible):
    s = q @ k.transpose(-1, -2) * q.size(-1) ** -0.5
    s = s.masked_fill(~visible, float("-inf"))
    has = visible.any(dim=-1, keepdim=True)
    s = ${fill}
    return torch.softmax(s, dim=-1) @ v
`;
    assert.deepEqual(await findingLines(src('s.masked_fill(~has, 0.0)'), 'ATT007'), []);
    assert.deepEqual(await findingLines(src('torch.where(has.squeeze(-1)[..., None], s, 0.0)'), 'ATT007'), []);
    assert.deepEqual(await findingLines(src('torch.where(visible, s, 0.0)'), 'ATT007'), [8]);
  });
  it('scores laid out (batch, keys, heads): pad[:, :, None] varies along the keys, so its zero fill is still reported', async () => {
    const src = `import torch


def attend(q, k, v, ids):
    pad = ids == 0  # (B, T)
    scores = torch.einsum("bhd,bthd->bth", q, k) / q.size(-1) ** 0.5
    scores = scores.masked_fill(pad[:, :, None], 0.0)
    w = torch.softmax(scores, dim=1)
    return torch.einsum("bth,bthd->bhd", w, v)
`;
    assert.deepEqual(await findingLines(src, 'ATT007'), [7]);
  });
  it('a zero fill of padded query rows (pad.unsqueeze(-1) of a (B, T) mask) is silent', async () => {
    const src = `import torch


def attend(q, k, v, ids):
    pad = ids == 0  # (B, T)
    scores = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5
    scores = scores.masked_fill(pad[:, None, None, :], -1e9)
    scores = scores.masked_fill(pad[:, None, :, None], 0.0)
    return torch.softmax(scores, dim=-1) @ v
`;
    assert.deepEqual(await findingLines(src, 'ATT007'), []);
  });
  it('a zero fill over the keys (a mask that varies along the last axis) is still reported', async () => {
    const src = `import torch


def attend(q, k, v, ids):
    pad = ids == 0  # (B, T)
    scores = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5
    scores = scores.masked_fill(pad[:, None, None, :], 0.0)
    return torch.softmax(scores, dim=-1) @ v
`;
    assert.deepEqual(await findingLines(src, 'ATT007'), [7]);
  });
  it('a zero fill of the key mask itself, with no row guard, is still reported', async () => {
    assert.deepEqual(await findingLines(guarded('~visible'), 'ATT007'), [11]);
  });
  it('a row term combined with a key term by | varies along the keys and is still reported', async () => {
    const src = `import torch


def attend(q, k, v, ids, drop_rows):
    pad = ids == 0  # (B, T)
    scores = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5
    scores = scores.masked_fill(pad[:, None, None, :] | drop_rows[:, None, :, None], 0.0)
    return torch.softmax(scores, dim=-1) @ v
`;
    assert.deepEqual(await findingLines(src, 'ATT007'), [7]);
  });
  it('a row mask built in another file and imported is silent; a key mask so imported is reported', async () => {
    const masks = `def no_key_rows(visible):
    return (~visible.any(dim=-1)).unsqueeze(-1)


def key_pad(ids):
    return (ids == 0)[:, None, None, :]
`;
    const layer = (call: string): string => `import torch

from masks import key_pad, no_key_rows


def attend(q, k, v, visible, ids):
    scores = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5
    scores = scores.masked_fill(~visible, float("-inf"))
    scores = scores.masked_fill(${call}, 0.0)
    return torch.softmax(scores, dim=-1) @ v
`;
    assert.deepEqual(await workspaceFindingLines({ 'masks.py': masks, 'layer.py': layer('no_key_rows(visible)') }, 'layer.py', 'ATT007'), []);
    assert.deepEqual(await workspaceFindingLines({ 'masks.py': masks, 'layer.py': layer('key_pad(ids)') }, 'layer.py', 'ATT007'), [9]);
  });
});
