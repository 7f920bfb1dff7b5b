// Session 47 (eng-s47a): ATT004 and scores divided by the inverse square root of a size whose name says nothing.
//
// Class: `self.scale = float(attention_dim) ** -0.5` (a constructor's size, named neither as a head width nor as a
// model width), then `logits.div(self.scale)` or `logits / self.scale`: dividing by 1/sqrt(n) multiplies the logits by
// sqrt(n), whatever n is. The rule read the inverse only for sizes a name placed (`head_dim`, `d_model`); this size's
// role does not matter, since no size makes a division by its inverse root a softmax scale (regression b57-05). Silent
// when the scale is multiplied in, when the root is divided out (`/ attention_dim ** 0.5`), and for a size read off
// another axis (a length) or a literal, which other paths judge.
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

const TEMPORAL = (apply: string, scale = 'float(attention_dim) ** -0.5'): string => `import torch
import torch.nn as nn


class TemporalAttention(nn.Module):
    def __init__(self, encoder_dim: int, decoder_dim: int, attention_dim: int):
        super().__init__()
        self.key_proj = nn.Linear(encoder_dim, decoder_dim, bias=False)
        self.softmax = nn.Softmax(dim=2)
        self.scale = ${scale}

    def forward(self, keys, query):
        # keys: (B, P, T, D); query: (B, P, D)
        keys = self.key_proj(keys)
        logits = (keys @ query.unsqueeze(-1)).squeeze(-1)
        logits = ${apply}
        return self.softmax(logits)
`;

describe('ATT004 scores divided by the inverse root of a size named for nothing (session 47)', () => {
  it('reports a division by the named inverse root, by method or operator', async () => {
    assert.deepEqual(await findingLines(TEMPORAL('logits.div(self.scale)'), 'ATT004'), [16]);
    assert.deepEqual(await findingLines(TEMPORAL('logits / self.scale'), 'ATT004'), [16]);
    assert.deepEqual(
      await findingLines(TEMPORAL('logits / self.scale', '1.0 / math.sqrt(attention_dim)').replace('import torch\n', 'import math\nimport torch\n'), 'ATT004'),
      [17],
    );
  });

  it('is silent on the fixed forms', async () => {
    assert.deepEqual(await findingLines(TEMPORAL('logits * self.scale'), 'ATT004'), []);
    assert.deepEqual(await findingLines(TEMPORAL('logits / self.scale', 'float(attention_dim) ** 0.5'), 'ATT004'), []);
  });

  it('reads the scale a base class of another workspace file sets', async () => {
    const BASE = `import torch.nn as nn


class ScaledBase(nn.Module):
    def __init__(self, attention_dim: int):
        super().__init__()
        self.scale = float(attention_dim) ** -0.5
`;
    const MODEL = (apply: string): string => `import torch
import torch.nn as nn

from base import ScaledBase


class TemporalAttention(ScaledBase):
    def __init__(self, encoder_dim: int, attention_dim: int):
        super().__init__(attention_dim)
        self.key_proj = nn.Linear(encoder_dim, attention_dim, bias=False)

    def forward(self, keys, query):
        keys = self.key_proj(keys)
        logits = (keys @ query.unsqueeze(-1)).squeeze(-1)
        logits = ${apply}
        return torch.softmax(logits, dim=-1)
`;
    assert.deepEqual(await workspaceFindingLines({ 'base.py': BASE, 'model.py': MODEL('logits.div(self.scale)') }, 'model.py', 'ATT004'), [15]);
    assert.deepEqual(await workspaceFindingLines({ 'base.py': BASE, 'model.py': MODEL('logits.mul(self.scale)') }, 'model.py', 'ATT004'), []);
  });
});
