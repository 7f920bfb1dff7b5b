// Class from the session-27 leftovers: a 0/1 mask the code makes float (`keep.float()`, `.to(torch.float32)`) passed to
// an API that adds a float mask to the scores (`F.scaled_dot_product_attention`'s and `nn.MultiheadAttention`'s
// `attn_mask`, `key_padding_mask`): it adds 1 or 0 to each logit, so it masks nothing, whatever its polarity. The
// finding names that reading (not an inverted polarity). Decided from the mask's construction and dtype in the code,
// never from a name. Written fresh, with the fixed forms (boolean, additive) and a cross-file pair.
import { strict as assert } from 'node:assert';
import { applyFixes, findingLines, linter, workspaceFindingLines } from './helpers';

const BUGGY = `import torch
import torch.nn as nn
import torch.nn.functional as F


class Encoder(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.attn = nn.MultiheadAttention(d, h, batch_first=True)

    def forward(self, x, lengths):
        keep = (torch.arange(x.size(1))[None, :] < lengths[:, None]).float()
        out, _ = self.attn(x, x, x, key_padding_mask=keep)
        return out


def sdpa(q, k, v, lengths):
    keep = (torch.arange(k.size(-2))[None, :] < lengths[:, None]).to(torch.float32)
    return F.scaled_dot_product_attention(q, k, v, attn_mask=keep[:, None, None, :])
`;

const FIXED = `import torch
import torch.nn as nn
import torch.nn.functional as F


class Encoder(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.attn = nn.MultiheadAttention(d, h, batch_first=True)

    def forward(self, x, lengths):
        pad = torch.arange(x.size(1))[None, :] >= lengths[:, None]
        out, _ = self.attn(x, x, x, key_padding_mask=pad)
        return out


def sdpa(q, k, v, lengths):
    keep = (torch.arange(k.size(-2))[None, :] < lengths[:, None]).to(torch.float32)
    bias = (1.0 - keep) * -1e9
    return F.scaled_dot_product_attention(q, k, v, attn_mask=bias[:, None, None, :])


def by_name(q, k, v, attn_mask):
    return F.scaled_dot_product_attention(q, k, v, attn_mask=attn_mask.float())
`;

const MASKS = `import torch


def keep_mask(lengths, n):
    return (torch.arange(n)[None, :] < lengths[:, None]).float()
`;

const LAYER = (conv: string): string => `import torch.nn.functional as F

from masks import keep_mask


def attend(q, k, v, lengths):
    m = keep_mask(lengths, k.size(-2))${conv}
    return F.scaled_dot_product_attention(q, k, v, attn_mask=m[:, None, None, :])
`;

describe('ATT002: a float 0/1 mask given where a float mask is added', () => {
  it('reports the float keep mask to nn.MultiheadAttention and to SDPA, naming the additive reading', async () => {
    const findings = (await linter()).lintPython(BUGGY).filter((f) => f.code === 'ATT002');
    assert.deepEqual(
      findings.map((f) => f.line),
      [13, 19],
    );
    for (const f of findings) assert.match(f.message, /adds a float .* to the scores/);
  });
  it('the fixes (the boolean mask the API reads as meant) remove the findings', async () => {
    const l = await linter();
    const fixed = applyFixes(BUGGY, l.lintPython(BUGGY));
    assert.deepEqual(
      l.lintPython(fixed).filter((f) => f.code === 'ATT002'),
      [],
    );
    assert.match(fixed, /key_padding_mask=\(keep == 0\)/);
    assert.match(fixed, /attn_mask=keep\[:, None, None, :\]\.bool\(\)/);
  });
  it('stays silent on a boolean mask, an additive one, and a float mask known only by its name', async () => {
    assert.deepEqual(await findingLines(FIXED, 'ATT002'), []);
  });
  it('reports a float mask built in another file, and not its boolean form', async () => {
    assert.deepEqual(await workspaceFindingLines({ 'masks.py': MASKS, 'layer.py': LAYER('') }, 'layer.py', 'ATT002'), [8]);
    assert.deepEqual(await workspaceFindingLines({ 'masks.py': MASKS, 'layer.py': LAYER('.bool()') }, 'layer.py', 'ATT002'), []);
  });
});
