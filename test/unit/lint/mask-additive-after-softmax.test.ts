// Class from the session-27 leftovers: an additive mask (0 where kept, a large negative number or -inf where masked)
// added to the attention weights after the softmax (`w = softmax(s); w = w + (1 - m) * -10000.0`, `w += bias`), where
// it belongs on the scores before it. Decided from the mask's construction (times a large negative number, zeros
// filled with -inf where a mask or a comparison is True), never from its name: `w + attn_mask` with nothing known of attn_mask stays
// silent. Small examples written fresh, with their fixed forms and a cross-file pair.
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

const AFTER = `import torch
import torch.nn.functional as F


def attend(q, k, v, ids):
    keep = (ids != 0).float()[:, None, None, :]
    ext = (1.0 - keep) * -10000.0
    scores = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5
    w = F.softmax(scores, dim=-1)
    w = w + ext
    return w @ v


def attend_bias(q, k, v, ids):
    keep = ids != 0
    scores = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5
    bias = torch.zeros_like(scores).masked_fill(~keep[:, None, None, :], float("-inf"))
    w = torch.softmax(scores, dim=-1)
    w += bias
    return w @ v


def attend_pad(q, k, v, pad):
    scores = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5
    bias_mask = torch.zeros_like(scores).masked_fill(pad == 0, float("-inf"))
    w = torch.softmax(scores, dim=-1)
    w += bias_mask
    return w @ v
`;

const BEFORE = `import torch
import torch.nn.functional as F


def attend(q, k, v, ids):
    keep = (ids != 0).float()[:, None, None, :]
    ext = (1.0 - keep) * -10000.0
    scores = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5
    w = F.softmax(scores + ext, dim=-1)
    return w @ v


def attend_bias(q, k, v, ids):
    keep = ids != 0
    scores = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5
    bias = torch.zeros_like(scores).masked_fill(~keep[:, None, None, :], float("-inf"))
    scores += bias
    w = torch.softmax(scores, dim=-1)
    return w @ v


def attend_pad(q, k, v, pad):
    scores = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5
    bias_mask = torch.zeros_like(scores).masked_fill(pad == 0, float("-inf"))
    scores += bias_mask
    w = torch.softmax(scores, dim=-1)
    return w @ v


def attend_unknown(q, k, v, attn_mask):
    w = torch.softmax(q @ k.transpose(-2, -1) / q.size(-1) ** 0.5, dim=-1)
    w = w + attn_mask
    return w @ v


def slot(q, k, v, eps=1e-8):
    w = torch.softmax(q @ k.transpose(-2, -1) / q.size(-1) ** 0.5, dim=1) + eps
    w = w / w.sum(dim=-1, keepdim=True)
    return w @ v
`;

const MASKS = `def extended_mask(keep):
    return (1.0 - keep.float()[:, None, None, :]) * -10000.0
`;

const LAYER = (where: 'before' | 'after'): string => `import torch

from masks import extended_mask


def attend(q, k, v, ids):
    ext = extended_mask(ids != 0)
    scores = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5
    ${where === 'after' ? 'w = torch.softmax(scores, dim=-1) + ext' : 'w = torch.softmax(scores + ext, dim=-1)'}
    return w @ v
`;

describe('ATT006: an additive mask added to the weights after softmax', () => {
  it('reports w + (1 - m) * -10000.0 and w += bias (zeros filled with -inf, also where a comparison of an unknown tensor holds) after the softmax', async () => {
    assert.deepEqual(await findingLines(AFTER, 'ATT006'), [10, 19, 27]);
  });
  it('stays silent on the fixed forms, on a mask known only by name and on an epsilon', async () => {
    assert.deepEqual(await findingLines(BEFORE, 'ATT006'), []);
  });
  it('reports a mask built additive in another file and added after the softmax', async () => {
    assert.deepEqual(await workspaceFindingLines({ 'masks.py': MASKS, 'layer.py': LAYER('after') }, 'layer.py', 'ATT006'), [9]);
  });
  it('stays silent when that mask is added to the scores', async () => {
    assert.deepEqual(await workspaceFindingLines({ 'masks.py': MASKS, 'layer.py': LAYER('before') }, 'layer.py', 'ATT006'), []);
  });
});
