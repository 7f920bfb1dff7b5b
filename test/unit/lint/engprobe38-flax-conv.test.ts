// Session 38 (eng-probe-s38): flax's `nn.Conv` makes convolution features, as torch's `nn.Conv1d/2d/3d` do.
//
// ATT003 leaves single-head attention over convolution features alone (SAGAN, non-local blocks, point-cloud offset
// attention: unscaled by design). Flax's `nn.Conv` was not in the table of convolutions, so a point-cloud model's
// `jnp.einsum('...MC,...NC->...MN', q, k)` of two `nn.Conv` outputs was reported (scenic's pointcloud model); and an
// einsum of convolution features, unlike a matmul of them, did not keep them so. Flax keeps the features on the last
// axis (NWC), so its output is not read as channels-first.
import { strict as assert } from 'node:assert';
import { findingLines, valueOf, workspaceFindingLines } from './helpers';

// inputs: (B, N, C) point features; q, k, v: (B, N, channels); the scores (B, N, N).
const FLAX = (layer: string): string => `import flax.linen as nn
import jax.numpy as jnp


class PointAttention(nn.Module):
    channels: int

    @nn.compact
    def __call__(self, inputs):
        q = ${layer}(inputs)
        k = ${layer}(inputs)
        v = ${layer}(inputs)
        attention = jnp.einsum("...MC,...NC->...MN", q, k)
        attention = nn.softmax(attention, axis=-1)
        attention = attention / (1e-9 + jnp.sum(attention, axis=1, keepdims=True))
        return jnp.einsum("...MN,...NC->...NC", attention, v)
`;

// x: (B, C, N) features; theta, phi: (B, C', N); the scores (B, N, N).
const TORCH_EINSUM = `import torch
import torch.nn as nn


class NonLocal1d(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.theta = nn.Conv1d(c, c // 2, 1)
        self.phi = nn.Conv1d(c, c // 2, 1)
        self.g = nn.Conv1d(c, c // 2, 1)

    def forward(self, x):
        q = self.theta(x)
        k = self.phi(x)
        f = torch.einsum("bcn,bcm->bnm", q, k).softmax(dim=-1)
        return torch.einsum("bnm,bcm->bcn", f, self.g(x))
`;

describe('engprobe38: flax nn.Conv makes convolution features (ATT003)', () => {
  it('is silent on single-head attention over flax nn.Conv features', async () => {
    assert.deepEqual(await findingLines(FLAX('nn.Conv(self.channels, kernel_size=(1,))'), 'ATT003'), []);
  });
  it('still reports the same attention over nn.Dense projections', async () => {
    assert.deepEqual(await findingLines(FLAX('nn.Dense(self.channels)'), 'ATT003'), [14]);
  });
  it('reads flax nn.Conv features as channels-last (no channels-first claim)', async () => {
    const v = await valueOf(FLAX('nn.Conv(self.channels, kernel_size=(1,))'), 'q');
    assert.equal(v.fromConv, true);
    assert.equal(v.channelFirst, undefined);
  });
  it('is silent on a torch non-local block written with einsum, as with matmul', async () => {
    assert.deepEqual(await findingLines(TORCH_EINSUM, 'ATT003'), []);
  });
  it('still reports conv features of a multi-head split', async () => {
    const src = FLAX('nn.Conv(self.channels, kernel_size=(1,))')
      .replace(
        'attention = jnp.einsum("...MC,...NC->...MN", q, k)',
        'q = q.reshape(q.shape[0], q.shape[1], 8, -1)\n        k = k.reshape(k.shape[0], k.shape[1], 8, -1)\n        attention = jnp.einsum("bmhc,bnhc->bhmn", q, k)',
      )
      .replace('return jnp.einsum("...MN,...NC->...NC", attention, v)', 'return attention');
    assert.deepEqual(await findingLines(src, 'ATT003'), [16]);
  });
  it('across files: silent in a workspace whose training script builds and calls the model', async () => {
    const train = `import jax\nimport jax.numpy as jnp\nfrom model import PointAttention\n\n\ndef main():\n    x = jnp.ones((2, 128, 16))\n    m = PointAttention(channels=32)\n    params = m.init(jax.random.PRNGKey(0), x)\n    return m.apply(params, x)\n`;
    const files = { 'model.py': FLAX('nn.Conv(self.channels, kernel_size=(1,))'), 'train.py': train };
    assert.deepEqual(await workspaceFindingLines(files, 'model.py', 'ATT003'), []);
  });
  it('across files: still reports the nn.Dense form in that workspace', async () => {
    const train = `from model import PointAttention\n\nm = PointAttention(channels=32)\n`;
    assert.deepEqual(await workspaceFindingLines({ 'model.py': FLAX('nn.Dense(self.channels)'), 'train.py': train }, 'model.py', 'ATT003'), [14]);
  });
});
