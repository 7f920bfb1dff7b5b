// Session 46, eng-s46c: ATT008 (and every site judged two files away), class "a module called from a file two hops
// away: the parameters the far call leaves out take their defaults" (the regression group's `b54-01-causal`: a kernel
// module whose SDPA call takes `is_causal` from its `causal` flag unless a mask comes in, a streaming module in a second
// file that joins the KV cache in front of the new keys and passes its own `attention_mask` parameter (default None) on
// to the kernel, and a GPT-2 adapter in a third file that calls the streaming module with `causal=True`, a cache and no
// mask).
//
// The kernel is judged as its importer calls it, and that importer's forward as the file importing it calls it (one hop
// more). That far context bound the arguments the far call passes but left every parameter it leaves out unknown
// ("whatever a caller passes, None included"), although the call passes no `*args` or unknown `**kwargs`: so the
// streaming module's `attention_mask` might not be None, the kernel's `use_causal_flag` was True or False, and the
// finding was lost. A call whose arguments are all known leaves out only what takes its default, as a call in the same
// file does (and as the first hop already read it): the mask is None there, the flag is True.
import { strict as assert } from 'node:assert';
import { workspaceFindingLines } from './helpers';

const KERNEL = `import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class BlockwiseKernel(nn.Module):
    def __init__(self, n_heads, d_head):
        super().__init__()
        self.n_heads = n_heads
        self.d_head = d_head

    def forward(self, q, k, v, causal=True, key_mask=None):
        qh, kh, vh = (t.transpose(1, 2) for t in (q, k, v))
        additive = None
        if key_mask is not None:
            additive = torch.zeros(key_mask.shape, dtype=qh.dtype).masked_fill(~key_mask, float("-inf"))[:, None, None, :]
        flag = causal
        if additive is not None:
            flag = False
        out = F.scaled_dot_product_attention(qh, kh, vh, attn_mask=additive, is_causal=flag)
        return out.transpose(1, 2)
`;
const SDPA = 22;

const STREAMING = `import torch
import torch.nn as nn

from kernel import BlockwiseKernel


class CachedSelfAttention(nn.Module):
    def __init__(self, width, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.proj = nn.Linear(width, 3 * width)
        self.kernel = BlockwiseKernel(n_heads, width // n_heads)

    def forward(self, x, key_mask=None, past=None, causal=True):
        b, n, _ = x.shape
        q, k, v = self.proj(x).view(b, n, 3, self.n_heads, -1).unbind(2)
        if past is not None:
            k = torch.cat([past[0], k], dim=1)
            v = torch.cat([past[1], v], dim=1)
        out = self.kernel(q, k, v, causal=causal, key_mask=key_mask)
        return out.reshape(b, n, -1), (k, v)
`;

const ADAPTER = (call: string): string => `import torch.nn as nn

from streaming import CachedSelfAttention


class DecoderLayerAttention(nn.Module):
    def __init__(self, width, n_heads):
        super().__init__()
        self.inner = CachedSelfAttention(width, n_heads)

    def forward(self, hidden, layer_past=None, pad_keep=None):
        out, present = self.inner(${call})
        return out, present
`;

const files = (call: string): Record<string, string> => ({ 'kernel.py': KERNEL, 'streaming.py': STREAMING, 'adapter.py': ADAPTER(call) });

describe('ATT008: a module called two files away, the parameters the far call leaves out at their defaults (session 46)', () => {
  it('reports is_causal on cached keys when the far call passes the cache and no mask', async () => {
    assert.deepEqual(await workspaceFindingLines(files('hidden, past=layer_past, causal=True'), 'kernel.py', 'ATT008'), [SDPA]);
  });

  it('is silent when the far call passes a mask, which turns the causal flag off', async () => {
    assert.deepEqual(await workspaceFindingLines(files('hidden, key_mask=pad_keep, past=layer_past, causal=True'), 'kernel.py', 'ATT008'), []);
  });

  it('is silent when the far call passes no cache (the keys are the new ones only)', async () => {
    assert.deepEqual(await workspaceFindingLines(files('hidden, causal=True'), 'kernel.py', 'ATT008'), []);
  });

  it('is silent with the far call passing causal=False', async () => {
    assert.deepEqual(await workspaceFindingLines(files('hidden, past=layer_past, causal=False'), 'kernel.py', 'ATT008'), []);
  });
});
