// Fills too small to mask, in the forms fill30-matrix found unreported or reported twice: a blend whose fill term is
// tiny (ATT007 once, not ATT006 as well), zeros filled with a tiny constant and bound to a bias name (by masked_fill or
// by `where`), a tiny-scaled mask bound to a name and then added to the scores, and a tiny negative class constant.
// Each with its fixed form and a look-alike that is not a mask.
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

const attention = (lines: string, head = ''): string => `import math

import torch
import torch.nn as nn
${head}

class Attention(nn.Module):
    MASK_VALUE = -1e-9

    def forward(self, q, k, v, pad_mask):
        # pad_mask: (batch, seq) bool, True at padding
        scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
        hide = pad_mask[:, None, None, :]
${lines}        weights = scores.softmax(dim=-1)
        return weights @ v
`;
const FILL_LINE = 14;

async function codes(src: string): Promise<string[]> {
  const out: string[] = [];
  for (const code of ['ATT002', 'ATT006', 'ATT007']) for (const l of await findingLines(src, code)) out.push(`${code}@${l}`);
  return out;
}

describe('fill30: fills too small to mask, in blends, biases and class constants', () => {
  it('a blend with a tiny fill term is reported once, by ATT007, at the blend', async () => {
    const keep = '        keep = (~hide).to(scores.dtype)\n';
    assert.deepEqual(await codes(attention(`${keep}        scores = scores * keep + (1.0 - keep) * -1e-9\n`)), [`ATT007@${FILL_LINE + 1}`]);
    assert.deepEqual(await codes(attention(`${keep}        scores = scores * keep + (1.0 - keep) * 1e-9\n`)), [`ATT007@${FILL_LINE + 1}`]);
    // Fixed: a large negative fill term.
    assert.deepEqual(await codes(attention(`${keep}        scores = scores * keep + (1.0 - keep) * -1e9\n`)), []);
    // Not a blend: the scores multiplied by the 0/1 mask alone are still ATT006's.
    assert.deepEqual(await codes(attention(`${keep}        scores = scores * keep\n`)), [`ATT006@${FILL_LINE + 1}`]);
  });

  it('zeros filled with a tiny constant and bound to a bias name are reported; the fixed bias and an epsilon are not', async () => {
    const bias = (fill: string): string => `        bias = torch.zeros_like(scores).masked_fill(hide, ${fill})\n        scores += bias\n`;
    assert.deepEqual(await codes(attention(bias('1e-9'))), [`ATT007@${FILL_LINE}`]);
    assert.deepEqual(await codes(attention(bias('-1e-9'))), [`ATT007@${FILL_LINE}`]);
    assert.deepEqual(await codes(attention(bias('torch.finfo(scores.dtype).min'))), []);
    // An epsilon added where probabilities are zero, before a log: no mask, no bias.
    const eps = `        p = scores.softmax(dim=-1)\n        eps = torch.zeros_like(p).masked_fill(p == 0, 1e-9)\n        scores = torch.log(p + eps)\n`;
    assert.deepEqual(await codes(attention(eps)), []);
  });

  it('a where of zeros and a tiny constant bound to a bias name is reported; a named epsilon is not', async () => {
    const bias = (fill: string): string => `        bias = torch.where(hide, ${fill}, 0.0)\n        scores = scores + bias\n`;
    assert.deepEqual(await codes(attention(bias('-1e-9'))), [`ATT007@${FILL_LINE}`]);
    assert.deepEqual(await codes(attention(bias('1e-9'))), [`ATT007@${FILL_LINE}`]);
    assert.deepEqual(await codes(attention(bias('-1e9'))), []);
    const eps = `        p = scores.softmax(dim=-1)\n        eps = torch.where(p == 0, 1e-9, 0.0)\n        scores = torch.log(p + eps)\n`;
    assert.deepEqual(await codes(attention(eps)), []);
  });

  it('a tiny-scaled mask bound to a name is reported where it is built when the name is added to the scores', async () => {
    const bias = (fill: string, add = '        scores += bias\n'): string => `        bias = (1.0 - (~hide).to(scores.dtype)) * ${fill}\n${add}`;
    assert.deepEqual(await codes(attention(bias('1e-9'))), [`ATT007@${FILL_LINE}`]);
    assert.deepEqual(await codes(attention(bias('-1e-9', '        scores = scores + bias\n'))), [`ATT007@${FILL_LINE}`]);
    assert.deepEqual(await codes(attention(bias('-1e9'))), []);
    // Rebound before it is added: the product that reaches the scores is another one.
    assert.deepEqual(await codes(attention(bias('1e-9', '        bias = hide.to(scores.dtype) * -1e9\n        scores += bias\n'))), []);
  });

  it('a tiny negative class constant used as the fill is read as the number it is', async () => {
    assert.deepEqual(await codes(attention('        scores = scores.masked_fill(hide, self.MASK_VALUE)\n')), [`ATT007@${FILL_LINE}`]);
    // Annotated, it is a field that a constructor may set: not read.
    const field = attention('        scores = scores.masked_fill(hide, self.MASK_VALUE)\n').replace('    MASK_VALUE = -1e-9', '    MASK_VALUE: float = -1e-9');
    assert.deepEqual(await codes(field), []);
    // Fixed.
    assert.deepEqual(await codes(attention('        scores = scores.masked_fill(hide, self.MASK_VALUE)\n').replace('-1e-9', '-1e9')), []);
  });

  it('a module constant from another file filled into a bias is judged there too (cross-file pair)', async () => {
    const model = attention(
      '        bias = torch.zeros_like(scores).masked_fill(hide, MASK_VALUE)\n        scores += bias\n',
      'from consts import MASK_VALUE\n',
    );
    assert.deepEqual(await workspaceFindingLines({ 'model.py': model, 'consts.py': 'MASK_VALUE = -1e-9\n' }, 'model.py', 'ATT007'), [FILL_LINE + 1]);
    assert.deepEqual(await workspaceFindingLines({ 'model.py': model, 'consts.py': 'MASK_VALUE = -1e9\n' }, 'model.py', 'ATT007'), []);
  });
});
