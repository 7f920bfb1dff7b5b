// Session 44, eng-s44b: ATT007, class "a -inf fill where a padding mask is True only at pairs of two padding
// positions" (the regression group's false finding in batch 3: a decoder-only model whose padding mask is
// `pad & pad.transpose(1, 2)`, True where both the query and the key are padding, filled with -inf beside a causal
// triangle).
//
// Two padding masks combined so that a position is hidden only where both hide it (True at padding and-ed, keep masks
// or-ed) empty a query row only where both parts do: the query-side part alone hides nothing, so the row of a padded
// query keeps every real key. The mask lattice read the combination as padding along the query axis (the union of
// the parts' axes) and reported the -inf fill as emptying padded rows. Now the query axis stays padded only when both
// parts pad it; the union of what they hide (`keep_q & keep_k`, `pad_q | pad_k`) still empties padded rows and is
// still reported.
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
});
