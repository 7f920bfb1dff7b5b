// Session 36, reg-fill-s36: ATT007, class "a dtype's epsilon (or smallest normal number) used as the fill".
//
// `torch.finfo().eps` (the default dtype's, float32: 1.19e-7), `torch.finfo(torch.float32).eps`, `np.finfo(np.float32)
// .tiny` are tiny numbers: written into masked scores (`-EPS`, often kept in a constants module) they mask nothing,
// as `-1e-9` does not; the intended value was the dtype's minimum. The evaluator now knows these numbers for a known
// float width; `finfo(x.dtype).eps` of a width it does not know stays unknown, and the minimum (the fix) and an epsilon
// used as a guard in a division are not fills.
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

const head = (fill: string, imports = ''): string => `import math

import torch
${imports}

def attend(q, k, v, pad):
    # q, k, v: (B, H, T, D); pad: (B, 1, 1, T), True on padded keys
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
    scores = scores.masked_fill(pad, ${fill})
    w = torch.softmax(scores, dim=-1)
    return w @ v
`;
const FILL = 9;

describe('ATT007: a finfo epsilon as the fill (session 36)', () => {
  it('reports -torch.finfo().eps and a float32 epsilon or tiny as the fill', async () => {
    assert.deepEqual(await findingLines(head('-torch.finfo().eps'), 'ATT007'), [FILL]);
    assert.deepEqual(await findingLines(head('-torch.finfo(torch.float32).eps'), 'ATT007'), [FILL]);
    assert.deepEqual(await findingLines(head('-np.finfo(np.float32).tiny', 'import numpy as np\n'), 'ATT007'), [FILL + 1]);
  });

  it('is silent on the minimum (the fix) and on an epsilon of a width the code does not show', async () => {
    assert.deepEqual(await findingLines(head('torch.finfo(scores.dtype).min'), 'ATT007'), []);
    assert.deepEqual(await findingLines(head('-torch.finfo(scores.dtype).eps'), 'ATT007'), []);
  });

  it('is silent on an epsilon guarding a division of the weights', async () => {
    const src = `import torch


def attend(q, k, v, keep):
    scores = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5
    w = torch.exp(scores - scores.amax(-1, keepdim=True)) * keep
    w = w / (w.sum(-1, keepdim=True) + torch.finfo().eps)
    return w @ v
`;
    assert.deepEqual(await findingLines(src, 'ATT007'), []);
  });

  it('reads the epsilon from a constants module of the workspace', async () => {
    const files = (value: string): Record<string, string> => ({
      'pkg/__init__.py': '',
      'pkg/constants.py': `import torch\n\nEPS = ${value}\n`,
      'pkg/attention.py': head('-constants.EPS', 'from pkg import constants\n'),
    });
    assert.deepEqual(await workspaceFindingLines(files('torch.finfo().eps'), 'pkg/attention.py', 'ATT007'), [FILL + 1]);
    assert.deepEqual(await workspaceFindingLines(files('-torch.finfo().min'), 'pkg/attention.py', 'ATT007'), []);
  });
});
