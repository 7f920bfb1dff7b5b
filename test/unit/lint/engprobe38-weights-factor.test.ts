// Session 38 (eng-probe-s38): ATT004's name-only "scale after softmax" path needs what the code shows about the factor.
//
// A factor named like a scale (`alpha`, `tau`, `*_scale`) that multiplies or divides the weights after the softmax was
// reported on its name alone. Probes of everyday correct code found three classes it misread: a blend's coefficient
// (`attn * self.alpha + prev * (1 - self.alpha)`: the blend of two distributions is one again), a parameter nothing in
// view binds (an FP8 kernel's `v_scale`, the values' dequantisation scale moved onto the weights), and a factor computed
// from the scores themselves (an attention sink's share, `sigmoid(logsumexp(s) - sink)`). The true case the path is for
// (a learned temperature on the weights alone, dalle-mini's Swin-v2 `attn / jnp.maximum(self.tau, 0.01)`) stays.
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

// q, k, v: (B, H, N, D) after the split; the weights (B, H, N, N).
const BLEND = `import torch
import torch.nn as nn


class ResidualAttention(nn.Module):
    def __init__(self, dim, heads, alpha=0.5):
        super().__init__()
        self.heads = heads
        self.alpha = alpha
        self.qkv = nn.Linear(dim, 3 * dim)

    def forward(self, x, prev_attn):
        B, N, C = x.shape
        q, k, v = self.qkv(x).view(B, N, 3, self.heads, -1).permute(2, 0, 3, 1, 4)
        attn = (q @ k.transpose(-2, -1) * (C // self.heads) ** -0.5).softmax(-1)
        attn = ATTN_LINE
        return (attn @ v).transpose(1, 2).reshape(B, N, C), attn
`;

// q: (B, H, T, D); k, v stored in float8 with per-tensor scales.
const FP8 = `import torch


def fp8_attention(q, k_fp8, v_fp8, k_scale, v_scale, sm_scale):
    k = k_fp8.to(q.dtype)
    v = v_fp8.to(q.dtype)
    s = torch.matmul(q, k.transpose(-1, -2)) * (sm_scale * k_scale)
    p = torch.softmax(s, dim=-1)
    p = p * v_scale
    return torch.matmul(p, v)
`;

const SINK = `import torch
import torch.nn as nn


class SinkAttention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.sink_logit = nn.Parameter(torch.zeros(heads, 1, 1))

    def forward(self, x):
        B, N, C = x.shape
        q, k, v = self.qkv(x).view(B, N, 3, self.heads, -1).permute(2, 0, 3, 1, 4)
        s = q @ k.transpose(-2, -1) * (C // self.heads) ** -0.5
        attn = s.softmax(-1)
        KEEP_LINE
        attn = attn * keep_scale
        return (attn @ v).transpose(1, 2).reshape(B, N, C)
`;

