// Session 45, eng-s45b: two ATT007 false findings of the precision rescan, recorded by eng-s45d in s45-classes.md.
//
// 1. "A length mask along the softmax axis of single-query scores" (speechbrain's content attention: keys [B, T, A]
//    times one query [B, A, 1], softmax(1) over the encoder positions, the mask `length_to_mask(lens).unsqueeze(2)`).
//    The length mask `arange(T).expand(B, T) < lens.unsqueeze(1)` (or `arange(T)[None, :] < lens[:, None]`) had no
//    rank when the lengths' own rank was not shown, and `unsqueeze(2)` of a mask of unknown rank was read as a leading
//    insert, so its padding stayed on the last axis: the query axis of these scores. A row of positions against the
//    lengths made a column is (B, T), one length per sequence: `unsqueeze(2)` now appends, the padding is on the axis
//    the softmax normalises (the keys), and a row is emptied only by an empty input. The same mask spread over the
//    query axis of (B, Tq, Tk) scores still empties padded rows and is still reported.
// 2. "Triton kernel casts taken as the half precision of the torch code beside them" (hip-attention: `q.to(tl.float16)`
//    inside a `@triton.jit` kernel, a torch reference function filling with -1e9 beside it). A dtype of Triton's kernel
//    language says how one kernel step computes, not what the file's torch code runs in; `torch.float16` still counts.
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

const contentAttention = (mask: string): string => `import torch
import torch.nn as nn


class LengthAttention(nn.Module):
    def __init__(self, enc_dim, dec_dim, attn_dim):
        super().__init__()
        self.key_proj = nn.Linear(enc_dim, attn_dim)
        self.query_proj = nn.Linear(dec_dim, attn_dim)
        self.value_proj = nn.Linear(enc_dim, attn_dim)
        self.scale = attn_dim ** 0.5

    def forward(self, enc_states, enc_lens, dec_state):
        keys = self.key_proj(enc_states)  # [B, T, A]
        values = self.value_proj(enc_states)  # [B, T, A]
        positions = torch.arange(enc_states.size(1), device=enc_states.device)
        keep = (${mask}).unsqueeze(2)  # [B, T, 1]
        query = self.query_proj(dec_state).unsqueeze(2)  # [B, A, 1]
        scores = torch.matmul(keys, query) / self.scale  # [B, T, 1]
        scores = scores.masked_fill(keep == 0, float("-inf"))
        weights = scores.softmax(1).transpose(1, 2)  # [B, 1, T]
        return torch.matmul(weights, values).squeeze(1)
`;

const selfAttention = (mask: string): string => `import math
import torch


def attend(x, lens, wq, wk, wv):
    positions = torch.arange(x.size(1), device=x.device)
    keep = (${mask}).unsqueeze(2)  # [B, T, 1]: padded queries
    q, k, v = x @ wq, x @ wk, x @ wv
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
    scores = scores.masked_fill(keep == 0, float("-inf"))
    return torch.softmax(scores, dim=-1) @ v
`;

describe('ATT007: false findings recorded by eng-s45d (session 45)', () => {
  it('is silent on a length mask along the softmax axis of single-query scores (keys @ query, softmax(1))', async () => {
    assert.deepEqual(await findingLines(contentAttention('positions[None, :] < enc_lens[:, None]'), 'ATT007'), []);
    assert.deepEqual(await findingLines(contentAttention('positions.expand(enc_lens.size(0), -1) < enc_lens.unsqueeze(1)'), 'ATT007'), []);
  });

  it('still reports the same length mask spread over the query axis of (B, Tq, Tk) scores', async () => {
    assert.deepEqual(await findingLines(selfAttention('positions[None, :] < lens[:, None]'), 'ATT007'), [10]);
    assert.deepEqual(await findingLines(selfAttention('positions[None, :] < lens.view(-1, 1)'), 'ATT007'), [10]);
  });

  it('cross-file: the length mask built by a helper in another module, spread by unsqueeze(2) in the attention', async () => {
    const files = {
      'pkg/__init__.py': '',
      'pkg/masks.py': `import torch


def length_to_mask(length, max_len):
    return torch.arange(max_len, device=length.device).expand(len(length), max_len) < length.unsqueeze(1)
`,
      'pkg/attn.py': contentAttention('positions[None, :] < enc_lens[:, None]')
        .replace('import torch.nn as nn\n', 'import torch.nn as nn\n\nfrom pkg.masks import length_to_mask\n')
        .replace('(positions[None, :] < enc_lens[:, None]).unsqueeze(2)', 'length_to_mask(enc_lens, enc_states.size(1)).unsqueeze(2)'),
    };
    assert.deepEqual(await workspaceFindingLines(files, 'pkg/attn.py', 'ATT007'), []);
  });

  it('is silent on -1e9 in torch code beside a Triton kernel casting to tl.float16; reports it with torch.float16', async () => {
    const src = (cast: string): string => `import torch
import triton
import triton.language as tl


@triton.jit
def _scores_kernel(q_ptr, k_ptr, out_ptr, BLOCK: tl.constexpr, D: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    dims = tl.arange(0, D)
    q = tl.load(q_ptr + offs[:, None] * D + dims[None, :])
    k = tl.load(k_ptr + offs[:, None] * D + dims[None, :])
    s = tl.dot(q.to(${cast}), tl.trans(k.to(${cast}))).to(tl.float32)
    tl.store(out_ptr + offs[:, None] * BLOCK + offs[None, :], s)


def reference_entropy(q, k):
    scores = torch.einsum("bhqd,bhkd->bhqk", q, k) / q.shape[-1] ** 0.5
    future = torch.triu(torch.ones(scores.shape[-2:], dtype=torch.bool, device=q.device), 1)
    scores = scores.masked_fill(future, -1e9)
    logp = torch.log_softmax(scores, dim=-1)
    return -(logp.exp() * logp).sum(-1)
`;
    assert.deepEqual(await findingLines(src('tl.float16'), 'ATT007'), []);
    assert.deepEqual(await findingLines(src('tl.bfloat16'), 'ATT007'), []);
    const halfRef = src('tl.float16').replace(
      'scores = torch.einsum("bhqd,bhkd->bhqk", q, k)',
      'scores = torch.einsum("bhqd,bhkd->bhqk", q.to(torch.float16), k.to(torch.float16))',
    );
    assert.deepEqual(await findingLines(halfRef, 'ATT007'), [19]);
  });
});
