// Session 46 (eng-s46b): functions defined after a module's first top-level compound statement.
//
// The scopes pass keeps, as the module's environment, the names bound before its first top-level compound statement
// (`try: from flash_attn import flash_attn_func` / `except ImportError:`, `if hasattr(...):`), which joins its arms
// into a new environment; the module's functions do not see the names bound after it. A helper defined there was
// called by no context: a caller that pre-scales q (and hands the helper `scale=1.0`) did not clear it
// (DeepAuto-AI/hip-attention `attention1_block_gpu.py:1628`, `attention2_draft_prefetch.py:6640`: session 45's
// ledger, rows 7 and 9). Now such a function, when it can hold a site or calls one (evaluator.ts activeFunctions),
// is reached by the calls of the file's functions: each call makes its context, in which its sites are judged with
// the call's arguments; what it returns stays unknown at the call, as before (following every name bound after such
// a statement, values included, costs a helper-rich file two to three times its lint time: session 42's
// measurement). A function calling itself, and a decorated one (`@triton.jit`, `@numba.njit`), are not reached so.
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

/** The natural example: SDPA told scale=1.0 in a helper defined after a try/except import block; its caller scales q. */
const PRE_SCALED = `import torch
import torch.nn.functional as F

try:
    from flash_attn import flash_attn_func
except ImportError:
    flash_attn_func = None


def attend(q, k, v, causal=False):
    if flash_attn_func is not None and q.is_cuda:
        out = flash_attn_func(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2), softmax_scale=1.0, causal=causal)
        return out.transpose(1, 2)
    return F.scaled_dot_product_attention(q, k, v, is_causal=causal, scale=1.0)


class SelfAttention(torch.nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.scale = (dim // heads) ** -0.5
        self.qkv = torch.nn.Linear(dim, 3 * dim, bias=False)
        self.out = torch.nn.Linear(dim, dim)

    def forward(self, x):
        b, t, d = x.shape
        q, k, v = self.qkv(x).view(b, t, 3, self.heads, -1).permute(2, 0, 3, 1, 4)
        q = q * self.scale
        y = attend(q, k, v, causal=True)
        return self.out(y.transpose(1, 2).reshape(b, t, d))
`;

/** The bug: the caller hands the helper unscaled q and k (and the helper switches the kernel's own scale off). */
const UNSCALED = PRE_SCALED.replace('        q = q * self.scale\n', '');

/** The same module behind a top-level `if` instead of the try block. */
const AFTER_IF = PRE_SCALED.replace(
  `try:
    from flash_attn import flash_attn_func
except ImportError:
    flash_attn_func = None
`,
  `if hasattr(torch.backends.cuda, "enable_flash_sdp"):
    torch.backends.cuda.enable_flash_sdp(True)
flash_attn_func = None
`,
);

/** A helper that calls itself on each half of a long sequence; its caller scales q. */
const RECURSIVE = `import torch
import torch.nn.functional as F

try:
    import triton
except ImportError:
    triton = None


def chunked(q, k, v, chunk=1024):
    if q.size(2) > chunk:
        a = chunked(q[:, :, :chunk], k, v, chunk)
        b = chunked(q[:, :, chunk:], k, v, chunk)
        return torch.cat([a, b], dim=2)
    return F.scaled_dot_product_attention(q, k, v, scale=1.0)


def attention(x, wq, wk, wv, heads):
    b, t, d = x.shape
    q = (x @ wq).view(b, t, heads, -1).transpose(1, 2)
    k = (x @ wk).view(b, t, heads, -1).transpose(1, 2)
    v = (x @ wv).view(b, t, heads, -1).transpose(1, 2)
    q = q * (d // heads) ** -0.5
    return chunked(q, k, v)
`;

describe('eng-s46b: a helper defined after a top-level try/if is reached by its callers', () => {
  it('natural: SDPA told scale=1.0 in a helper after a try/except import block, the caller pre-scales q: silent', async () => {
    assert.deepEqual(await findingLines(PRE_SCALED, 'ATT003'), []);
  });
  it('the bug: the caller hands the helper unscaled q and k: reported at the call with scale=1.0', async () => {
    assert.deepEqual(await findingLines(UNSCALED, 'ATT003'), [14]);
  });
  it('the same helper after a top-level if statement: silent with the pre-scaled q, reported without it', async () => {
    assert.deepEqual(await findingLines(AFTER_IF, 'ATT003'), []);
    assert.deepEqual(await findingLines(AFTER_IF.replace('        q = q * self.scale\n', ''), 'ATT003'), [13]);
  });
  it('a helper that calls itself, reached from a caller that pre-scales q: silent; unscaled: reported', async () => {
    assert.deepEqual(await findingLines(RECURSIVE, 'ATT003'), []);
    assert.deepEqual(await findingLines(RECURSIVE.replace('    q = q * (d // heads) ** -0.5\n', ''), 'ATT003'), [15]);
  });
  it('cross-file: the head width the caller scales by comes from the config module: silent; unscaled: reported', async () => {
    const model = PRE_SCALED.replace('import torch\n', 'import torch\nfrom config import HEAD_DIM\n').replace(
      '        q = q * self.scale\n',
      '        q = q * HEAD_DIM ** -0.5\n',
    );
    const config = 'HEAD_DIM = 64\nN_HEADS = 8\n';
    assert.deepEqual(await workspaceFindingLines({ 'model.py': model, 'config.py': config }, 'model.py', 'ATT003'), []);
    const bug = model.replace('        q = q * HEAD_DIM ** -0.5\n', '');
    assert.deepEqual(await workspaceFindingLines({ 'model.py': bug, 'config.py': config }, 'model.py', 'ATT003'), [15]);
  });
});
