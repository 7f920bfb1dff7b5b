// Classes of correct code read wrongly by the scale and mask rules, found by the false-positive scan of session 27
// (test/lint-scan/results/2026-12-04-scan-precscan6b.md). Small examples written fresh, each with its buggy form,
// which must still be reported.
//  1. ATT004: a learned weight initialised with a fan-in scale (`nn.Parameter(torch.randn(r, d) / math.sqrt(d))`)
//     and multiplied into the data (`x @ self.V.t()`, a low-rank or hand-written projection). The init sets the
//     variance the weight starts from; it is no factor on q or k, so the scores' own 1/sqrt(d_head) is the only one.
//  2. ATT002: a triangle whose diagonal is minus a window (`tril(ones, diagonal=-self.sliding_window)`) marks the keys
//     that fell out of the window, not the causal keep side: its meaning is not known from the triangle alone.
import { strict as assert } from 'node:assert';
import { createLinter, type ExtendedLinter } from '../../../src/lint';
import { findingLines, grammar, memoryWorkspace } from './helpers';

const codes = findingLines;

const LOW_RANK = `import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class LowRankLinear(nn.Module):
    def __init__(self, in_features, out_features, rank):
        super().__init__()
        self.U = nn.Parameter(torch.randn(out_features, rank) / math.sqrt(rank))
        self.V = nn.Parameter(torch.randn(rank, in_features) / math.sqrt(in_features))

    def forward(self, x):
        return x @ self.V.t() @ self.U.t()


class Block(nn.Module):
    def __init__(self, d_model=256, n_heads=4):
        super().__init__()
        self.n_heads = n_heads
        self.d_head = d_model // n_heads
        self.q_proj = LowRankLinear(d_model, d_model, 32)
        self.k_proj = LowRankLinear(d_model, d_model, 32)
        self.v_proj = LowRankLinear(d_model, d_model, 32)

    def forward(self, x):
        B, T, C = x.shape
        q = self.q_proj(x).view(B, T, self.n_heads, self.d_head).transpose(1, 2)
        k = self.k_proj(x).view(B, T, self.n_heads, self.d_head).transpose(1, 2)
        v = self.v_proj(x).view(B, T, self.n_heads, self.d_head).transpose(1, 2)
        att = (q @ k.transpose(-2, -1)) / math.sqrt(self.d_head)
        att = F.softmax(att, dim=-1)
        return (att @ v).transpose(1, 2).reshape(B, T, C)
`;

const RAW_WEIGHTS = `import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class RawAttention(nn.Module):
    def __init__(self, d_model=256, n_heads=4):
        super().__init__()
        self.n_heads = n_heads
        self.d_head = d_model // n_heads
        self.wq = nn.Parameter(torch.randn(d_model, d_model) / math.sqrt(d_model))
        self.wk = nn.Parameter(torch.randn(d_model, d_model) / math.sqrt(d_model))

    def forward(self, x, v):
        B, T, C = x.shape
        q = (x @ self.wq).view(B, T, self.n_heads, self.d_head).transpose(1, 2)
        k = (x @ self.wk).view(B, T, self.n_heads, self.d_head).transpose(1, 2)
        att = (q @ k.transpose(-2, -1)) / math.sqrt(self.d_head)
        return F.softmax(att, dim=-1) @ v
`;

describe('lint: a fan-in initialised weight multiplied into the data is no scaling of q or k (ATT004)', () => {
  it('a low-rank projection whose factors are initialised with 1/sqrt(in_features), scores / sqrt(d_head): silent', async () => {
    assert.deepEqual(await codes(LOW_RANK, 'ATT004'), []);
  });
  it('buggy: the same block with q also divided by sqrt(d_head) before the product is reported once', async () => {
    const src = LOW_RANK.replace(
      'q = self.q_proj(x).view(B, T, self.n_heads, self.d_head).transpose(1, 2)',
      'q = self.q_proj(x).view(B, T, self.n_heads, self.d_head).transpose(1, 2) / math.sqrt(self.d_head)',
    );
    assert.deepEqual(await codes(src, 'ATT004'), [31]);
  });
  it('hand-written projections `x @ self.wq` with a fan-in init: silent', async () => {
    assert.deepEqual(await codes(RAW_WEIGHTS, 'ATT004'), []);
  });
  it('buggy: the weight scaled by 1/sqrt(d_head) where it is used (`x @ (self.wq / sqrt(d_head))`) still counts', async () => {
    const src = RAW_WEIGHTS.replace('(x @ self.wq)', '(x @ (self.wq / math.sqrt(self.d_head)))');
    assert.deepEqual(await codes(src, 'ATT004'), [19]);
  });
  it('a learned temperature initialised at 1/sqrt(d) and multiplied into the scores is still a scale (ATT003 silent)', async () => {
    const src = `import math
import torch
import torch.nn as nn


class TempAttention(nn.Module):
    def __init__(self, d_head=64):
        super().__init__()
        self.scale = nn.Parameter(torch.ones(1) * d_head ** -0.5)

    def forward(self, q, k, v):
        att = (q @ k.transpose(-2, -1)) * self.scale
        return torch.softmax(att, dim=-1) @ v
`;
    assert.deepEqual(await codes(src, 'ATT003'), []);
  });
});

