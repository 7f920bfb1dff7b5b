// Session 48, eng-s48b: ATT002's wording for a mask read from feature sums (`x.sum(-1) != 0`, padded positions being
// zero vectors). The finding said "True at real tokens", a phrase for token ids; features summed against 0 are no
// tokens: the message now says what the comparison shows (True where the features are not all zero, or all zero).
import { strict as assert } from 'node:assert';
import { linter } from './helpers';

const FILLED = `import torch


def pool(x, w):
    # x: (B, S, D) with zero vectors at the padded positions
    scores = torch.einsum("bsd,d->bs", x, w)
    real = x.sum(dim=-1) != 0
    scores = scores.masked_fill(real, float("-inf"))
    return torch.softmax(scores, dim=-1)
`;

describe('ATT002: a mask from feature sums is worded as such (session 48)', () => {
  it('says the mask is True where the features are not all zero, not "at real tokens"', async () => {
    const findings = (await linter()).lintPython(FILLED, { select: ['ATT002'] });
    assert.deepEqual(
      findings.map((f) => f.line),
      [8],
    );
    assert.match(String(findings[0]?.message), /True where the features are not all zero/);
    assert.doesNotMatch(String(findings[0]?.message), /real tokens/);
  });

  it('says "all zero" for the padding form, and is silent on the fixed twin', async () => {
    const padding = FILLED.replace('real = x.sum(dim=-1) != 0', 'real = x.sum(dim=-1) == 0').replace('masked_fill(real,', 'masked_fill(~real,');
    const findings = (await linter()).lintPython(padding, { select: ['ATT002'] });
    assert.deepEqual(
      findings.map((f) => f.line),
      [8],
    );
    assert.match(String(findings[0]?.message), /True where the features are all zero/);
    assert.deepEqual((await linter()).lintPython(FILLED.replace('masked_fill(real,', 'masked_fill(~real,'), { select: ['ATT002'] }), []);
  });
});