describe('engprobe38: a factor after softmax known only by its name (ATT004)', () => {
  it('is silent on a blend of this layer\u2019s weights with the previous layer\u2019s', async () => {
    const src = BLEND.replace('ATTN_LINE', 'attn * self.alpha + prev_attn * (1 - self.alpha)');
    assert.deepEqual(await findingLines(src, 'ATT004'), []);
  });
  it('is silent on a blend written with the coefficient first and in parentheses', async () => {
    const src = BLEND.replace('ATTN_LINE', '(1 - self.alpha) * prev_attn + (self.alpha * attn)');
    assert.deepEqual(await findingLines(src, 'ATT004'), []);
  });
  it('still reports the same coefficient multiplied into the weights alone', async () => {
    const src = BLEND.replace('ATTN_LINE', 'attn * self.alpha');
    assert.deepEqual(await findingLines(src, 'ATT004'), [16]);
  });
  it('is silent on a parameter of the function that nothing in view binds (an FP8 value scale)', async () => {
    assert.deepEqual(await findingLines(FP8, 'ATT004'), []);
  });
  it('reports it when a call in the file passes it', async () => {
    const src = `${FP8}\n\ndef run(q, k, v, layer):\n    return fp8_attention(q, k, v, 1.0, layer.temperature, 0.125)\n`;
    assert.deepEqual(await findingLines(src, 'ATT004'), [9]);
  });
  it('reports it when it has a default the code shows', async () => {
    const src = FP8.replace('v_scale, sm_scale)', 'sm_scale, v_scale=0.5)');
    assert.deepEqual(await findingLines(src, 'ATT004'), [9]);
  });
  it('is silent on a factor computed from these scores (an attention sink\u2019s share)', async () => {
    const src = SINK.replace('KEEP_LINE', 'lse = torch.logsumexp(s, dim=-1, keepdim=True)\n        keep_scale = torch.sigmoid(lse - self.sink_logit)');
    assert.deepEqual(await findingLines(src, 'ATT004'), []);
  });
  it('still reports a factor computed from a learned parameter only', async () => {
    const src = SINK.replace('KEEP_LINE', 'keep_scale = torch.sigmoid(self.sink_logit)');
    assert.deepEqual(await findingLines(src, 'ATT004'), [18]);
  });
  it('still reports a learned temperature dividing the weights, clamped (the Swin-v2 class)', async () => {
    const src = SINK.replace('KEEP_LINE', 'pass').replace('attn = attn * keep_scale', 'attn = attn / torch.clamp(self.sink_logit, min=0.01)');
    assert.deepEqual(await findingLines(src.replace(/sink_logit/g, 'tau'), 'ATT004'), [18]);
  });
  const BASE = `import torch
import torch.nn as nn


class TemperatureBase(nn.Module):
    def __init__(self, heads):
        super().__init__()
        self.tau = nn.Parameter(torch.full((1, heads, 1, 1), 0.1))
`;
  const SUB = `import torch
from base import TemperatureBase


class Cosine(TemperatureBase):
    def forward(self, q, k, v):
        # q, k, v: (B, H, N, D), q and k unit-normalised
        w = torch.softmax(q @ k.transpose(-2, -1), dim=-1)
        w = w / self.tau
        return w @ v
`;
  it('across files: reports a temperature a base class of another file defines', async () => {
    assert.deepEqual(await workspaceFindingLines({ 'base.py': BASE, 'attn.py': SUB }, 'attn.py', 'ATT004'), [9]);
  });
  const OPS = `import torch


def attend(q, k, v, temperature):
    # q, k, v: (B, H, N, D)
    w = torch.softmax(q @ k.transpose(-2, -1) * q.shape[-1] ** -0.5, dim=-1)
    w = w / temperature
    return w @ v
`;
  const MODEL = `import torch
import torch.nn as nn
from ops import attend


class Block(nn.Module):
    def __init__(self, heads):
        super().__init__()
        self.tau = nn.Parameter(torch.ones(1, heads, 1, 1))

    def forward(self, q, k, v):
        return attend(q, k, v, CALL_ARG)
`;
  it('across files: reports a helper\u2019s parameter that an importing file passes', async () => {
    const files = { 'ops.py': OPS, 'model.py': MODEL.replace('CALL_ARG', 'self.tau') };
    assert.deepEqual(await workspaceFindingLines(files, 'ops.py', 'ATT004'), [7]);
  });
  it('across files: reports it passed by keyword too', async () => {
    const files = { 'ops.py': OPS, 'model.py': MODEL.replace('CALL_ARG', 'temperature=self.tau') };
    assert.deepEqual(await workspaceFindingLines(files, 'ops.py', 'ATT004'), [7]);
  });
  it('across files: is silent when the importing file calls the helper without it (left to a default elsewhere)', async () => {
    const files = { 'ops.py': OPS, 'model.py': MODEL.replace('attend(q, k, v, CALL_ARG)', 'attend(q, k, v=v)') };
    assert.deepEqual(await workspaceFindingLines(files, 'ops.py', 'ATT004'), []);
  });
});
