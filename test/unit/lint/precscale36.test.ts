// Session 36 (prec-scale36): ATT004 paths that decided from a name or a guessed role, each narrowed to the half the
// code shows, with the correct code that shares the shape.
//
// 1. "The scale uses the model width" from a NAME alone (`dim`, `d`, `embed_size`, `D`): first-contact false findings
//    in six independent batches and scans (t24q-01, GMAN t28u-06, labml unet, fla-org's `(B, T, H, D)` test, crybot,
//    NMTGMinor). Kept when the code shows the width split into heads: divided by a head count in the file (`dim //
//    heads`, `int(d_model / num_heads)`), the width of a dense layer of the class or of a class of the file that builds
//    it (`nn.Linear(d_model, n_head * d_k)` beside `ScaledDotProductAttention(temperature=np.power(d_model, 0.5))`), or
//    the query projection's input or output width.
// 2. "Built from the number of heads" from a NAME (`head`, `h`): silent when the code uses that name as each head's
//    width (the size the scores' product sums over, or the last size of a view/reshape).
// 3. "Divided by a dimension" from a helper parameter's NAME (`def attend(q, k, v, d_k)`), where the workspace calls
//    the helper but the evaluator did not follow the call (another file, past the call depth): the caller's value
//    decides. A helper nobody calls, or a call the evaluator follows, still reports.
// 4. A factor named like a scale after softmax (`log_alpha`) computed from the weights themselves: an entropy term.
// 5. A coefficient 2 or 3 on a product is arithmetic (`x2 - 2 * x @ y.T + y2`), not a stated head width.
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

const HEADS_BY_NAME = (scale: string, extra = ''): string => `import torch
import torch.nn as nn


class Attention(nn.Module):
    def __init__(self, dim, heads=8):
        super().__init__()
        self.heads = heads
        self.scale = ${scale}
${extra}
    def forward(self, q, k, v):
        # q, k, v: (B, H, N, D), already split into heads by the caller
        attn = (q @ k.transpose(-2, -1)) * self.scale
        attn = attn.softmax(dim=-1)
        return attn @ v
`;

describe('precscale36: ATT004 model width read from a name alone', () => {
  it('is silent on dim ** -0.5 when nothing in the code says dim is the width split into heads', async () => {
    assert.deepEqual(await findingLines(HEADS_BY_NAME('dim ** -0.5'), 'ATT004'), []);
  });
  it('reports it when the file divides that width by the head count (the bug)', async () => {
    assert.deepEqual(await findingLines(HEADS_BY_NAME('dim ** -0.5', '        self.head_dim = dim // heads\n'), 'ATT004'), [14]);
  });
  it('reports it when the division is a true division under int() (the Conformer form)', async () => {
    assert.deepEqual(await findingLines(HEADS_BY_NAME('dim ** -0.5', '        self.d_head = int(dim / heads)\n'), 'ATT004'), [14]);
  });
  it('is silent on the right scale beside the same division', async () => {
    assert.deepEqual(await findingLines(HEADS_BY_NAME('(dim // heads) ** -0.5', '        self.head_dim = dim // heads\n'), 'ATT004'), []);
  });

  const TEMP = `import numpy as np
import torch
import torch.nn as nn


class ScaledDotProductAttention(nn.Module):
    def __init__(self, temperature):
        super().__init__()
        self.temperature = temperature

    def forward(self, q, k, v):
        attn = torch.bmm(q, k.transpose(1, 2))
        attn = attn / self.temperature
        attn = torch.softmax(attn, dim=2)
        return torch.bmm(attn, v)
`;
  const MHA = (temperature: string): string => `

class MultiHeadAttention(nn.Module):
    def __init__(self, n_head, d_model, d_k, d_v):
        super().__init__()
        self.n_head, self.d_k, self.d_v = n_head, d_k, d_v
        self.w_qs = nn.Linear(d_model, n_head * d_k)
        self.w_ks = nn.Linear(d_model, n_head * d_k)
        self.w_vs = nn.Linear(d_model, n_head * d_v)
        self.attention = ScaledDotProductAttention(temperature=${temperature})

    def forward(self, x):
        sz_b, len_x, _ = x.size()
        q = self.w_qs(x).view(sz_b, len_x, self.n_head, self.d_k)
        k = self.w_ks(x).view(sz_b, len_x, self.n_head, self.d_k)
        v = self.w_vs(x).view(sz_b, len_x, self.n_head, self.d_v)
        q = q.permute(2, 0, 1, 3).contiguous().view(-1, len_x, self.d_k)  # (n*b) x lq x dk
        k = k.permute(2, 0, 1, 3).contiguous().view(-1, len_x, self.d_k)
        v = v.permute(2, 0, 1, 3).contiguous().view(-1, len_x, self.d_v)
        return self.attention(q, k, v)
`;
  it("reports the model width a builder class shows as its dense layers' input (GPT-SoVITS form)", async () => {
    assert.deepEqual(await findingLines(TEMP + MHA('np.power(d_model, 0.5)'), 'ATT004'), [13]);
  });
  it('is silent on the per-head width in the same code (the fix)', async () => {
    assert.deepEqual(await findingLines(TEMP + MHA('np.power(d_k, 0.5)'), 'ATT004'), []);
  });
  it('reads the split in another file of the workspace the same way as a name alone: silent without a division there', async () => {
    const files = {
      'attn.py': HEADS_BY_NAME('dim ** -0.5'),
      'model.py':
        'import torch.nn as nn\n\nfrom attn import Attention\n\n\nclass Block(nn.Module):\n    def __init__(self, width):\n        super().__init__()\n        self.attn = Attention(width, heads=8)\n',
    };
    assert.deepEqual(await workspaceFindingLines(files, 'attn.py', 'ATT004'), []);
  });
  it('is silent on a test reference whose last axis D is one head (fla-org form: q = randn(B, T, H, D))', async () => {
    const src = `import torch


def reference(B=2, T=16, H=4, D=32):
    q = torch.randn(B, H, T, D)
    k = torch.randn(B, H, T, D)
    v = torch.randn(B, H, T, D)
    scale = D ** -0.5
    attn = (q @ k.transpose(-2, -1)) * scale
    return attn.softmax(-1) @ v
`;
    assert.deepEqual(await findingLines(src, 'ATT004'), []);
  });
});

