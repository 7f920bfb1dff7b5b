// Session 44, eng-s44b: ATT007, class "a -inf fill whose filled region is where a query-side padding term AND a
// key-side one both hold" (the regression group's false finding in batch 3: a decoder-only model whose padding mask is
// `pad & pad.transpose(1, 2)`, True where both the query and the key are padding, filled with -inf beside a causal
// triangle; and training batch ee's stack-pointer loss, `mask_d.eq(0).unsqueeze(2) * mask_e.eq(0).unsqueeze(1)` filled
// with -inf, whose real bug is ATT002's).
//
// A pair mask (a padding term spread over the queries combined elementwise with one spread over the keys) filled where
// both terms hold (`pad_q & pad_k` filled where True, `where(keep_q | keep_k, s, -inf)`) hides a key of a padded query
// row only where the key term hides it too, so the query side alone empties no row. The rule read any pair mask as
// padding along the query axis and reported the -inf fill as emptying padded rows. Now the mask lattice records how
// the pair was joined (flipped by `~`, `== 0`) and the rule reads the filled region from it; a pair whose filled
// region is where either term holds (`keep_q & keep_k` filled where False, `pad_q | pad_k` where True) still empties
// the rows of padded queries and is still reported.
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

const head = (build: string): string => `import math
import torch


def attend(q, k, v, ids, pad_id=0):
    pad = (ids == pad_id).unsqueeze(2)  # (B, T, 1): True at padding
${build}
    s = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
    s = s.masked_fill(hide, -math.inf)
    return torch.softmax(s, dim=-1) @ v
`;

describe('ATT007: -inf where a padding mask hides only pairs of padding positions (session 44)', () => {
  it('is silent on `pad & pad.transpose(1, 2)` (True where both positions are padding)', async () => {
    assert.deepEqual(await findingLines(head('    hide = pad & pad.transpose(1, 2)'), 'ATT007'), []);
  });

  it('is silent on keep masks or-ed (`where(keep | keep.T, s, -inf)`), reports them and-ed', async () => {
    const src = (op: string): string => `import math
import torch


def attend(q, k, v, ids, pad_id=0):
    keep = (ids != pad_id).unsqueeze(2)  # (B, T, 1): True at real tokens
    s = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
    s = torch.where(keep ${op} keep.transpose(1, 2), s, -math.inf)
    return torch.softmax(s, dim=-1) @ v
`;
    assert.deepEqual(await findingLines(src('|'), 'ATT007'), []);
    assert.deepEqual(await findingLines(src('&'), 'ATT007'), [8]);
  });

  it('still reports `pad | pad.transpose(1, 2)` (True where either is padding: padded rows emptied)', async () => {
    assert.deepEqual(await findingLines(head('    hide = pad | pad.transpose(1, 2)'), 'ATT007'), [9]);
  });

  it('is silent when the pair mask comes from a helper in another file, reports the union', async () => {
    const files = (op: string): Record<string, string> => ({
      'lm/masks.py': `PAD_ID = 0


def pair_mask(ids):
    pad = (ids == PAD_ID).unsqueeze(2)  # (B, T, 1): True at padding
    return pad ${op} pad.transpose(1, 2)
`,
      'lm/attn.py': `import math
import torch

from lm.masks import pair_mask


def attend(q, k, v, ids):
    s = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
    s = s.masked_fill(pair_mask(ids), -math.inf)
    return torch.softmax(s, dim=-1) @ v
`,
    });
    assert.deepEqual(await workspaceFindingLines(files('&'), 'lm/attn.py', 'ATT007'), []);
    assert.deepEqual(await workspaceFindingLines(files('|'), 'lm/attn.py', 'ATT007'), [9]);
  });
  it('is silent on a product of two "is padding" masks of parameters (ATT002 reports the line), reports keep products filled where False', async () => {
    const src = (fill: string): string => `import torch


def loss(scores, mask_e, mask_d):
    pad_e = mask_e.eq(0).unsqueeze(1)
    pad_d = mask_d.eq(0).unsqueeze(2)
    scores = ${fill}
    return torch.softmax(scores, dim=-1)
`;
    const both = src('scores.masked_fill(pad_d * pad_e, float("-inf"))');
    assert.deepEqual(await findingLines(both, 'ATT007'), []);
    assert.deepEqual(await findingLines(both, 'ATT002'), [7]);
    const keep = `import math
import torch


def attend(q, k, v, ids, pad_id=0):
    keep = ids != pad_id
    pair = keep[:, :, None] * keep[:, None, :]
    s = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
    s = s.masked_fill(pair == 0, -math.inf)
    return torch.softmax(s, dim=-1) @ v
`;
    assert.deepEqual(await findingLines(keep, 'ATT007'), [9]);
    assert.deepEqual(await findingLines(keep.replace('s.masked_fill(pair == 0, -math.inf)', 'torch.where(pair, s, -math.inf)'), 'ATT007'), [9]);
    assert.deepEqual(await findingLines(keep.replace('s.masked_fill(pair == 0, -math.inf)', 's.masked_fill(~pair, -math.inf)'), 'ATT007'), [9]);
  });
});
