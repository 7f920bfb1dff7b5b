// Session 48, eng-s48c: class "a shape comment alone is no evidence that the softmax's axis is the batch".
//
// ATT001 reported a softmax over an axis a shape comment called the batch (`# (B, S)`, `# [batch size, src len]`)
// where the code itself showed nothing of the layout. A comment may be stale (written for another layout, as the
// session-42 stale `(B, S)` on time-major energies was) or describe another code path. The weak-source audit of
// session 48 found that this path decided no true finding of the regression copy, training, corpus or holdout sets,
// nor of the public ledgers (their batch-axis findings all have the code's own layout). The batch is now read only from
// the code: a reshape or shape unpack (`B, S = x.shape`), a recurrent layer's layout (`nn.LSTM` time-major unless
// `batch_first=True`), also in the context an importing file's call gives a helper.
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

/** Additive pooling energies normalised over axis 0; only the comment says what axis 0 is. */
const HELPER = (dim: string, comment = '  # (B, S)') => `import torch.nn.functional as F


def attention_weights(energy):
    energy = energy${comment}
    return F.softmax(energy, dim=${dim})
`;

/** A pooling module over a time-major LSTM (its output (T, B, H)), handing its energies (T, B) to the helper. */
const MODEL = (batchFirst: string) => `import torch.nn as nn

from attention import attention_weights


class Pool(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.rnn = nn.LSTM(d, d${batchFirst})
        self.score = nn.Linear(d, 1)

    def forward(self, x):
        out, _ = self.rnn(x)
        energy = self.score(out).squeeze(-1)
        return attention_weights(energy)
`;

describe('eng-s48c ATT001: a shape comment alone does not make an axis the batch', () => {
  it('natural: energies a comment calls (B, S), softmax over axis 0, nothing in the code: silent', async () => {
    assert.deepEqual(await findingLines(HELPER('0'), 'ATT001'), []);
    assert.deepEqual(await findingLines(HELPER('0', '  # [batch size, src len]'), 'ATT001'), []);
  });
  it('the twin whose code shapes the batch (`B, S = energy.shape` then a view): reported; over axis 1: silent', async () => {
    const shaped = (dim: string) => HELPER(dim, '').replace('    energy = energy\n', '    B, S = energy.shape\n    energy = energy.view(B, S)\n');
    assert.deepEqual(await findingLines(shaped('0'), 'ATT001'), [7]);
    assert.deepEqual(await findingLines(shaped('1'), 'ATT001'), []);
  });
  it('cross-file: a time-major LSTM in the importing model makes axis 1 the batch there; batch_first makes it axis 0', async () => {
    assert.deepEqual(await workspaceFindingLines({ 'attention.py': HELPER('1'), 'model.py': MODEL('') }, 'attention.py', 'ATT001'), [6]);
    assert.deepEqual(await workspaceFindingLines({ 'attention.py': HELPER('0'), 'model.py': MODEL('') }, 'attention.py', 'ATT001'), []);
    assert.deepEqual(await workspaceFindingLines({ 'attention.py': HELPER('0'), 'model.py': MODEL(', batch_first=True') }, 'attention.py', 'ATT001'), [6]);
  });
});
