// Session 43, eng-cut-s43b: ATT002, class "a library-named mask stored under a name of the code's own, then flipped
// at the use" (recorded by eng-cut-s43c in /work/wt/s43-classes.md from a cut of a mini Transformer).
//
// `keep = key_padding_mask.bool()[:, None, None, :]` then `masked_fill(~keep, -inf)`: the polarity of
// `key_padding_mask` is known only from its name (PyTorch: True at padding), and the code's own name `keep` says the
// opposite for the same value. The rule compared the stored name with the mask at the use without the flip between
// them (`~keep` was read as "named keep and is keep"), so the conflicting name counted as corroboration and the correct
// fill was reported. The stored name states what its own value means; a flip on the way to the use (`~`, `== 0`,
// `logical_not`, `1 - x`, `.eq(0)`) swaps it. Read that way the names conflict and the finding, resting on a name, is
// dropped; where they agree after the flip (`ignore = attention_mask == 0`, then `masked_fill(~ignore, -inf)`) the fill
// was reported until session 48, as `keep_in_window` filled where True was; since session 48 two names that agree are
// no more evidence than one (att002-names-only48.test.ts), and both are silent.
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

const KEEP_FLIPPED = `import torch


def attend(q, k, v, key_padding_mask=None):
    scores = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5
    if key_padding_mask is not None:
        keep = key_padding_mask.bool().unsqueeze(1).unsqueeze(1)
        scores = scores.masked_fill(~keep, float("-inf"))
    return torch.softmax(scores, dim=-1) @ v
`;

const KEEP_MASK_BRANCHES = `import torch
import torch.nn.functional as F


def encoder_attention(q, k, v, key_padding_mask):
    scores = torch.matmul(q, k.transpose(-2, -1)) / q.size(-1) ** 0.5
    # an integer 0/1 mask or a bool one, True/1 = a real token
    keep = key_padding_mask if key_padding_mask.dtype == torch.bool else key_padding_mask != 0
    scores = scores.masked_fill(~keep[:, None, None, :], float("-inf"))
    return F.softmax(scores, dim=-1) @ v
`;

const OTHER_FLIPS = `import torch


def by_logical_not(q, k, v, key_padding_mask):
    scores = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5
    valid = key_padding_mask.bool()[:, None, None, :]
    scores = scores.masked_fill(torch.logical_not(valid), float("-inf"))
    return torch.softmax(scores, dim=-1) @ v


def by_method(q, k, v, key_padding_mask):
    scores = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5
    keep = key_padding_mask.bool()[:, None, None, :]
    scores = scores.masked_fill(keep.logical_not(), float("-inf"))
    return torch.softmax(scores, dim=-1) @ v


def by_eq_method(q, k, v, key_padding_mask):
    scores = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5
    keep = key_padding_mask[:, None, None, :]
    scores = scores.masked_fill(keep.eq(0), float("-inf"))
    return torch.softmax(scores, dim=-1) @ v


def by_equals_zero(q, k, v, key_padding_mask):
    scores = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5
    keep = key_padding_mask[:, None, None, :]
    scores = scores.masked_fill(keep == 0, float("-inf"))
    return torch.softmax(scores, dim=-1) @ v
`;

describe('ATT002: a stored name read through the flip between it and the use (session 43)', () => {
  it('is silent on `keep = key_padding_mask...` filled where `~keep`', async () => {
    assert.deepEqual(await findingLines(KEEP_FLIPPED, 'ATT002'), []);
  });

  it('is silent on `keep = key_padding_mask != 0` (or the bool mask itself, by a conditional expression) filled where `~keep`', async () => {
    assert.deepEqual(await findingLines(KEEP_MASK_BRANCHES, 'ATT002'), []);
  });

  it('is silent on `logical_not(valid)`, `keep.logical_not()`, `keep.eq(0)` and `keep == 0` of a key_padding_mask stored as a keep mask', async () => {
    assert.deepEqual(await findingLines(OTHER_FLIPS, 'ATT002'), []);
  });

  it('is silent where both names agree through the flip (session 48: names only, no construction)', async () => {
    // The tokenizer's mask by its name, named `ignore` once flipped, flipped back and filled. Until session 48 the second
    // name corroborated the first and the fill was reported; two names show no construction of the parameter
    // (att002-names-only48.test.ts), so it is silent, like its correct form.
    const src = `import torch


def attend(q, k, v, attention_mask=None):
    scores = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5
    ignore = (attention_mask == 0)[:, None, None, :]
    scores = scores.masked_fill(~ignore, float("-inf"))
    return torch.softmax(scores, dim=-1) @ v
`;
    assert.deepEqual(await findingLines(src, 'ATT002'), []);
    // ...and its correct form, filled where `ignore`, is silent.
    assert.deepEqual(await findingLines(src.replace('masked_fill(~ignore,', 'masked_fill(ignore,'), 'ATT002'), []);
  });

  it('is silent on a second name that agrees with the library name without a flip (`keep_in_window`; session 48)', async () => {
    const src = `import torch


def attend(q, k, v, attention_mask=None):
    scores = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5
    keep_in_window = attention_mask != 0
    scores = scores.masked_fill(keep_in_window[:, None, None, :], -1e9)
    return torch.softmax(scores, dim=-1) @ v
`;
    assert.deepEqual(await findingLines(src, 'ATT002'), []);
  });

  it('is silent across files: the module fills `~keep`, the script passes the tokenizer mask', async () => {
    const files = {
      'mt/attention.py': KEEP_FLIPPED,
      'mt/train.py': `import torch

from .attention import attend


def step(q, k, v, batch):
    return attend(q, k, v, key_padding_mask=batch["attention_mask"])
`,
    };
    assert.deepEqual(await workspaceFindingLines(files, 'mt/attention.py', 'ATT002'), []);
  });

  it('reports across files the module that fills the kept positions of the mask the script builds from ids', async () => {
    const files = {
      'mt/attention.py': `import torch


def attend(q, k, v, pad):
    scores = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5
    ignore = pad[:, None, None, :]
    scores = scores.masked_fill(~ignore, float("-inf"))
    return torch.softmax(scores, dim=-1) @ v
`,
      'mt/train.py': `from .attention import attend


def step(q, k, v, ids, pad_id):
    return attend(q, k, v, ids == pad_id)
`,
    };
    assert.deepEqual(await workspaceFindingLines(files, 'mt/attention.py', 'ATT002'), [7]);
  });
});
