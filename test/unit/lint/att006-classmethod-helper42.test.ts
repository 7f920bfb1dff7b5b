// Session 42, eng-prec-s42a: class "a class method's arguments, called through `self.`, `cls.` or the class".
//
// Real code (0618FSQ/muti-agent-trajectory-prediction `demo.py:40`): a `@classmethod masked_softmax(cls, x, mask)`
// fills the scores with -1e12 where `mask` is True, takes their softmax and multiplies the weights by `1 - mask`
// (zeroing the rows a query-row mask empties; the masked keys already have ~0 weight). It is called as
// `self.masked_softmax(scores, mask)`. The scopes pass read a class method as a static one, so the call bound its
// first argument to `cls` (the scores to `cls`, the mask to `x`, nothing to `mask`): the reading never saw the fill
// on the scores and ATT006 reported the product. A class method's `cls` is never passed at a call: the arguments now
// bind to the parameters after it (scope-params.ts: withImplicitClassParam), and the scores filled before the softmax
// are seen as masked, as for a plain method or a module function. A product after a softmax of unmasked scores is
// still reported, now with the caller's mask as evidence.
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

const H = 'import math\n\nimport torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n';

/** The helper, `fill` its first line (the fill of the scores before the softmax, or none): the product at line 16. */
const module = (fill: string, call = 'self.masked_softmax(scores, mask)', deco = '@classmethod', first = 'cls') => `${H}

class Attention(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.d = d

    ${deco}
    def masked_softmax(${first}, x, mask):
        ${fill}
        return F.softmax(x, dim=-1) * (1 - mask.float())

    def forward(self, q, k, v, mask):
        scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(self.d)
        w = ${call}
        return torch.matmul(w, v)
`;
const FILLED = 'x = x.masked_fill(mask, -1e12)';
const UNFILLED = 'x = x * 1.0';
const PRODUCT = 16;

describe('lint: a class method called through self/cls/the class binds its arguments after cls (ATT006)', () => {
  it('natural example: the scores filled with -1e12 where masked, then the weights times 1 - mask: silent', async () => {
    assert.deepEqual(await findingLines(module(FILLED), 'ATT006'), []);
  });
  it('its buggy form: the weights times 1 - mask after a softmax of unmasked scores: reported', async () => {
    assert.deepEqual(await findingLines(module(UNFILLED), 'ATT006'), [PRODUCT]);
  });
  it('the same helper as a plain method, and as a static method without cls: as the class method', async () => {
    assert.deepEqual(await findingLines(module(FILLED, undefined, '# plain', 'self'), 'ATT006'), []);
    assert.deepEqual(await findingLines(module(UNFILLED, undefined, '# plain', 'self'), 'ATT006'), [PRODUCT]);
    const stat = (fill: string): string => module(fill, undefined, '@staticmethod', 'x, mask').replace('(x, mask, x, mask)', '(x, mask)');
    assert.deepEqual(await findingLines(stat(FILLED), 'ATT006'), []);
    assert.deepEqual(await findingLines(stat(UNFILLED), 'ATT006'), [PRODUCT]);
  });
  it('called as `Attention.masked_softmax(...)`: as through self', async () => {
    assert.deepEqual(await findingLines(module(FILLED, 'Attention.masked_softmax(scores, mask)'), 'ATT006'), []);
    assert.deepEqual(await findingLines(module(UNFILLED, 'Attention.masked_softmax(scores, mask)'), 'ATT006'), [PRODUCT]);
  });
  it('cross-file: the mask built from the lengths in model.py, handed to the module of attn.py', async () => {
    const model = `${H}from .attn import Attention


class Model(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.attn = Attention(d)

    def forward(self, x, lengths):
        pad = (torch.arange(x.size(1))[None, :] >= lengths[:, None])[:, None, :]
        return self.attn(x, x, x, pad)
`;
    const files = (fill: string): Record<string, string> => ({ 'pkg/__init__.py': '', 'pkg/attn.py': module(fill), 'pkg/model.py': model });
    assert.deepEqual(await workspaceFindingLines(files(FILLED), 'pkg/attn.py', 'ATT006'), []);
    assert.deepEqual(await workspaceFindingLines(files(UNFILLED), 'pkg/attn.py', 'ATT006'), [PRODUCT]);
  });
});