describe('precscale36: ATT004 head count read from a name', () => {
  const HEAD = (scale: string): string => `import torch.nn as nn


class Attention(nn.Module):
    def __init__(self, dim, head=64):
        super().__init__()
        self.heads = dim // head
        self.head = head
        self.scale = ${scale}
        self.qkv = nn.Linear(dim, dim * 3)

    def forward(self, x):
        B, N, C = x.shape
        qkv = self.qkv(x).reshape(B, N, 3, self.heads, self.head).permute(2, 0, 3, 1, 4)
        q, k, v = qkv[0], qkv[1], qkv[2]
        attn = (q @ k.transpose(-2, -1)) * self.scale
        attn = attn.softmax(dim=-1)
        return (attn @ v).transpose(1, 2).reshape(B, N, C)
`;
  it("is silent on head ** -0.5 where `head` is each head's width (the last size of the split)", async () => {
    assert.deepEqual(await findingLines(HEAD('head ** -0.5'), 'ATT004'), []);
  });
  it('still reports a scale built from the head count the split shows as the head axis (the bug)', async () => {
    const src = HEAD('num_heads ** -0.5')
      .replace('def __init__(self, dim, head=64):', 'def __init__(self, dim, num_heads=8):')
      .replace('self.heads = dim // head', 'self.heads = num_heads')
      .replace('self.head = head', 'self.head = dim // num_heads');
    assert.deepEqual(await findingLines(src, 'ATT004'), [16]);
  });
  it("is silent on self.h ** 0.5 as a divisor where h is the view's per-head width", async () => {
    const src = `import torch.nn as nn


class Attention(nn.Module):
    def __init__(self, dim, h=64):
        super().__init__()
        self.n = dim // h
        self.h = h
        self.qkv = nn.Linear(dim, dim * 3)

    def forward(self, x):
        B, N, C = x.shape
        qkv = self.qkv(x).reshape(B, N, 3, self.n, self.h).permute(2, 0, 3, 1, 4)
        q, k, v = qkv[0], qkv[1], qkv[2]
        attn = (q @ k.transpose(-2, -1)) / self.h ** 0.5
        attn = attn.softmax(dim=-1)
        return (attn @ v).transpose(1, 2).reshape(B, N, C)
`;
    assert.deepEqual(await findingLines(src, 'ATT004'), []);
  });
});

