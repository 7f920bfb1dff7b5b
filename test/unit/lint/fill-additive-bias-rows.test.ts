// Class from the session-27 leftovers: an additive bias with -inf where a padding mask that varies along the queries
// hides positions (`bias = mask.float().masked_fill(mask == 0, float("-inf"))`, `torch.where(mask, 0.0, float("-inf"))`),
// then `scores + bias` and a softmax: every padded query row is all -inf, so softmax makes it NaN. ATT007 judges the
// additive form as it judges `scores.masked_fill(mask == 0, float("-inf"))`: the same evidence (the mask's padding
// along the query axis, a triangle that hides the diagonal), the same guards. Written fresh, with fixed forms and a
// cross-file pair.
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

const BUGGY = `import torch
import torch.nn.functional as F


def fill_bias(q, k, v, ids):
    pad = ids != 0
    mask = pad[:, None, :, None] & pad[:, None, None, :]
    bias = mask.float().masked_fill(mask == 0, float("-inf"))
    scores = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5
    return F.softmax(scores + bias, dim=-1) @ v


def where_bias(q, k, v, ids):
    pad = ids != 0
    mask = pad[:, None, :, None] & pad[:, None, None, :]
    bias = torch.where(mask, 0.0, float("-inf"))
    scores = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5
    return F.softmax(scores + bias, dim=-1) @ v
`;

const FIXED = `import torch
import torch.nn.functional as F


def fill_bias(q, k, v, ids):
    pad = ids != 0
    mask = pad[:, None, None, :]
    bias = mask.float().masked_fill(mask == 0, float("-inf"))
    scores = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5
    return F.softmax(scores + bias, dim=-1) @ v


def where_bias(q, k, v, ids):
    pad = ids != 0
    mask = pad[:, None, None, :]
    bias = torch.where(mask, 0.0, float("-inf"))
    scores = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5
    return F.softmax(scores + bias, dim=-1) @ v


def causal_bias(q, k, v):
    T = q.size(-2)
    keep = torch.tril(torch.ones(T, T, dtype=torch.bool))
    bias = torch.where(keep, 0.0, float("-inf"))
    scores = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5
    return F.softmax(scores + bias, dim=-1) @ v


def finite_where_bias(q, k, v, ids):
    pad = ids != 0
    mask = pad[:, None, :, None] & pad[:, None, None, :]
    bias = torch.where(mask, 0.0, -1e9)
    scores = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5
    return F.softmax(scores + bias, dim=-1) @ v
`;

const MASKS = `def pair_mask(ids):
    pad = ids != 0
    return pad[:, None, :, None] & pad[:, None, None, :]


def key_mask(ids):
    return (ids != 0)[:, None, None, :]
`;

const LAYER = (fn: string): string => `import torch

from masks import ${fn}


def attend(q, k, v, ids):
    bias = torch.where(${fn}(ids), 0.0, float("-inf"))
    scores = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5
    return torch.softmax(scores + bias, dim=-1) @ v
`;

// A (B, S) padding mask of unknown rank placed on the query axis by indexing (`pad[:, None, :, None]`) varies along the
// queries, as `pad.unsqueeze(1).unsqueeze(-1)` does; placed on the keys (`pad[:, None, None, :]`) it empties no row.
const INDEXED = (place: string): string => `import torch
import torch.nn.functional as F


def fill(q, k, v, ids):
    pad = ids == 0
    scores = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5
    scores = scores.masked_fill(pad${place}, float("-inf"))
    return F.softmax(scores, dim=-1) @ v


def bias(q, k, v, ids):
    keep = ids != 0
    b = torch.where(keep${place}, 0.0, float("-inf"))
    return F.softmax(q @ k.transpose(-2, -1) / q.size(-1) ** 0.5 + b, dim=-1) @ v
`;

describe('ATT007: an additive -inf bias from a padding mask that varies along the queries', () => {
  it('reads a padding mask placed on the queries by indexing, for the fill and the bias alike', async () => {
    assert.deepEqual(await findingLines(INDEXED('[:, None, :, None]'), 'ATT007'), [8, 14]);
    assert.deepEqual(await findingLines(INDEXED('[:, None, None, :]'), 'ATT007'), []);
  });
  it('reports the bias filled with -inf and the bias chosen with where', async () => {
    assert.deepEqual(await findingLines(BUGGY, 'ATT007'), [8, 16]);
  });
  it('stays silent on key padding, a causal triangle with its diagonal, and a finite fill', async () => {
    assert.deepEqual(await findingLines(FIXED, 'ATT007'), []);
  });
  it('reports a query-varying mask built in another file', async () => {
    assert.deepEqual(await workspaceFindingLines({ 'masks.py': MASKS, 'layer.py': LAYER('pair_mask') }, 'layer.py', 'ATT007'), [7]);
  });
  it('stays silent for a key mask built in another file', async () => {
    assert.deepEqual(await workspaceFindingLines({ 'masks.py': MASKS, 'layer.py': LAYER('key_mask') }, 'layer.py', 'ATT007'), []);
  });
});