const LOWRANK_LAYER = LOW_RANK.slice(0, LOW_RANK.indexOf('\n\nclass Block'));
const MODEL = `import math
import torch.nn as nn
import torch.nn.functional as F
from layers.lowrank import LowRankLinear

${LOW_RANK.slice(LOW_RANK.indexOf('class Block'))}`;

async function workspaceLinter(files: Record<string, string>): Promise<ExtendedLinter> {
  return createLinter(grammar(), { workspace: memoryWorkspace(files), onInternalError: (e) => assert.fail(String(e)) });
}

describe('lint: the fan-in initialised projection defined in another file (ATT004, cross-file)', () => {
  it('layers/lowrank.py defines the projection, models/block.py scales the scores once: silent', async () => {
    const l = await workspaceLinter({ 'layers/lowrank.py': LOWRANK_LAYER, 'models/block.py': MODEL });
    assert.deepEqual(
      l.lintPython(MODEL, { path: 'models/block.py' }).filter((f) => f.code === 'ATT004'),
      [],
    );
  });
  it('buggy: models/block.py also divides q by sqrt(d_head): reported', async () => {
    const src = MODEL.replace(
      'q = self.q_proj(x).view(B, T, self.n_heads, self.d_head).transpose(1, 2)',
      'q = self.q_proj(x).view(B, T, self.n_heads, self.d_head).transpose(1, 2) / math.sqrt(self.d_head)',
    );
    const l = await workspaceLinter({ 'layers/lowrank.py': LOWRANK_LAYER, 'models/block.py': src });
    assert.equal(l.lintPython(src, { path: 'models/block.py' }).filter((f) => f.code === 'ATT004').length, 1);
  });
});

const WINDOW = `import torch


def window_bias(attention_mask, hidden_states, sliding_window):
    min_dtype = torch.finfo(hidden_states.dtype).min
    too_far = torch.tril(torch.ones_like(attention_mask, dtype=torch.bool), diagonal=-sliding_window)
    return torch.where(too_far, min_dtype, attention_mask)


def attend(q, k, v, attention_mask, sliding_window):
    scores = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5
    scores = scores + window_bias(attention_mask, q, sliding_window)
    return torch.softmax(scores, dim=-1) @ v
`;

describe('lint: a triangle at minus a window from the diagonal is not the causal keep side (ATT002)', () => {
  it('tril(ones, diagonal=-sliding_window) used as the positions to fill with the minimum: silent', async () => {
    assert.deepEqual(await codes(WINDOW, 'ATT002'), []);
  });
  it('the offset written -(w - 1) or -self.window + 1 is read the same way: silent', async () => {
    assert.deepEqual(await codes(WINDOW.replace('diagonal=-sliding_window', 'diagonal=-(sliding_window - 1)'), 'ATT002'), []);
    assert.deepEqual(await codes(WINDOW.replace('diagonal=-sliding_window', 'diagonal=-sliding_window + 1'), 'ATT002'), []);
  });
  it('buggy: the causal triangle (diagonal 0, True on and before it) filled with the minimum is reported', async () => {
    assert.deepEqual(await codes(WINDOW.replace('diagonal=-sliding_window', 'diagonal=0'), 'ATT002'), [7]);
  });
  it('buggy: a window triangle on the positive side (tril(ones, diagonal=sliding_window), keys up to w ahead) is still a keep side: reported', async () => {
    assert.deepEqual(await codes(WINDOW.replace('diagonal=-sliding_window', 'diagonal=sliding_window'), 'ATT002'), [7]);
  });
});

describe('lint: a parameter re-created elsewhere in its class is still a fan-in initialised weight (ATT004)', () => {
  it('self.V re-assigned as nn.Parameter(resized) in a resize method: the product is still silent', async () => {
    const src = LOW_RANK.replace(
      `    def forward(self, x):
        return x @ self.V.t() @ self.U.t()`,
      `    def forward(self, x):
        return x @ self.V.t() @ self.U.t()

    @torch.no_grad()
    def resize(self, rank):
        w = self.U @ self.V
        u, s, vh = torch.linalg.svd(w, full_matrices=False)
        self.U = nn.Parameter(u[:, :rank] * s[:rank].sqrt())
        self.V = nn.Parameter(s[:rank].sqrt().unsqueeze(1) * vh[:rank])`,
    );
    assert.deepEqual(await codes(src, 'ATT004'), []);
  });
});