describe('precscale36: ATT004 helper parameter read as a dimension by its name', () => {
  const OPS = `import torch


def attend(q, k, v, d_k):
    scores = torch.matmul(q, k.transpose(-2, -1)) / d_k
    return torch.softmax(scores, dim=-1) @ v
`;
  const MODEL = (arg: string): string => `import math
import torch.nn as nn
from ops import attend


class Block(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.dh = dim // heads
        self.qkv = nn.Linear(dim, 3 * dim)

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.heads, self.dh).permute(2, 0, 3, 1, 4)
        return attend(q, k, v, ${arg})
`;
  it('is silent where another file calls the helper with a square root the helper cannot see', async () => {
    assert.deepEqual(await workspaceFindingLines({ 'ops.py': OPS, 'model.py': MODEL('math.sqrt(self.dh)') }, 'ops.py', 'ATT004'), []);
  });
  // Session 48 (eng-s48a): with no call in view the parameter's name is all there is, and a name is no evidence of what
  // an unseen caller passes (no true finding of the readable sets or the public ledgers is such a helper).
  it('is silent on a helper no code calls: its parameter name is all there is', async () => {
    assert.deepEqual(await findingLines(OPS, 'ATT004'), []);
  });
  it('still reports a helper called in the file with the width itself (the call is followed)', async () => {
    const src = `${OPS}

def run(q, k, v):
    d_k = q.size(-1)
    return attend(q, k, v, d_k)
`;
    assert.deepEqual(await findingLines(src, 'ATT004'), [5]);
  });
  it('is silent past the call depth, where a chain of helpers passes the name on', async () => {
    const src = `${OPS}

def f1(q, k, v, d):
    return attend(q, k, v, d)


def f2(q, k, v, d):
    return f1(q, k, v, d)


def f3(q, k, v, d):
    return f2(q, k, v, d)


def run(q, k, v):
    return f3(q, k, v, q.shape[-1] ** 0.5)
`;
    assert.deepEqual(await findingLines(src, 'ATT004'), []);
  });
});

describe('precscale36: ATT004 factors that are no scale', () => {
  it('is silent on an entropy term computed from the weights (log_alpha, boltzmann-attention form)', async () => {
    const src = `import torch
import torch.nn.functional as F


def entropy_of_attention(q, k, sqrt_d):
    # q, k: (batch, heads, seq, head_dim)
    energy = torch.matmul(q, k.transpose(-2, -1)) / sqrt_d
    alpha = F.softmax(energy.float(), dim=-1)  # (batch, heads, seq, seq)
    log_alpha = torch.where(alpha > 1e-10, alpha.log(), torch.zeros_like(alpha))
    return -(alpha * log_alpha).sum(dim=-1)
`;
    assert.deepEqual(await findingLines(src, 'ATT004'), []);
  });
  it('still reports a named temperature applied to the weights (not computed from them)', async () => {
    const src = `import torch
import torch.nn as nn


class Attn(nn.Module):
    def __init__(self, heads):
        super().__init__()
        self.tau = nn.Parameter(torch.ones(1, heads, 1, 1))

    def forward(self, q, k, v):
        # q, k, v: (B, H, N, D)
        alpha = torch.softmax(q @ k.transpose(-2, -1) * q.shape[-1] ** -0.5, dim=-1)
        alpha = alpha / self.tau
        return alpha @ v
`;
    assert.deepEqual(await findingLines(src, 'ATT004'), [13]);
  });
  it('is silent on the 2 of a squared distance over 2-D points (x2 - 2 x.y + y2)', async () => {
    const src = `import torch


def cross_squared_distance_matrix(x, y):
    \"\"\"x: [batch_size, n, d], y: [batch_size, m, d] float Tensors.\"\"\"
    x_norm_squared = torch.sum(torch.mul(x, x))
    y_norm_squared = torch.sum(torch.mul(y, y))
    x_y_transpose = torch.matmul(x.squeeze(0), y.squeeze(0).transpose(0, 1))
    squared_dists = x_norm_squared - 2 * x_y_transpose + y_norm_squared
    return squared_dists.float()


def interpolate(train_points, flows, height, width):
    batch_size = train_points.shape[0]
    query_points = torch.reshape(flows, [batch_size, height * width, 2])
    pairwise_dists = cross_squared_distance_matrix(query_points.float(), train_points.float())
    return pairwise_dists
`;
    assert.deepEqual(await findingLines(src, 'ATT004'), []);
  });
  it('still reports / 64 on scores whose heads are stated 64 wide', async () => {
    const src = `import torch


def attn(x, w):
    B, T, _ = x.shape
    q = (x @ w).view(B, T, 8, 64).transpose(1, 2)
    k = (x @ w).view(B, T, 8, 64).transpose(1, 2)
    s = (q @ k.transpose(-2, -1)) / 64
    return s.softmax(-1)
`;
    assert.deepEqual(await findingLines(src, 'ATT004'), [8]);
  });
});
