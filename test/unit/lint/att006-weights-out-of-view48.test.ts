// Session 48, eng-s48c: class "weights masked after the softmax and handed out of view are no evidence".
//
// ATT006 reported a mask applied to the weights after the softmax when the scores had named q and k, even where no
// product with the values was in view and no call of the function was either: weights masked and returned from a
// function nobody in view calls. Such weights may be renormalised by the code that runs them, or only displayed;
// the rule page already leaves alone "a masked copy of the weights that never meets the values". The weak-source
// audit of session 48 found this path decided no true finding of the regression copy, training, corpus or holdout
// sets, nor of the public ledgers. The finding now needs the product with the values in view, or a call in view (of
// this file or of a file importing it) reading the function in its context, as the session-30 class of helpers
// returning `softmax(scores) * mask` to an importing caller that multiplies them by the values requires.
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

const WEIGHTS = (tail: string, imports = '') => `import math

import torch
import torch.nn.functional as F
${imports}

def causal_weights(q, k, v):
    T = q.size(-2)
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
    w = F.softmax(scores, dim=-1)
    w = w * torch.tril(torch.ones(T, T, device=q.device))
${tail}`;

const MASKS = `import torch


def causal_keep(T, device=None):
    return torch.tril(torch.ones(T, T, device=device))
`;

describe('eng-s48c ATT006: weights masked after the softmax and handed out of view', () => {
  it('natural: weights masked with a causal triangle and returned, no product and no caller in view: silent', async () => {
    assert.deepEqual(await findingLines(WEIGHTS('    return w\n'), 'ATT006'), []);
  });
  it('the twin that multiplies them by the values: reported', async () => {
    assert.deepEqual(await findingLines(WEIGHTS('    return w @ v\n'), 'ATT006'), [11]);
  });
  it('a caller of the same file multiplying the returned weights by the values reads it in its context: reported', async () => {
    const called = `${WEIGHTS('    return w\n')}

def attend(q, k, v):
    return causal_weights(q, k, v) @ v
`;
    assert.deepEqual(await findingLines(called, 'ATT006'), [11]);
  });
  it('cross-file: the mask built in another file; product in view: reported; weights only returned: silent', async () => {
    const own = (tail: string) =>
      WEIGHTS(tail, '\nfrom masks import causal_keep\n').replace(
        '    w = w * torch.tril(torch.ones(T, T, device=q.device))\n',
        '    w = w * causal_keep(T, q.device)\n',
      );
    assert.deepEqual(await workspaceFindingLines({ 'attn.py': own('    return w @ v\n'), 'masks.py': MASKS }, 'attn.py', 'ATT006'), [13]);
    assert.deepEqual(await workspaceFindingLines({ 'attn.py': own('    return w\n'), 'masks.py': MASKS }, 'attn.py', 'ATT006'), []);
  });
});
