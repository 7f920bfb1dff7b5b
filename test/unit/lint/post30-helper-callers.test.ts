// Session 30, precscan10a: ATT006, class "a post-softmax re-mask in a helper whose callers mask the scores first".
//
// Knowledge-tracing attention (AKT and its kin) masks the scores with -1e9 before the softmax and multiplies the
// weights by the same 0/1 mask after it, so a row with no visible interaction comes out as zeros instead of a uniform
// row. Written in one function, the rule sees the masking before the softmax and is silent. Split so that a helper
// normalises the scores its caller hands it (`weights(scores, mask)`), the helper read with no caller sees unknown
// scores (yet was reported through the caller's use of the weights); where calls of the file reach it, they decide
// what came before the softmax. A caller that does not mask still gets the finding.
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

const helper = `import torch
import torch.nn.functional as F


def weights(scores, mask):
    w = F.softmax(scores, dim=-1)
    return w * mask.float()
`;
const POST = 7;

const caller = (masking: string): string => `${helper}

def attend(q, k, v, mask):
    s = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5
    ${masking}
    return weights(s, mask) @ v
`;

describe('lint: a post-softmax re-mask in a helper whose callers mask the scores first (ATT006)', () => {
  it('every caller masks the scores with the same mask before: silent', async () => {
    assert.deepEqual(await findingLines(caller('s = s.masked_fill(mask == 0, -1e9)'), 'ATT006'), []);
  });
  it('a caller that hands unmasked scores: reported at the helper', async () => {
    assert.deepEqual(await findingLines(caller('pass'), 'ATT006'), [POST]);
  });
  it('one masking caller and one that does not: reported', async () => {
    const two = `${caller('s = s.masked_fill(mask == 0, -1e9)')}

def attend_raw(q, k, v, mask):
    return weights(q @ k.transpose(-2, -1), mask) @ v
`;
    assert.deepEqual(await findingLines(two, 'ATT006'), [POST]);
  });
  it('no caller in view: nothing shows the weights meet the values, silent as before', async () => {
    assert.deepEqual(await findingLines(helper, 'ATT006'), []);
  });
  it('the one-function form (AKT: masked_fill, softmax, times the mask) stays silent; without the fill it is reported', async () => {
    const one = (masking: string): string => `import torch
import torch.nn.functional as F


def attention(q, k, v, mask):
    scores = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5
    ${masking}
    w = F.softmax(scores, dim=-1)
    w = w * mask.float()
    return w @ v
`;
    assert.deepEqual(await findingLines(one('scores = scores.masked_fill(mask == 0, -1e32)'), 'ATT006'), []);
    assert.deepEqual(await findingLines(one('pass'), 'ATT006'), [9]);
  });
  it('cross-file: the caller in attn.py masks, the helper in weights.py is linted in the workspace', async () => {
    const attn = (masking: string): string => `from weights import weights


def attend(q, k, v, mask):
    s = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5
    ${masking}
    return weights(s, mask) @ v
`;
    const masked = await workspaceFindingLines({ 'weights.py': helper, 'attn.py': attn('s = s.masked_fill(mask == 0, -1e9)') }, 'weights.py', 'ATT006');
    const raw = await workspaceFindingLines({ 'weights.py': helper, 'attn.py': attn('pass') }, 'weights.py', 'ATT006');
    // An importing file's call decides as a call of the same file does (att006helper30): silent when it masks first.
    assert.deepEqual(masked, []);
    assert.deepEqual(raw, [7]);
  });
});
