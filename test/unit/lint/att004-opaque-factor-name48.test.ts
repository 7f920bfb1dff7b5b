// Session 48 weak-source audit of ATT004 (eng-s48a): a factor whose value the analysis cannot follow (returned by a
// function it cannot see, `self.d_k = resolve_d_k(cfg)` from a package outside the workspace) was read as a
// dimension by its name alone, and dividing the scores by it reported as 1/d instead of 1/sqrt(d). On the readable sets
// this reading decides no true finding (every true "divided by a dimension" finding divides by a value the code shows:
// `q.size(-1)`, `x.shape[-1]`). The class: a name is no evidence of the value a function it cannot see returns (the
// helper may return the root already). Written fresh: the opaque helper (silent), its twin that takes the width from
// its config in the file (reported), and the helper in a workspace file: returning the width (reported) or its root
// (silent).
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

const LAYER = (imports: string, headDim: string): string => `import torch
import torch.nn as nn
${imports}

class Attention(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.q = nn.Linear(cfg.dim, cfg.dim)
        self.k = nn.Linear(cfg.dim, cfg.dim)
        self.d_k = ${headDim}

    def forward(self, x):
        q, k = self.q(x), self.k(x)
        scores = torch.matmul(q, k.transpose(-2, -1)) / self.d_k
        return scores.softmax(dim=-1)
`;

const CONFIG = (body: string): string => `import math


def resolve_d_k(cfg):
    return ${body}
`;

describe('ATT004: a factor whose value the code does not show, read by its name (session 48)', () => {
  it('says nothing of a width returned by a function outside the workspace', async () => {
    assert.deepEqual(await findingLines(LAYER('from mylib.config import resolve_d_k', 'resolve_d_k(cfg)'), 'ATT004'), []);
  });

  it('reports the scores divided by a width the file takes from its config', async () => {
    assert.deepEqual(await findingLines(LAYER('', 'cfg.dim'), 'ATT004'), [14]);
  });

  it('reports it when a workspace file returns the width', async () => {
    const files = { 'config.py': CONFIG('cfg.dim'), 'model.py': LAYER('from config import resolve_d_k', 'resolve_d_k(cfg)') };
    assert.deepEqual(await workspaceFindingLines(files, 'model.py', 'ATT004'), [14]);
  });

  it('says nothing when the workspace file returns its square root', async () => {
    const files = { 'config.py': CONFIG('math.sqrt(cfg.dim)'), 'model.py': LAYER('from config import resolve_d_k', 'resolve_d_k(cfg)') };
    assert.deepEqual(await workspaceFindingLines(files, 'model.py', 'ATT004'), []);
  });
});
