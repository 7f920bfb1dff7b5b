// Session 39 (eng-scale-s39): one scale variable applied to the queries and again to the scores they form.
//
// ATT004 reports two 1/sqrt(d) factors on one path when each is known to be one. A drop-in replacement of scaled
// dot-product attention takes `scale=None` and computes `scale = query.size(-1) ** 0.5` only when none is passed, divides
// the queries by it, and divides the similarity by it again before the softmax (regression b31-10): the factor is a
// parameter or that root, so neither use was known as 1/sqrt(d), and nothing was said. The code shows the same name, with
// the same reaching definitions, applied twice with the same operator on one path, one of its definitions a root of the
// width: whatever a caller passes, the scores carry its square, and by default that is 1/d.
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

// query, key, value: (b, h, n, d); the similarity (b, h, n, s).
const GQA = (second: string, first = 'query = query / scale'): string => `import torch
import torch.nn.functional as F


def sdpa(query, key, value, scale=None):
    if scale is None:
        scale = query.size(-1) ** 0.5
    ${first}
    similarity = torch.einsum("bhnd,bhsd->bhns", query, key)
    attention = F.softmax(${second}, dim=-1)
    return torch.einsum("bhns,bhsd->bhnd", attention, value)
`;

describe('engscale39: one scale variable applied to q and to the scores (ATT004)', () => {
  it('reports the second division by the same scale (the bug)', async () => {
    assert.deepEqual(await findingLines(GQA('similarity / scale'), 'ATT004'), [10]);
  });
  it('reports the same with multiplication by a 1/sqrt(d) default', async () => {
    const src = GQA('similarity * scale', 'query = query * scale').replace('query.size(-1) ** 0.5', 'query.size(-1) ** -0.5');
    assert.deepEqual(await findingLines(src, 'ATT004'), [10]);
  });
  it('is silent when the scale is applied once (the fix)', async () => {
    assert.deepEqual(await findingLines(GQA('similarity'), 'ATT004'), []);
    assert.deepEqual(await findingLines(GQA('similarity / scale', 'query = query'), 'ATT004'), []);
  });
  it('is silent when the second use undoes the first (divide, then multiply)', async () => {
    assert.deepEqual(await findingLines(GQA('similarity * scale'), 'ATT004'), []);
  });
  it('is silent when the name is rebound in between (another value)', async () => {
    const src = GQA('similarity / scale').replace('    similarity = torch.einsum', '    scale = 1.0\n    similarity = torch.einsum');
    assert.deepEqual(await findingLines(src, 'ATT004'), []);
  });
  it('is silent when no definition shows a root of the width (a temperature both times)', async () => {
    const src = GQA('similarity / scale').replace('query.size(-1) ** 0.5', '0.5');
    assert.deepEqual(await findingLines(src, 'ATT004'), []);
  });
  it('reports it in the helper when a module of another file calls it', async () => {
    const model = `import torch.nn as nn
from attn import sdpa


class Block(nn.Module):
    def forward(self, q, k, v):
        return sdpa(q, k, v)
`;
    assert.deepEqual(await workspaceFindingLines({ 'attn.py': GQA('similarity / scale'), 'model.py': model }, 'attn.py', 'ATT004'), [10]);
  });
});
