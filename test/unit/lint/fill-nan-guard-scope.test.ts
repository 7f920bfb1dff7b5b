// Class from the session-27 leftovers: ATT007's NaN guard read per function, where any `isnan` anywhere counted. A
// guard protects the rows a -inf fill empties only when it reads the softmax's output or its input (the scores or
// weights formed at the same product): `torch.nan_to_num(w)`, `w.masked_fill(w.isnan(), 0)`, `torch.where(torch.isnan(w),
// 0, w)`. A NaN test of anything else (an assert on the
// input, a loss check) protects no row. Written fresh, with the guarded forms that stay silent and a cross-file pair.
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

const HEAD = `import torch
import torch.nn.functional as F


def attend(q, k, v, ids):
    pad = ids != 0
    mask = pad[:, None, :, None] & pad[:, None, None, :]
    scores = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5
    scores = scores.masked_fill(~mask, float("-inf"))
`;

const form = (guard: string, ret = 'return w @ v'): string => `${HEAD}    w = F.softmax(scores, dim=-1)
${guard ? `    ${guard}\n` : ''}    ${ret}
`;

describe('ATT007: a NaN guard counts only on the rows the fill empties', () => {
  it('an isnan assert on the input does not guard the rows', async () => {
    const src = form('').replace('    pad = ids != 0', '    assert not torch.isnan(q).any()\n    pad = ids != 0');
    assert.deepEqual(await findingLines(src, 'ATT007'), [10]);
  });
  it('a NaN check of the loss does not guard the rows', async () => {
    const src = form('out = w @ v', 'return out, bool(torch.isnan(out.sum()))');
    assert.deepEqual(await findingLines(src, 'ATT007'), [9]);
  });
  it('nan_to_num, masked_fill(w.isnan(), 0) and where(isnan(w), 0, w) on the weights guard them', async () => {
    for (const guard of ['w = torch.nan_to_num(w)', 'w = w.masked_fill(w.isnan(), 0.0)', 'w = torch.where(torch.isnan(w), torch.zeros_like(w), w)'])
      assert.deepEqual(await findingLines(form(guard), 'ATT007'), [], guard);
  });
  it('an isnan of the input in the calling file does not guard the fill of the helper', async () => {
    const helper = `${HEAD}    return F.softmax(scores, dim=-1)
`;
    const caller = (guard: string): string => `import torch

from weights import attend


def layer(q, k, v, ids):
    w = attend(q, k, v, ids)
    ${guard}
    return w @ v
`;
    assert.deepEqual(await workspaceFindingLines({ 'weights.py': helper, 'layer.py': caller('assert not torch.isnan(q).any()') }, 'weights.py', 'ATT007'), [9]);
  });
});
