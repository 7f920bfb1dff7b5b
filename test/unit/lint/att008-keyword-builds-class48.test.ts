// Session 48, eng-s48b: ATT008 weak-source audit, class "a `causal=True` of another call builds another object".
//
// A module's own flag (`is_causal=self.causal`, `self.causal = causal` from `__init__`, default False) on keys a cache
// grows was read True from any `causal=True` written in the file in a call the file does not define: a flash-attn call
// (`flash_attn_func(q, k, v, causal=True)`), a library layer, anything. Such a keyword builds or calls another object;
// it says nothing about this module's parameter. Switched off, the path lost no true finding of the readable sets; it
// now counts only in a call that builds this very class by its name (`Attention(..., causal=True)`,
// `functools.partial(Attention, causal=True)`), where the evaluator does not follow the construction.
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

const MODULE = `import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self, dim, heads, causal=False):
        super().__init__()
        self.causal = causal
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)

    def forward(self, x, cache):
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.heads, -1).permute(2, 0, 3, 1, 4)
        k, v = cache.update(k, v)
        y = F.scaled_dot_product_attention(q, k, v, is_causal=self.causal)
        return y.transpose(1, 2).reshape(B, T, C)
`;

describe('ATT008: a `causal=True` of another call is no value of this module (session 48)', () => {
  it('is silent when the only `causal=True` of the file is a flash-attn call', async () => {
    const src = `${MODULE}

def fast_path(q, k, v):
    from flash_attn import flash_attn_func

    return flash_attn_func(q, k, v, causal=True)
`;
    assert.deepEqual(await findingLines(src, 'ATT008'), []);
  });

  it('reports the module where the file builds this class with causal=True (directly or by functools.partial)', async () => {
    assert.deepEqual(await findingLines(`${MODULE}\n\nLAYERS = [Attention(64, 4, causal=True) for _ in range(2)]\n`, 'ATT008'), [16]);
    assert.deepEqual(await findingLines(`import functools\n${MODULE}\n\nmake_layer = functools.partial(Attention, causal=True)\n`, 'ATT008'), [17]);
  });

  it('across files: a builder with causal=True reports; a file that only calls flash-attn with causal=True does not', async () => {
    const builder = {
      'lm/attention.py': MODULE,
      'lm/model.py': `import torch.nn as nn

from .attention import Attention


class Block(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.attn = Attention(dim, 4, causal=True)

    def forward(self, x, cache):
        return self.attn(x, cache)
`,
    };
    assert.deepEqual(await workspaceFindingLines(builder, 'lm/attention.py', 'ATT008'), [16]);
    const other = {
      'lm/attention.py': MODULE,
      'lm/fast.py': `from flash_attn import flash_attn_func


def fast_path(q, k, v):
    return flash_attn_func(q, k, v, causal=True)
`,
    };
    assert.deepEqual(await workspaceFindingLines(other, 'lm/attention.py', 'ATT008'), []);
  });
});
