// Class from the session-30 scan (precscan10d, decision-transformer data loaders): a padding mask written by hand as
// ones and zeros joined along the sequence, one block as long as the example (`tlen`) and the other as long as the
// maximum less that length (`K - tlen`): `np.concatenate([np.zeros((1, K - tlen)), np.ones((1, tlen))], axis=1)`,
// appended per trajectory and joined (`mask = np.concatenate(mask, axis=0)`, the name rebound to the join), or
// `torch.cat([torch.ones(n), torch.zeros(max_len - n)])`. The block of the example's length marks the real positions,
// as ones zero-padded by F.pad do: ones there make a keep mask, ones over `K - tlen` an ignore mask. Read from the sizes
// written; ones and zeros of other sizes say nothing. Written fresh, with a cross-file pair (the loader in another
// file, the model adding the mask), the correct forms silent and the inverted ones reported.
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

const attend = (maskExpr: string, addTerm: string): string => `import numpy as np
import torch


def attend(q, k, v, K, tlen):
    mask = ${maskExpr}
    scores = q @ k.transpose(-2, -1) * q.size(-1) ** -0.5
    scores = scores + ${addTerm}
    return scores.softmax(dim=-1) @ v
`;

describe('ATT002: a padding mask of ones over the length joined with zeros up to the maximum', () => {
  it('left-padded keep mask (zeros of K - tlen, then ones of tlen) multiplied by -1e4 is reported; (1 - mask) is silent', async () => {
    const m = 'torch.from_numpy(np.concatenate([np.zeros(K - tlen), np.ones(tlen)]))';
    assert.deepEqual(await findingLines(attend(m, 'mask * -10000.0'), 'ATT002'), [8]);
    assert.deepEqual(await findingLines(attend(m, '(1.0 - mask) * -10000.0'), 'ATT002'), []);
  });
  it('right-padded keep mask in torch (ones of n, zeros of max - n) filled where it is 1 is reported; where 0, silent', async () => {
    const m = 'torch.cat([torch.ones(tlen), torch.zeros(K - tlen)]).bool()';
    const src = (cond: string): string => `import torch


def attend(q, k, v, K, tlen):
    mask = ${m}
    scores = q @ k.transpose(-2, -1) * q.size(-1) ** -0.5
    scores = scores.masked_fill(${cond}, float("-inf"))
    return scores.softmax(dim=-1) @ v
`;
    assert.deepEqual(await findingLines(src('mask'), 'ATT002'), [7]);
    assert.deepEqual(await findingLines(src('~mask'), 'ATT002'), []);
  });
  it('ones over the padding (ones of K - tlen) are an ignore mask: mask * -1e4 is silent, (1 - mask) * -1e4 reported', async () => {
    const m = 'torch.from_numpy(np.concatenate([np.ones(K - tlen), np.zeros(tlen)]))';
    assert.deepEqual(await findingLines(attend(m, 'mask * -10000.0'), 'ATT002'), []);
    assert.deepEqual(await findingLines(attend(m, '(1.0 - mask) * -10000.0'), 'ATT002'), [8]);
  });
  it('ones and zeros of sizes that are not a length and the maximum less it say nothing', async () => {
    for (const m of ['torch.from_numpy(np.concatenate([np.zeros(K), np.ones(tlen)]))', 'torch.from_numpy(np.concatenate([np.zeros(K - 1), np.ones(tlen)]))'])
      assert.deepEqual(await findingLines(attend(m, 'mask * -10000.0'), 'ATT002'), [], m);
  });
  it('a loader in another file appending per-trajectory masks and rebinding the name to the join (cross-file)', async () => {
    const data = `import numpy as np
import torch


def get_batch(trajs, K, state_dim):
    s, mask = [], []
    for tr in trajs:
        seg = tr["observations"][-K:]
        tlen = seg.shape[0]
        s.append(np.concatenate([np.zeros((1, K - tlen, state_dim)), seg[None]], axis=1))
        mask.append(np.concatenate([np.zeros((1, K - tlen)), np.ones((1, tlen))], axis=1))
    s = torch.from_numpy(np.concatenate(s, axis=0)).float()
    mask = torch.from_numpy(np.concatenate(mask, axis=0))
    return s, mask
`;
    const model = (ext: string): string => `import torch
import torch.nn as nn

from data import get_batch


class DecisionTransformer(nn.Module):
    def __init__(self, h):
        super().__init__()
        self.h = h
        self.embed = nn.Linear(11, h)

    def attend(self, q, k, v, stacked_mask):
        scores = q @ k.transpose(-2, -1) * q.size(-1) ** -0.5
        ext = ${ext}
        return (scores + ext).softmax(dim=-1) @ v

    def forward(self, trajs, q, k, v):
        states, attention_mask = get_batch(trajs, 20, 11)
        B, T, _ = states.shape
        stacked = torch.stack((attention_mask, attention_mask, attention_mask), dim=1).permute(0, 2, 1).reshape(B, 3 * T)
        return self.attend(q, k, v, stacked)
`;
    const files = (ext: string) => ({ 'data.py': data, 'model.py': model(ext) });
    assert.deepEqual(await workspaceFindingLines(files('stacked_mask[:, None, None, :].float() * -10000.0'), 'model.py', 'ATT002'), [15]);
    assert.deepEqual(await workspaceFindingLines(files('(1.0 - stacked_mask[:, None, None, :].float()) * -10000.0'), 'model.py', 'ATT002'), []);
  });
});
