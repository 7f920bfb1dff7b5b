// Session 32 (mmclean32): classes of correct code that a meaning-preserving rewrite (test/lint-metamorphic, run on the
// repositories of the false-positive scan with `--repos`) turned into a finding. A finding the rewritten form gains is
// false by construction; each class has its natural example, the form the rewrite made (both silent) and a buggy form
// still reported.
//  1. ATT002 (`cfg`): a 0/1 mask filled where it is 0 with a value the code does not show (`mask.float()
//     .masked_fill(mask == 0, self.cfg.neg).masked_fill(mask == 1, 0.0)`, the fill a config field, a parameter, an
//     imported constant) is no longer that 0/1 mask: what it means is not known, so no rule judges it. Before, the fill
//     with an unknown value left the receiver's meaning ("1 where kept") in place, and nn.Transformer* reported a
//     float keep mask added to the scores. The same for a mask written by index (`m[m == 0] = NEG`).
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

const SQUARE = (neg: string, zero: string, head: string) => `import math
import torch
import torch.nn as nn
${head}

class Model(nn.Module):
    def __init__(self, ntoken, d_model, nhead, nlayers):
        super().__init__()
        layer = nn.TransformerEncoderLayer(d_model, nhead)
        self.encoder = nn.TransformerEncoder(layer, nlayers)
        self.embed = nn.Embedding(ntoken, d_model)
        self.d_model = d_model

    def causal_mask(self, n):
        mask = (torch.triu(torch.ones(n, n)) == 1).transpose(0, 1)
        mask = mask.float().masked_fill(mask == 0, ${neg}).masked_fill(mask == 1, ${zero})
        return mask

    def forward(self, src):
        mask = self.causal_mask(len(src)).to(src.device)
        h = self.embed(src) * math.sqrt(self.d_model)
        return self.encoder(h, mask)
`;

describe('mmclean32: classes of correct code a meaning-preserving rewrite made the rules misread', () => {
  describe('1. ATT002: a 0/1 mask filled with a value the code does not show is no longer that mask', () => {
    it('the natural square-subsequent mask (fill -inf, then 0.0) is silent', async () => {
      assert.deepEqual(await findingLines(SQUARE("float('-inf')", 'float(0.0)', ''), 'ATT002'), []);
    });
    it('the same mask with its fill read from a config field is silent', async () => {
      const cfg = SQUARE('self.cfg.val_1', 'float(0.0)', '\n\nclass _Cfg:\n    val_1 = float("-inf")\n').replace(
        'class Model(nn.Module):\n',
        'class Model(nn.Module):\n    cfg = _Cfg()\n',
      );
      assert.deepEqual(await findingLines(cfg, 'ATT002'), []);
    });
    it('the same mask with its fill a parameter of the builder, passed from a constructor argument, is silent', async () => {
      const param = SQUARE('neg', 'float(0.0)', '')
        .replace('def causal_mask(self, n):', 'def causal_mask(self, n, neg):')
        .replace(
          'def __init__(self, ntoken, d_model, nhead, nlayers):',
          'def __init__(self, ntoken, d_model, nhead, nlayers, neg_fill):\n        self.neg_fill = neg_fill',
        )
        .replace('self.causal_mask(len(src))', 'self.causal_mask(len(src), self.neg_fill)');
      assert.deepEqual(await findingLines(param, 'ATT002'), []);
    });
    it('the same mask with its fill imported from another workspace file that shows it is silent', async () => {
      const files = {
        'consts.py': 'NEG = float("-inf")\n',
        'model.py': SQUARE('NEG', 'float(0.0)', 'from consts import NEG'),
      };
      assert.deepEqual(await workspaceFindingLines(files, 'model.py', 'ATT002'), []);
    });
    it('the same mask with its fill imported from a module outside the workspace is silent', async () => {
      const files = { 'model.py': SQUARE('NEG', 'float(0.0)', 'from outside_pkg.consts import NEG') };
      assert.deepEqual(await workspaceFindingLines(files, 'model.py', 'ATT002'), []);
    });
    it('the mask written by index with a fill the code does not show (m[m == 0] = NEG) is silent; with 0.0 it is reported', async () => {
      const byIndex = (neg: string, head: string) =>
        SQUARE(neg, 'float(0.0)', head).replace(
          `        mask = mask.float().masked_fill(mask == 0, ${neg}).masked_fill(mask == 1, float(0.0))\n`,
          `        mask = mask.float()\n        mask[mask == 0] = ${neg}\n`,
        );
      assert.deepEqual(await findingLines(byIndex('NEG', 'from outside_pkg.consts import NEG'), 'ATT002'), []);
      assert.deepEqual(await findingLines(byIndex("float('-inf')", ''), 'ATT002'), []);
      assert.deepEqual(await findingLines(byIndex('0.0', ''), 'ATT002'), [23]);
    });
    it('the float 0/1 keep mask handed to the encoder unfilled is still reported', async () => {
      const buggy = SQUARE("float('-inf')", 'float(0.0)', '').replace(
        "        mask = mask.float().masked_fill(mask == 0, float('-inf')).masked_fill(mask == 1, float(0.0))\n",
        '        mask = mask.float()\n',
      );
      assert.deepEqual(await findingLines(buggy, 'ATT002'), [22]);
    });
  });
});
