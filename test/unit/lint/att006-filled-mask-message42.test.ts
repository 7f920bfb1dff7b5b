// Session 42, eng-prec-s42a: ATT006's message for scores multiplied by a mask that is not 0/1.
//
// Real code (XiaShan1227/Graphormer `layer.py:159`): `batch_mask_neg_inf = torch.full((N, N), fill_value=-1e6)`, its
// diagonal blocks written to 1, then `a = (a + b + c) * batch_mask_neg_inf` before the softmax. The product is
// reported (true), but the message called that mask "a 0/1 mask" and explained exp(0) = 1, which is not what happens:
// the masked scores are multiplied by -1e6. Where the function builds the mask name itself with `full`/`full_like`
// and a negative literal fill (also moved by `.to(device)`), the message now names that value and the
// construction. A mask built elsewhere (a parameter, another file) keeps the 0/1 wording: only the name's own
// assignments in the function are read.
import { strict as assert } from 'node:assert';
import { createLinter } from '../../../src/lint';
import { grammar, linter, memoryWorkspace } from './helpers';

const H = 'import torch\nimport torch.nn as nn\n';

const layer = (build: string) => `${H}

class GraphAttention(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.q = nn.Linear(d, d)
        self.k = nn.Linear(d, d)
        self.v = nn.Linear(d, d)
        self.d = d

    def forward(self, x, ptr):
        n = x.shape[0]
${build}        for i in range(len(ptr) - 1):
            batch_mask[ptr[i]:ptr[i + 1], ptr[i]:ptr[i + 1]] = 1
        a = self.q(x).mm(self.k(x).transpose(0, 1)) / self.d ** 0.5
        a = a * batch_mask
        w = torch.softmax(a, dim=-1)
        return w.mm(self.v(x))
`;
const PRODUCT = 19;

async function messages(src: string): Promise<{ line: number; text: string }[]> {
  return (await linter())
    .lintPython(src)
    .filter((f) => f.code === 'ATT006')
    .map((f) => ({ line: f.line, text: f.message }));
}

describe('lint: ATT006 names the value of a multiplied mask that is not 0/1', () => {
  it('natural example: torch.full(..., fill_value=-1e6).to(device), blocks written to 1: reported, the value named', async () => {
    const [f, ...rest] = await messages(layer('        batch_mask = torch.full((n, n), fill_value=-1e6).to(x.device)\n'));
    assert.equal(rest.length, 0);
    assert.equal(f.line, PRODUCT);
    assert.match(f.text, /holds -1e6 where it masks \(`batch_mask` is built by `torch\.full\(\(n, n\), fill_value=-1e6\)`\), not 0/);
    assert.doesNotMatch(f.text, /0\/1 mask/);
  });
  it('the positional fill of full_like names it too', async () => {
    const [f] = await messages(layer('        batch_mask = torch.full_like(x.mm(x.t()), -10000.0)\n'));
    assert.match(f.text, /holds -10000\.0 where it masks/);
  });
  it('its 0/1 form (torch.zeros, blocks written to 1): reported with the 0/1 wording', async () => {
    const [f, ...rest] = await messages(layer('        batch_mask = torch.zeros((n, n), device=x.device)\n'));
    assert.equal(rest.length, 0);
    assert.equal(f.line, PRODUCT);
    assert.match(f.text, /by a 0\/1 mask before softmax/);
  });
  it('fixed form (the blocks added as an additive mask: 0 kept, -1e6 masked): silent', async () => {
    const src = layer('        batch_mask = torch.full((n, n), fill_value=-1e6)\n')
      .replace('batch_mask[ptr[i]:ptr[i + 1], ptr[i]:ptr[i + 1]] = 1', 'batch_mask[ptr[i]:ptr[i + 1], ptr[i]:ptr[i + 1]] = 0')
      .replace('a = a * batch_mask', 'a = a + batch_mask');
    assert.deepEqual(await messages(src), []);
  });
  it('cross-file: the mask built by a helper of another file keeps the 0/1 wording (only the function is read)', async () => {
    const files = {
      'pkg/__init__.py': '',
      'pkg/masks.py': `${H}\n\ndef block_mask(n, ptr):\n    m = torch.full((n, n), fill_value=-1e6)\n    for i in range(len(ptr) - 1):\n        m[ptr[i]:ptr[i + 1], ptr[i]:ptr[i + 1]] = 1\n    return m\n`,
      'pkg/layer.py': layer('        batch_mask = block_mask(n, ptr)\n').replace(H, `${H}from .masks import block_mask\n`),
    };
    const l = await createLinter(grammar(), { workspace: memoryWorkspace(files), onInternalError: (e) => assert.fail(String(e)) });
    const found = l.lintPython(files['pkg/layer.py'], { path: 'pkg/layer.py' }).filter((f) => f.code === 'ATT006');
    assert.equal(found.length, 1);
    assert.match(found[0].message, /by a 0\/1 mask before softmax/);
  });
});