describe('lint: an additive causal mask written ones(L, S) * finfo(dtype).min, then triu(1) (ATT006)', () => {
  const EXACT = `import torch


def exact_attention(query, key, value, softmax_scale, causal=False):
    qk = query @ key.transpose(-1, -2) * softmax_scale
    if causal:
        qk += (
            (torch.ones(query.shape[2], key.shape[2], device=query.device) * torch.finfo(query.dtype).min)
            .triu(1)
            .reshape(1, 1, query.shape[2], key.shape[2])
        )
    return qk.softmax(dim=-1) @ value
`;
  it('the ones times the dtype minimum are a large negative fill: an additive mask, silent', async () => {
    assert.deepEqual(await codes(EXACT, 'ATT006'), []);
  });
  it('buggy: the 0/1 triangle added without the minimum is reported', async () => {
    assert.deepEqual(await codes(EXACT.replace(' * torch.finfo(query.dtype).min', ''), 'ATT006'), [7]);
  });
});

describe('lint: fills that never reach a softmax (ATT007)', () => {
  const HEAT = `import math
import torch
import torch.nn.functional as F


def mean_energy(q, k, seq_len):
    energy = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(q.shape[-1])
    causal = torch.triu(torch.ones(seq_len, seq_len, dtype=torch.bool), diagonal=1)
    energy = energy.masked_fill(causal, float("-inf"))
    alpha = F.softmax(energy, dim=-1)
    energy_safe = energy.masked_fill(causal, 0.0)
    return (alpha * energy_safe).sum(-1)
`;
  it('a zero fill of the scores after their softmax ran (the mean energy under the weights): silent', async () => {
    assert.deepEqual(await codes(HEAT, 'ATT007'), []);
  });
  it('buggy: a positive fill written into the scores in place after their softmax is still reported', async () => {
    const src = HEAT.replace(
      '    energy_safe = energy.masked_fill(causal, 0.0)\n',
      '    energy.masked_fill_(causal, -float("-inf"))\n    energy_safe = energy\n',
    );
    assert.deepEqual(await codes(src, 'ATT007'), [11]);
  });
  it('buggy: the zero fill before the softmax is reported', async () => {
    const src = HEAT.replace('float("-inf")', '0.0');
    assert.deepEqual(await codes(src, 'ATT007'), [9]);
  });
  const NEAREST = `import torch


def nearest_rows(A):
    n = A.shape[-1]
    D = torch.cdist(A, A)
    D_masked = D.clone()
    eye = torch.eye(n, dtype=torch.bool)
    D_masked = D_masked.masked_fill(eye, float("inf"))
    return D_masked.topk(k=2, dim=-1, largest=False)
`;
  it('+inf written into a masked copy of distances (`D_masked`, a smallest-k search): silent', async () => {
    assert.deepEqual(await codes(NEAREST, 'ATT007'), []);
  });
  it('buggy: +inf written into a bias being built (`attn_bias`) is reported', async () => {
    assert.deepEqual(await codes(NEAREST.replaceAll('D_masked', 'attn_bias'), 'ATT007'), [9]);
  });
});

describe('lint: one query picked by a range counter gives one row of scores (ATT001)', () => {
  const REF = `import torch


def reference(d, s):
    query = torch.randn(1, 1, s, d)
    q = query[0, 0]
    rows = torch.empty((3, d))
    out = torch.empty((s, d))
    for i in range(s):
        scores = torch.exp((q[i] @ rows.T) / d**0.5)
        probs = scores / scores.sum()
        out[i, :] = probs @ rows
    return out
`;
  it('q[i] with i from range(s) is one query: its scores are a vector and sum() is over the keys, silent', async () => {
    assert.deepEqual(await codes(REF, 'ATT001'), []);
  });
  it('buggy: all the queries at once (q, not q[i]) normalised with sum() over every element is reported', async () => {
    const src = REF.replace('(q[i] @ rows.T)', '(q @ rows.T)').replace('out[i, :] = probs @ rows', 'out = probs @ rows');
    assert.deepEqual(await codes(src, 'ATT001'), [11]);
  });
});

describe('lint: a zero fill after the softmax inside a loop (ATT007)', () => {
  const LOOP = `import math
import torch
import torch.nn.functional as F


def energies(qs, ks, seq_len):
    causal = torch.triu(torch.ones(seq_len, seq_len, dtype=torch.bool), diagonal=1)
    out = []
    for q, k in zip(qs, ks):
        energy = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(q.shape[-1])
        energy = energy.masked_fill(causal, float("-inf"))
        alpha = F.softmax(energy, dim=-1)
        energy_safe = energy.masked_fill(causal, 0.0)
        out.append((alpha * energy_safe).sum(-1))
    return out
`;
  it('each iteration forms the scores anew, softmaxes them, then fills a copy with 0: silent', async () => {
    assert.deepEqual(await codes(LOOP, 'ATT007'), []);
  });
  it('buggy: in the same loop, the zero fill before the softmax is reported', async () => {
    const src = LOOP.replace('float("-inf")', '0.0');
    assert.deepEqual(await codes(src, 'ATT007'), [11]);
  });
});
