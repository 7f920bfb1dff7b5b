// Session 45, eng-s45b: ATT007, known defect "a pair mask combined with a causal mask loses how the pair was joined".
//
// A pair mask (a padding term spread over the queries combined elementwise with one spread over the keys) records how
// it was joined (MaskInfo.pairJoin), and the rule reads from it whether the filled region is where both terms hold
// (`pad & pad.transpose(1, 2)` filled where True: a padded query keeps every real key, so the query side alone empties
// no row). Combined further with a causal triangle (`(pad & pad.transpose(1, 2)) | future`, the usual decoder mask),
// the record was dropped, so the mask read as padding along the query axis and its -inf fill was reported as emptying
// the padded rows. Now a pair combined with a mask that pads no query keeps its record: the filled region is the pair's
// plus the future keys, which empties a row only where the triangle hides the diagonal or the batch is left-padded
// (the rule's causal-with-padding case). A pair filled where either term holds (`pad | pad.transpose(1, 2)`, or keep
// masks and-ed and filled where False) still empties the padded rows, with or without the triangle.
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

const attend = (build: string, fill = 's.masked_fill(hide, -math.inf)'): string => `import math
import torch


def attend(q, k, v, ids, pad_id=0):
    T = ids.size(1)
    pad = (ids == pad_id).unsqueeze(2)  # (B, T, 1): True at padding
    future = torch.triu(torch.ones(T, T, dtype=torch.bool, device=ids.device), diagonal=1)
${build}
    s = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
    s = ${fill}
    return torch.softmax(s, dim=-1) @ v
`;

describe('ATT007: a pair padding mask combined with a causal triangle (session 45)', () => {
  it('is silent on `(pad & pad.transpose(1, 2)) | future` filled with -inf (right padding: every row keeps a key)', async () => {
    assert.deepEqual(await findingLines(attend('    hide = (pad & pad.transpose(1, 2)) | future'), 'ATT007'), []);
    assert.deepEqual(await findingLines(attend('    hide = future | (pad & pad.transpose(1, 2))'), 'ATT007'), []);
  });

  it('is silent on the keep form `(keep | keep.T) & ~future` used by where, reports `(keep & keep.T) & ~future`', async () => {
    const keep = (op: string): string =>
      attend(`    keep = ~pad\n    allowed = (keep ${op} keep.transpose(1, 2)) & ~future`, 'torch.where(allowed, s, -math.inf)');
    assert.deepEqual(await findingLines(keep('|'), 'ATT007'), []);
    assert.deepEqual(await findingLines(keep('&'), 'ATT007'), [12]);
  });

  it('still reports the union `(pad | pad.transpose(1, 2)) | future` (padded query rows emptied)', async () => {
    assert.deepEqual(await findingLines(attend('    hide = (pad | pad.transpose(1, 2)) | future'), 'ATT007'), [11]);
  });

  it('still reports the pair with a triangle that hides the diagonal (`triu(ones)` with no diagonal=1)', async () => {
    const src = attend('    hide = (pad & pad.transpose(1, 2)) | torch.triu(torch.ones(T, T, dtype=torch.bool))');
    assert.deepEqual(await findingLines(src, 'ATT007'), [11]);
  });

  it('is silent when the pair comes from a helper in another file and the triangle is added here; reports the union', async () => {
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
    T = ids.size(1)
    future = torch.triu(torch.ones(T, T, dtype=torch.bool, device=ids.device), diagonal=1)
    s = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
    s = s.masked_fill(pair_mask(ids) | future, -math.inf)
    return torch.softmax(s, dim=-1) @ v
`,
    });
    assert.deepEqual(await workspaceFindingLines(files('&'), 'lm/attn.py', 'ATT007'), []);
    assert.deepEqual(await workspaceFindingLines(files('|'), 'lm/attn.py', 'ATT007'), [11]);
  });
});
