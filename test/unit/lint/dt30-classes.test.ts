// Classes from the session-30 scan (precscan10d, decision transformers written by hand), written fresh.
// 1. ATT004: a single-head configuration. The model splits heads with `view(B, T, 3, self.n_heads, -1)` and scales by
//    sqrt(C // self.n_heads); a caller builds it with one head (`CausalSelfAttention(11, 20, 1)`, the decision
//    transformer's usual setting), so the head axis has length 1 and lost its head label: its size name inside the
//    scale was read as a sequence length. An axis of length 1 is no input length. A scale by the real sequence
//    length stays reported.
// 2. ATT007: left padding shown by the loader joining the padding in front of each trajectory
//    (`np.concatenate([np.zeros((1, K - tlen, d)), seg[None]], axis=1)`): with a causal mask combined with the timestep
//    mask and a -inf fill, the first query rows of a short trajectory see only padding keys (NaN rows). Right padding
//    (the padding joined after the data) and a finite fill stay silent.
import { strict as assert } from 'node:assert';
import { workspaceFindingLines } from './helpers';

const model = (scale: string, fill = 'float("-inf")'): string => `import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class CausalSelfAttention(nn.Module):
    def __init__(self, h_dim, max_T, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.qkv = nn.Linear(h_dim, 3 * h_dim)
        self.register_buffer("causal", torch.tril(torch.ones(max_T, max_T)).view(1, 1, max_T, max_T))

    def forward(self, x, timestep_mask):
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.n_heads, -1).permute(2, 0, 3, 1, 4)
        w = q @ k.transpose(-2, -1) / ${scale}
        keep = (self.causal[:, :, :T, :T] == 1) & (timestep_mask[:, None, None, :] == 1)
        w = w.masked_fill(~keep, ${fill})
        w = F.softmax(w, dim=-1)
        return (w @ v).transpose(1, 2).reshape(B, T, C)
`;

const trainer = (heads: number, left: boolean): string => `import numpy as np
import torch

from model import CausalSelfAttention


def get_batch(trajs, K, state_dim):
    s, mask = [], []
    for tr in trajs:
        seg = tr["observations"][-K:]
        tlen = seg.shape[0]
        ${left ? 's.append(np.concatenate([np.zeros((1, K - tlen, state_dim)), seg[None]], axis=1))' : 's.append(np.concatenate([seg[None], np.zeros((1, K - tlen, state_dim))], axis=1))'}
        ${left ? 'mask.append(np.concatenate([np.zeros((1, K - tlen)), np.ones((1, tlen))], axis=1))' : 'mask.append(np.concatenate([np.ones((1, tlen)), np.zeros((1, K - tlen))], axis=1))'}
    return torch.from_numpy(np.concatenate(s, axis=0)).float(), torch.from_numpy(np.concatenate(mask, axis=0))


def train(trajs):
    attn = CausalSelfAttention(11, 20, ${heads})
    s, m = get_batch(trajs, 20, 11)
    return attn(s, m)
`;

const lint = (scale: string, heads: number, left: boolean, code: string, fill?: string) =>
  workspaceFindingLines({ 'model.py': model(scale, fill), 'train.py': trainer(heads, left) }, 'model.py', code);

describe('decision transformers written by hand (session 30)', () => {
  it('ATT004: sqrt(C // self.n_heads) with one head passed by the caller is silent', async () => {
    assert.deepEqual(await lint('math.sqrt(C // self.n_heads)', 1, false, 'ATT004'), []);
    assert.deepEqual(await lint('math.sqrt(C // self.n_heads)', 4, false, 'ATT004'), []);
  });
  it('ATT004: a scale by the sequence length is still reported with one head', async () => {
    assert.deepEqual(await lint('math.sqrt(T)', 1, false, 'ATT004'), [17]);
  });
  it('ATT007: left padding joined in front by the loader makes the -inf fill of causal & timestep mask reported', async () => {
    assert.deepEqual(await lint('math.sqrt(C // self.n_heads)', 1, true, 'ATT007'), [19]);
  });
  it('ATT007: right padding, or a finite fill with left padding, is silent', async () => {
    assert.deepEqual(await lint('math.sqrt(C // self.n_heads)', 1, false, 'ATT007'), []);
    assert.deepEqual(await lint('math.sqrt(C // self.n_heads)', 1, true, 'ATT007', 'torch.finfo(w.dtype).min'), []);
  });
});
