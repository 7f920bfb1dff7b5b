// Session 49 (eng-s49d2): ATT006 and scores multiplied by a 0/1 mask, then filled with -inf where the mask is False
// by an index assignment that takes every leading axis whole.
//
// Class: `scores = scores * causal_mask` followed by `scores[:, :, ~causal_mask] = float("-inf")` (LongNet-style
// dilated segment attention). The product alone would leave masked scores at 0 (exp(0) = 1: the masked keys keep
// weight), but the assignment writes -inf at every position the mask excludes, for each batch and segment, before the
// softmax: the scores are masked, and the product is only redundant. Found on first contact with fresh public code
// (2026-12-08-fresh-ledger-s49-d2.md, row 20); the example is written for the class, not taken from that file.
//
// Decided by operations: an index assignment into the scores whose subscripts are all whole (`:`, `...`) but the
// last, a boolean or mask value, with a masking fill (-inf, a large negative number). A fill that does not mask
// (`= 0.0`), a leading index that selects part of an axis (`[:1, ~m]`) or the mask before the whole axes leave the
// product reported as the only mask, as before.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { findingLines, workspaceFindingLines } from './helpers';

const FIXTURE = readFileSync(join(__dirname, 'fixtures', 'ATT006', 'multiplied_then_filled_by_index_ok.py'), 'utf8');
const FILL = 'scores[:, :, ~causal_mask] = float("-inf")';
const withFill = (fill: string): string => {
  assert.ok(FIXTURE.includes(FILL), 'the fixture no longer fills by index');
  return FIXTURE.replace(FILL, fill);
};
const PRODUCT_LINE = FIXTURE.split('\n').findIndex((l) => l.includes('scores = scores * causal_mask')) + 1;

describe('ATT006 scores multiplied by a 0/1 mask, then filled with -inf by index (session 49)', () => {
  it('is silent when the index assignment fills the masked positions with -inf before the softmax', async () => {
    assert.ok(PRODUCT_LINE > 0);
    assert.deepEqual(await findingLines(FIXTURE, 'ATT006'), []);
    // The same with an ellipsis, with a large negative number, and with the leading axes written as `:` twice.
    assert.deepEqual(await findingLines(withFill('scores[..., ~causal_mask] = float("-inf")'), 'ATT006'), []);
    assert.deepEqual(await findingLines(withFill('scores[:, :, ~causal_mask] = -1e9'), 'ATT006'), []);
  });

  it('reports the product when the assignment does not mask or does not take the leading axes whole', async () => {
    // The fill is 0: the masked scores stay at exp(0) = 1.
    assert.deepEqual(await findingLines(withFill('scores[:, :, ~causal_mask] = 0.0'), 'ATT006'), [PRODUCT_LINE]);
    // Only the first batch element is filled.
    assert.deepEqual(await findingLines(withFill('scores[:1, :, ~causal_mask] = float("-inf")'), 'ATT006'), [PRODUCT_LINE]);
    // No fill at all (the fixture multiplied_only_not_filled.py).
    assert.deepEqual(await findingLines(withFill('pass'), 'ATT006'), [PRODUCT_LINE]);
  });

  it('across files: the helper in one file, the boolean causal mask passed by a module of another', async () => {
    const helper = FIXTURE.slice(0, FIXTURE.indexOf('\n\nclass DilatedSegmentAttention'));
    const module = [
      'import torch',
      '',
      'from segments import segment_attention',
      '',
      '',
      'class DilatedSegmentAttention(torch.nn.Module):',
      '    def __init__(self, dim, length):',
      '        super().__init__()',
      '        self.w_q = torch.nn.Parameter(torch.randn(dim, dim) / dim**0.5)',
      '        self.w_k = torch.nn.Parameter(torch.randn(dim, dim) / dim**0.5)',
      '        self.w_v = torch.nn.Parameter(torch.randn(dim, dim) / dim**0.5)',
      '        self.register_buffer("causal", torch.tril(torch.ones(length, length, dtype=torch.bool)))',
      '',
      '    def forward(self, x):',
      '        return segment_attention(x, self.w_q, self.w_k, self.w_v, self.causal)',
      '',
    ].join('\n');
    assert.deepEqual(await workspaceFindingLines({ 'segments.py': helper + '\n', 'model.py': module }, 'segments.py', 'ATT006'), []);
    const bare = (helper + '\n').replace(`        ${FILL}\n`, '');
    assert.notEqual(bare, helper + '\n');
    assert.deepEqual(await workspaceFindingLines({ 'segments.py': bare, 'model.py': module }, 'segments.py', 'ATT006'), [PRODUCT_LINE]);
  });
});
