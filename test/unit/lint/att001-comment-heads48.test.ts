// Session 48, eng-s48c: class "a shape comment alone is no evidence that the softmax's axis is the heads" (the twin of
// att001-comment-batch48: the same weak source in the heads path).
//
// ATT001 reported a softmax over an axis a shape comment alone called the heads (`attn  # (batch, i, j, heads)`). The
// weak-source audit of session 48 found that path decided no true finding of the regression copy, training, corpus or
// holdout sets, nor of the public ledgers (which hold no heads-axis finding). The heads are now read only from the
// code's layout (a view or reshape whose size is the head count), also in an importing file's context.
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

const HELPER = (shape: string) => `def attend(logits):
    attn = logits${shape}  # (batch, i, j, heads)
    return attn.softmax(dim=-1)
`;

const MODEL = (view: string) => `import torch.nn as nn

from attention import attend


class PairBias(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.heads = heads
        self.to_logits = nn.Linear(d, heads)

    def forward(self, pair):
        b, n = pair.shape[0], pair.shape[1]
        return attend(self.to_logits(pair)${view})
`;

describe('eng-s48c ATT001: a shape comment alone does not make an axis the heads', () => {
  it('natural: logits a comment calls (batch, i, j, heads), softmax over the last axis: silent', async () => {
    assert.deepEqual(await findingLines(HELPER(''), 'ATT001'), []);
  });
  it('the twin whose code views the last axis as the heads: reported; over the keys (dim=-2 of that view): silent', async () => {
    const viewed = HELPER('.view(logits.shape[0], logits.shape[1], logits.shape[2], heads)').replace('def attend(logits):', 'def attend(logits, heads):');
    assert.deepEqual(await findingLines(viewed, 'ATT001'), [3]);
    assert.deepEqual(await findingLines(viewed.replace('softmax(dim=-1)', 'softmax(dim=-2)'), 'ATT001'), []);
  });
  it('cross-file: an importing model passing logits whose layout it does not show: the comment alone stays silent there too', async () => {
    // (Noticed, not built: a heads view in the importing model, `.view(b, n, n, self.heads)`, does not reach this helper's
    // context today, so the evidence in another file leaves it silent rather than reported.)
    assert.deepEqual(await workspaceFindingLines({ 'attention.py': HELPER(''), 'model.py': MODEL('') }, 'attention.py', 'ATT001'), []);
    assert.deepEqual(
      await workspaceFindingLines({ 'attention.py': HELPER(''), 'model.py': MODEL('.view(b, n, n, self.heads)') }, 'attention.py', 'ATT001'),
      [],
    );
  });
});
