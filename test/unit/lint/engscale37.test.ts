// Session 37 (eng-scale-s37): classes behind false findings made on an assumption the linted file does not support.
//
// 1. q and k returned by a function of code not in view (a loader imported from the project's own package, or a name
//    the file never binds): what that code did to their scale is unknown (hip-attention's tests read q already
//    multiplied by 1/sqrt(d) from `load_checkouts`). They carry an unknown step, as q through an unknown function
//    does, and ATT003 is silent on them; in a workspace whose file shows the function, its code decides.
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

// q, k, v: (B*H, T, D) as a loader of another module returns them; the scores (B*H, T, T).
const LOADED_INLINE = `import torch
from mypkg.data import load_data


def main():
    q, k, v, out = load_data(idx=0)
    scores = torch.bmm(q, k.transpose(-1, -2))
    probs = torch.softmax(scores, dim=-1)
    return torch.bmm(probs, v), out
`;

// The reference helper of a test script, called only with what the loader returns.
const REFERENCE_HELPER = `import torch
from torch import Tensor
from mypkg.data import load_data


def torch_attention(q: Tensor, k: Tensor, v: Tensor):
    scores = torch.bmm(q, k.transpose(-1, -2))
    probs = torch.softmax(scores, dim=-1)
    return torch.bmm(probs, v), probs
${''}
${''}
def main():
    q, k, v, out = load_data(idx=0)
    context, _ = torch_attention(q, k, v)
    print((context - out).abs().max())
`;

const LOADER = (q: string): string => `import torch


def load_data(idx=0):
    state = torch.load("qkv.pth")
    q = ${q}
    return q, state["k"], state["v"], state["out"]
`;

describe('engscale37: q and k returned by code not in view carry an unknown step (ATT003)', () => {
  it('is silent on scores of q and k an imported loader returns, linted alone', async () => {
    assert.deepEqual(await findingLines(LOADED_INLINE, 'ATT003'), []);
  });
  it('is silent on a helper whose only caller passes what the loader returns', async () => {
    assert.deepEqual(await findingLines(REFERENCE_HELPER, 'ATT003'), []);
  });
  it('is silent when the loader is a name the file never binds (a star import)', async () => {
    const src = LOADED_INLINE.replace('from mypkg.data import load_data', 'from mypkg.data import *');
    assert.deepEqual(await findingLines(src, 'ATT003'), []);
  });
  it('a helper no code calls is not reported since session 44 (its caller, which may scale q, is not in view)', async () => {
    const helperOnly = REFERENCE_HELPER.slice(0, REFERENCE_HELPER.indexOf('\n\n\ndef main'));
    assert.deepEqual(await findingLines(helperOnly, 'ATT003'), []);
  });
  it('still reports the helper called with unscaled projections', async () => {
    const helperOnly = REFERENCE_HELPER.slice(0, REFERENCE_HELPER.indexOf('\n\n\ndef main'));
    const called = `${helperOnly}\n\n\ndef block(x, w_q, w_k, w_v):\n    return torch_attention(x @ w_q, x @ w_k, x @ w_v)\n`;
    assert.deepEqual(await findingLines(called, 'ATT003'), [8]);
  });
  it('still reports q and k projected here from data the loader returns (the projections are in view)', async () => {
    const src = `import torch
import torch.nn as nn
from mypkg.data import load_batch


class Attn(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.wq = nn.Linear(d, d)
        self.wk = nn.Linear(d, d)

    def forward(self):
        x = load_batch()  # (B, T, d)
        q = self.wq(x)
        k = self.wk(x)
        return torch.softmax(q @ k.transpose(-2, -1), dim=-1)
`;
    assert.deepEqual(await findingLines(src, 'ATT003'), [16]);
  });
  it('keeps today\u2019s reading of a layer built and applied in one expression (`Proj(d)(x)`): a layer, not a loader', async () => {
    const src = `import torch
from mypkg.layers import Proj


def attend(x, d):
    q = Proj(d)(x)  # (B, T, d)
    k = Proj(d)(x)
    return torch.softmax(q @ k.transpose(-2, -1), dim=-1)
`;
    assert.deepEqual(await findingLines(src, 'ATT003'), [8]);
  });
  it('still reports q and k drawn by a known library call', async () => {
    const src = LOADED_INLINE.replace('q, k, v, out = load_data(idx=0)', 'q, k, v = torch.randn(3, 8, 16, 64).unbind(0)\n    out = None');
    assert.deepEqual(await findingLines(src, 'ATT003'), [9]);
  });
  it('still reports q and k a function of the file returns unscaled', async () => {
    const src = LOADED_INLINE.replace('from mypkg.data import load_data', '').replace(
      'def main():',
      'def load_data(idx=0):\n    return torch.randn(4, 8, 16, 64).unbind(0)\n\n\ndef main():',
    );
    assert.deepEqual(await findingLines(src, 'ATT003'), [12]);
  });
  it('in a workspace, the loader of another file decides: reported when it returns q unscaled', async () => {
    const files = { 'mypkg/__init__.py': '', 'mypkg/data.py': LOADER('state["q"]'), 'run.py': LOADED_INLINE };
    assert.deepEqual(await workspaceFindingLines(files, 'run.py', 'ATT003'), [8]);
  });
  it('in a workspace, the loader of another file decides: silent when it scales q by 1/sqrt(d)', async () => {
    const files = { 'mypkg/__init__.py': '', 'mypkg/data.py': LOADER('state["q"] / state["q"].shape[-1] ** 0.5'), 'run.py': LOADED_INLINE };
    assert.deepEqual(await workspaceFindingLines(files, 'run.py', 'ATT003'), []);
  });
  it('keeps ATT004 on a division by the dimension of loaded q (a wrong factor the file shows)', async () => {
    const src = LOADED_INLINE.replace('torch.bmm(q, k.transpose(-1, -2))', 'torch.bmm(q, k.transpose(-1, -2)) / q.size(-1)');
    assert.deepEqual(await findingLines(src, 'ATT004'), [7]);
  });
});

