// Session 49, eng-s49b: class "a position index viewed as a row or a column keeps its positions" (ATT002 recall, a
// shape step in analysis/shape-ops.ts).
//
// `arange(W)[None, :] < lengths[:, None]` was read as a padding mask built from lengths (True before each length),
// while the same comparison written with views, `arange(W).view(1, W) < lengths.view(-1, 1)`, was not: the reshape
// dropped the position index. fairseq's `lengths_to_padding_mask` writes it so (`arange(W).type_as(lens).view(1, W)
// .expand(B, -1) >= lens.view(B, 1).expand(-1, W)`), as do speech encoders built on it. A view of a 1-D index whose sizes
// are all a literal 1 but one places the positions on that one axis, as indexing with None does; any other view
// (two sizes that are not 1, a splat) still drops it. Found by a buggy twin of a session-49 probe
// (test/lint-probes/session-49/b/f10_lengths_utils with the comparison reversed).
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

const UTILS = (cmp: string) => `import torch


def lengths_to_padding_mask(lens):
    bsz, max_lens = lens.size(0), int(torch.max(lens).item())
    mask = torch.arange(max_lens, device=lens.device).type_as(lens).view(1, max_lens)
    mask = mask.expand(bsz, -1) ${cmp} lens.view(bsz, 1).expand(-1, max_lens)
    return mask
`;

const LAYER = `from torch import nn

from utils import lengths_to_padding_mask


class ConformerLayer(nn.Module):
    def __init__(self, d=144, h=4):
        super().__init__()
        self.self_attn = nn.MultiheadAttention(d, h)

    def forward(self, x, lengths):
        encoder_padding_mask = lengths_to_padding_mask(lengths)
        y, _ = self.self_attn(x, x, x, key_padding_mask=encoder_padding_mask, need_weights=False)
        return x + y
`;

const ONE_FILE = (row: string, column: string, use: string) => `import torch
import torch.nn.functional as F


def attend(q, k, v, lengths):
    W = k.size(-2)
    valid = torch.arange(W, device=k.device)${row} < lengths${column}
    return F.scaled_dot_product_attention(q, k, v, attn_mask=${use})
`;

describe('eng-s49b ATT002: a position index viewed as a row or a column keeps its positions', () => {
  it('natural: fairseq-style padding mask (>=, True at padding) as key_padding_mask: silent; the reversed comparison: reported', async () => {
    const right = UTILS('>=') + LAYER.replace(/^from utils import .*$/m, '');
    assert.deepEqual(await findingLines(right, 'ATT002'), []);
    const wrong = UTILS('<') + LAYER.replace(/^from utils import .*$/m, '');
    assert.deepEqual(await findingLines(wrong, 'ATT002'), [21]);
  });
  it('the view forms read as the indexing forms: row and column by view or reshape, all-ones sizes, -1', async () => {
    for (const [row, column] of [
      ['.view(1, W)', '.view(-1, 1)'],
      ['.reshape(1, -1)', '[:, None]'],
      ['[None, :]', '.reshape(-1, 1)'],
    ]) {
      assert.deepEqual(await findingLines(ONE_FILE(row, column, 'valid[:, None, None, :]'), 'ATT002'), [], `${row} ${column}`);
      assert.deepEqual(await findingLines(ONE_FILE(row, column, '~valid[:, None, None, :]'), 'ATT002'), [8], `${row} ${column}`);
    }
  });
  it('a view with two sizes that are not 1 places no positions: silent either way', async () => {
    const src = ONE_FILE('.view(2, W // 2).reshape(1, W)', '.view(-1, 1)', '~valid[:, None, None, :]');
    assert.deepEqual(await findingLines(src, 'ATT002'), []);
  });
  it('cross-file: the helper in utils.py, the attention in another file: reported there only when reversed', async () => {
    assert.deepEqual(await workspaceFindingLines({ 'utils.py': UTILS('>='), 'conformer.py': LAYER }, 'conformer.py', 'ATT002'), []);
    assert.deepEqual(await workspaceFindingLines({ 'utils.py': UTILS('<'), 'conformer.py': LAYER }, 'conformer.py', 'ATT002'), [13]);
  });
});
