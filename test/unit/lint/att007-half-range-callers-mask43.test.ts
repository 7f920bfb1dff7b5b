// Session 43, eng-cut-s43b: ATT007, class "a fill below float16's range that silently becomes -inf (an index
// assignment, `where`, an additive mask) into a mask parameter whose only callers in view pass a causal triangle"
// (recorded by eng-cut-s43c in /work/wt/s43-classes.md from a mini GPT trained under AMP).
//
// `s[mask == 0] = -BIG` with BIG = 1e10 under autocast is -inf in float16: harmless unless a row is all masked. The
// rule reported it whenever the mask was a parameter, in the context of the function alone, even when every caller in
// view passes `tril(ones)` (the diagonal is always kept, no row is emptied). Now such a fill is judged once every
// context of it is seen: not reported when every context that shows the mask shows one that cannot empty a row (and at
// least one does); reported when one shows a mask that can (query-axis padding), or when none shows it. masked_fill
// and full/full_like raise on the overflow whatever the mask, and stay reported.
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

const ATTEND = `import torch

BIG = torch.tensor(1e10)


def attend(q, k, v, mask):
    s = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5
    s[mask == 0] = -BIG.type(s.dtype)
    return s.softmax(-1) @ v
`;

const CAUSAL_CALLER = `

def run(q, k, v, B, H, T):
    causal = torch.tril(torch.ones(T, T)).repeat(B, H, 1, 1)
    with torch.autocast("cuda", dtype=torch.float16):
        return attend(q, k, v, causal)
`;

const PADDING_CALLER = `

def run_padded(q, k, v, ids):
    pad = ids != 0
    rows = pad[:, None, :, None] & pad[:, None, None, :]
    with torch.autocast("cuda", dtype=torch.float16):
        return attend(q, k, v, rows)
`;

describe('ATT007: a below-range fill judged with the masks its callers pass (session 43)', () => {
  it('is silent when the only caller passes a causal triangle', async () => {
    assert.deepEqual(await findingLines(ATTEND + CAUSAL_CALLER, 'ATT007'), []);
  });

  it('reports it when a caller passes a padding mask over the queries (rows emptied)', async () => {
    assert.deepEqual(await findingLines(ATTEND + PADDING_CALLER, 'ATT007'), [8]);
    assert.deepEqual(await findingLines(ATTEND + CAUSAL_CALLER + PADDING_CALLER, 'ATT007'), [8]);
  });

  it('still reports it when no caller shows the mask', async () => {
    const src = `${ATTEND}

def run(q, k, v, mask):
    with torch.autocast("cuda", dtype=torch.float16):
        return attend(q, k, v, mask)
`;
    assert.deepEqual(await findingLines(src, 'ATT007'), [8]);
  });

  it('still reports masked_fill with the over-range value, which raises in float16 whatever the mask', async () => {
    const src = `import torch


def attend(q, k, v, mask):
    s = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5
    s = s.masked_fill(mask == 0, -1e10)
    return s.softmax(-1) @ v


def run(q, k, v, T):
    causal = torch.tril(torch.ones(T, T))
    with torch.autocast("cuda", dtype=torch.float16):
        return attend(q, k, v, causal)
`;
    assert.deepEqual(await findingLines(src, 'ATT007'), [6]);
  });

  it('is silent across files: the model module fills, the training script passes the causal triangle under autocast', async () => {
    const files = {
      'gpt/model.py': ATTEND,
      'gpt/train.py': `import torch

from .model import attend


def step(q, k, v, B, H, T):
    causal = torch.tril(torch.ones(T, T)).repeat(B, H, 1, 1)
    with torch.autocast("cuda", dtype=torch.float16):
        return attend(q, k, v, causal)
`,
    };
    assert.deepEqual(await workspaceFindingLines(files, 'gpt/model.py', 'ATT007'), []);
  });
});