// 2. qk-norm in the caller, scores in a helper: the module normalises q and k (and rotates them, which keeps their
//    norm), then hands them to a method that forms the scores unscaled (Gemma 4's vision attention: `__call__` →
//    `_compute_attn_vec` → `_qkv`). The norm's gain sets the logits' scale there as it does inline.
const HEADS = `    def _heads(self, q, k, v):
        q = q.contiguous()  # (B, heads, T, d)
        return self._attend(q=q, k=k, v=v)

`;
const QK_NORM_IN_CALLER = (call: string, extra = '', between = ''): string => `import torch
import torch.nn as nn
from mypkg.pos import apply_rope


class Attention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.q_norm = nn.RMSNorm(dim // heads)
        self.k_norm = nn.RMSNorm(dim // heads)

    def forward(self, x, pos):
        B, T, C = x.shape
        # q, k, v: (B, heads, T, C // heads)
        q, k, v = self.qkv(x).view(B, T, 3, self.heads, C // self.heads).permute(2, 0, 3, 1, 4)
${extra}        return ${call}

${between}    def _attend(self, q, k, v):
        w = torch.softmax(q @ k.transpose(-2, -1), dim=-1)  # (B, heads, T, T)
        return w @ v
`;
const NORMED = '        q, k = self.q_norm(q), self.k_norm(k)\n';
const ROTATED = '        q = apply_rope(q, pos)\n        k = apply_rope(k, pos)\n';
/** The line of the softmax in QK_NORM_IN_CALLER with `n` lines added before it. */
const SOFTMAX = (n: number): number => 21 + n;

describe('engscale37: qk-norm applied by the callers of the function forming the scores (ATT003)', () => {
  it('is silent when the caller normalises q and k before the helper forms the scores', async () => {
    assert.deepEqual(await findingLines(QK_NORM_IN_CALLER('self._attend(q, k, v)', NORMED), 'ATT003'), []);
  });
  it('is silent through two helpers, a rearrangement and a rotary embedding after the norm', async () => {
    assert.deepEqual(await findingLines(QK_NORM_IN_CALLER('self._heads(q, k, v)', NORMED + ROTATED, HEADS), 'ATT003'), []);
  });
  it('is silent when the caller passes the norms\u2019 outputs directly', async () => {
    assert.deepEqual(await findingLines(QK_NORM_IN_CALLER('self._attend(self.q_norm(q), self.k_norm(k), v)'), 'ATT003'), []);
  });
  it('still reports when no caller normalises q and k', async () => {
    assert.deepEqual(await findingLines(QK_NORM_IN_CALLER('self._heads(q, k, v)', ROTATED, HEADS), 'ATT003'), [SOFTMAX(6)]);
  });
  it('still reports when only q is normalised', async () => {
    assert.deepEqual(await findingLines(QK_NORM_IN_CALLER('self._attend(self.q_norm(q), k, v)'), 'ATT003'), [SOFTMAX(0)]);
  });
  it('still reports when one of two callers passes them unnormalised', async () => {
    const raw = '    def raw(self, q, k, v):\n        return self._attend(q, k, v)\n\n';
    assert.deepEqual(await findingLines(QK_NORM_IN_CALLER('self._attend(q, k, v)', NORMED, raw), 'ATT003'), [SOFTMAX(4)]);
  });
  it('still reports when the norm is on the layer input, before the projection', async () => {
    assert.deepEqual(
      await findingLines(
        QK_NORM_IN_CALLER('self._attend(q, k, v)', '', '').replace('        B, T, C = x.shape\n', '        B, T, C = x.shape\n        x = self.q_norm(x)\n'),
        'ATT003',
      ),
      [SOFTMAX(1)],
    );
  });
  it('still reports a helper handed on as a function value (callers the file does not show)', async () => {
    const escape = '    def _fn(self):\n        return self._attend\n\n';
    assert.deepEqual(await findingLines(QK_NORM_IN_CALLER('self._attend(q, k, v)', NORMED, escape), 'ATT003'), [SOFTMAX(4)]);
  });
});
