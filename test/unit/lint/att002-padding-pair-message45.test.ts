// Session 45, eng-s45a: ATT002, the message of a product of two "is padding" pair terms (training batch ee's
// stack-pointer loss, `t44ee-15-mask`: `mask_d.eq(0).unsqueeze(2) * mask_e.eq(0).unsqueeze(1)` filled with -inf).
//
// A (B, S) mask spread over the query axis times one spread over the key axis keeps a pair only where both positions
// are kept, so the lattice reads the product as a keep mask whatever the names say, and a fill where it is True is
// reported. That finding is right, but its message said the mask "is True/1 at positions to keep (... a pair is kept
// only where both positions are ...)" and that "the positions to keep are masked out": the code's own terms are masks
// the code flips to True at padding (`mask_d.eq(0)`), so the product is True where both positions are padding and the
// fill hides only pairs of padding positions, leaving every real query's padded keys visible. The message now says
// that, and offers no fix (inverting the product, the rule's usual fix, would hide every pair of two real positions:
// the fill meant is the or of the two terms). A product whose terms are keep masks, by code or by name, keeps its
// message; the products of padding masks known from code are not read as pairs of keep masks (they stay silent).
import { strict as assert } from 'node:assert';
import { grammar, linter, memoryWorkspace } from './helpers';
import { createLinter, type Finding } from '../../../src/lint';

const text = (f: Finding): string => f.message;

async function att002(src: string): Promise<Finding[]> {
  return (await linter()).lintPython(src).filter((f) => f.code === 'ATT002');
}

const LOSS = (fill: string): string => `import torch


def pointer_loss(scores, mask_e, mask_d):
    pad_e = mask_e.eq(0).unsqueeze(1)
    pad_d = mask_d.eq(0).unsqueeze(2)
    scores = ${fill}
    return torch.softmax(scores, dim=-1)
`;

describe('ATT002: a product of two padding pair terms filled where True (session 45)', () => {
  it('reports it as hiding only pairs of padding positions, with no fix', async () => {
    const found = await att002(LOSS('scores.masked_fill(pad_d * pad_e, float("-inf"))'));
    assert.deepEqual(
      found.map((f) => f.line),
      [7],
    );
    const m = text(found[0]);
    assert.match(m, /only where both positions of a pair are padding/);
    assert.match(m, /padded keys/);
    assert.doesNotMatch(m, /positions to keep are masked out/);
    assert.doesNotMatch(m, /a pair is kept only where both positions are/);
    assert.equal(found[0].fix, undefined);
  });

  it('is silent on the or of the two terms (the fix) and on the key padding alone', async () => {
    assert.deepEqual(await att002(LOSS('scores.masked_fill(pad_d | pad_e, float("-inf"))')), []);
    assert.deepEqual(await att002(LOSS('scores.masked_fill(pad_e, float("-inf"))')), []);
  });

  it('keeps the keep-pair message for a product of keep masks filled where True', async () => {
    const src = `import math
import torch


def attend(q, k, v, ids, pad_id=0):
    keep = ids != pad_id
    pair = keep[:, :, None] * keep[:, None, :]
    s = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
    s = s.masked_fill(pair, -math.inf)
    return torch.softmax(s, dim=-1) @ v
`;
    const found = await att002(src);
    assert.deepEqual(
      found.map((f) => f.line),
      [9],
    );
    assert.match(text(found[0]), /positions to keep are masked out/);
    assert.match(text(found[0]), /a pair is kept only where both positions are/);
  });

  it('says the same where the padding terms are built by a helper of another file', async () => {
    const files = {
      'ptr/masks.py': `def padding_pair(mask_q, mask_k):
    return mask_q.eq(0).unsqueeze(2) * mask_k.eq(0).unsqueeze(1)
`,
      'ptr/loss.py': `import torch

from ptr.masks import padding_pair


def pointer_loss(scores, mask_e, mask_d):
    scores = scores.masked_fill(padding_pair(mask_d, mask_e), float("-inf"))
    return torch.softmax(scores, dim=-1)
`,
    };
    const l = await createLinter(grammar(), { workspace: memoryWorkspace(files) });
    const found = l.lintPython(files['ptr/loss.py'], { path: 'ptr/loss.py' }).filter((f) => f.code === 'ATT002');
    assert.deepEqual(
      found.map((f) => f.line),
      [7],
    );
    assert.match(text(found[0]), /only where both positions of a pair are padding/);
  });
});
