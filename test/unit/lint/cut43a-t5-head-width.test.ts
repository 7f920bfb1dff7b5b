// Session 43 (eng-cut-s43a): T5-family attention cut out of its file, known by its config's `d_kv`.
//
// Class: T5 leaves its scores unscaled by design (the 1/sqrt(d) is folded into the initialisation). ATT003 knew the
// family by names (T5Attention, a T5Config annotation) or by a file that builds T5's bucketed relative position bias.
// An attention module cut to itself (MLX-style `MultiHeadAttention(config)`, the bias class and the model left out)
// keeps neither, but it still reads the per-head width from `config.d_kv`, a field only T5-family configurations
// declare. That read is now T5-family evidence. A module reading another width field is still reported.
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

const MODULE = (width: string): string => `import mlx.core as mx
import mlx.nn as nn


class SelfAttention(nn.Module):
    def __init__(self, config):
        super().__init__()
        inner = config.${width} * config.num_heads
        self.n_heads = config.num_heads
        self.q = nn.Linear(config.d_model, inner, bias=False)
        self.k = nn.Linear(config.d_model, inner, bias=False)
        self.v = nn.Linear(config.d_model, inner, bias=False)
        self.o = nn.Linear(inner, config.d_model, bias=False)

    def __call__(self, x, mask=None):
        B, L, _ = x.shape
        q = self.q(x).reshape(B, L, self.n_heads, -1).transpose(0, 2, 1, 3)
        k = self.k(x).reshape(B, L, self.n_heads, -1).transpose(0, 2, 3, 1)
        v = self.v(x).reshape(B, L, self.n_heads, -1).transpose(0, 2, 1, 3)
        scores = q @ k
        if mask is not None:
            scores = scores + mask
        w = mx.softmax(scores, axis=-1)
        return self.o((w @ v).transpose(0, 2, 1, 3).reshape(B, L, -1))
`;

const CONFIG = `from dataclasses import dataclass


@dataclass
class ModelConfig:
    d_model: int = 512
    d_kv: int = 64
    head_dim: int = 64
    num_heads: int = 8
`;

describe('cut43a: T5-family attention known by config.d_kv (ATT003)', () => {
  it('is silent on a module that reads its head width from config.d_kv', async () => {
    assert.deepEqual(await findingLines(MODULE('d_kv'), 'ATT003'), []);
  });
  it('still reports the same module reading another width field (the bug)', async () => {
    assert.deepEqual(await findingLines(MODULE('head_dim'), 'ATT003'), [23]);
  });
  it('in a workspace: a config file declaring d_kv clears only the module that reads it', async () => {
    const files = (width: string) => ({ 'config.py': CONFIG, 'attention.py': `from config import ModelConfig\n${MODULE(width)}` });
    assert.deepEqual(await workspaceFindingLines(files('d_kv'), 'attention.py', 'ATT003'), []);
    assert.deepEqual(await workspaceFindingLines(files('head_dim'), 'attention.py', 'ATT003'), [24]);
  });
});
