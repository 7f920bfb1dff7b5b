// Session 32 (trainop32a, training folders o and p). Three classes met first in the new training folders:
// 1. ATT008: a path condition that proves the KV cache empty (the keys' length minus the queries' is zero, or the two
//    lengths equal), also through a local flag bound once to it (`use_sdpa = self.training and past_len == 0`), makes a
//    top-left `is_causal=True` right there (t22o-03-clean).
// 2. ATT002 through a module chosen by a switch: `self.attention` built from one of two classes (`if cfg.use_gqa:`)
//    is called as each of them whose forward takes the call's arguments, in this file and from an importing one
//    (t22o-01-mask, t22o-02-mask: the mask built in the model reaches the SDPA call of one of two attention classes).
// 3. ATT002 through dtype arms: `if mask.dtype == torch.bool:` / `torch.is_floating_point(mask)` is known where the
//    mask's dtype is, so only the arm for the mask the code really holds runs (a site in a dead arm is not judged),
//    and a fill of the parameter in such an arm states its meaning for that dtype only (t22o-01-mask's gqa.py).
import { strict as assert } from 'node:assert';
import { dtypeEquality } from '../../../src/lint/analysis/mask-ops';
import { findingLines, workspaceFindingLines } from './helpers';

const GUARDED_FAST_PATH = `import torch
import torch.nn as nn
import torch.nn.functional as F


class CachedAttention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.head_dim = dim // heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.out = nn.Linear(dim, dim)

    def forward(self, x, past=None):
        b, t, _ = x.shape
        q, k, v = self.qkv(x).view(b, t, 3, self.heads, self.head_dim).permute(2, 0, 3, 1, 4)
        if past is not None:
            k = torch.cat([past[0], k], dim=2)
            v = torch.cat([past[1], v], dim=2)
        k_len = k.shape[2]
        past_len = k_len - t
        use_fast = self.training and past_len == 0
        if use_fast:
            y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        else:
            scores = (q @ k.transpose(-2, -1)) / self.head_dim ** 0.5
            rows = torch.arange(t, device=x.device)[:, None] + past_len
            cols = torch.arange(k_len, device=x.device)[None, :]
            scores = scores.masked_fill(cols > rows, float("-inf"))
            y = scores.softmax(dim=-1) @ v
        return self.out(y.transpose(1, 2).reshape(b, t, -1)), (k, v)
`;

const sub = (from: string, to: string): string => {
  assert.ok(GUARDED_FAST_PATH.includes(from), from);
  return GUARDED_FAST_PATH.replace(from, to);
};

describe('lint: a path condition proving the KV cache empty silences the cached-causal reading (ATT008)', () => {
  it('is_causal=True under a flag bound to `... and past_len == 0`, past_len = keys length - query length: silent', async () => {
    assert.deepEqual(await findingLines(GUARDED_FAST_PATH, 'ATT008'), []);
  });
  it('the guard written in place (`if past_len == 0:`, `if not past_len:`, `if k_len - t == 0:`): silent', async () => {
    assert.deepEqual(await findingLines(sub('if use_fast:', 'if past_len == 0:'), 'ATT008'), []);
    assert.deepEqual(await findingLines(sub('if use_fast:', 'if not past_len:'), 'ATT008'), []);
    assert.deepEqual(await findingLines(sub('if use_fast:', 'if k_len - t == 0:'), 'ATT008'), []);
  });
  it('the SDPA call in the arm after a cached test failed (`if past_len > 0:` / `if past_len:` ... else): silent', async () => {
    const flipped = (cond: string) =>
      sub(
        'use_fast = self.training and past_len == 0\n        if use_fast:\n            y = F.scaled_dot_product_attention(q, k, v, is_causal=True)\n        else:',
        `if ${cond}:\n            y = None\n        else:\n            y = F.scaled_dot_product_attention(q, k, v, is_causal=True)\n        if y is None:`,
      );
    assert.deepEqual(await findingLines(flipped('past_len > 0'), 'ATT008'), []);
    assert.deepEqual(await findingLines(flipped('past_len'), 'ATT008'), []);
    assert.deepEqual(await findingLines(flipped('0 != past_len'), 'ATT008'), []);
  });
  it('the two lengths compared through a flag (`same = k.shape[2] == q.shape[2]`): silent', async () => {
    assert.deepEqual(await findingLines(sub('use_fast = self.training and past_len == 0', 'use_fast = k.shape[2] == q.shape[2]'), 'ATT008'), []);
  });
  it('no guard at all on cached keys (the bug the class is about): reported at is_causal', async () => {
    // A flag the code does not show (`self.use_flash`). `self.training` alone is read False where a cache decodes
    // (session 34: generation runs in eval mode), so `use_fast = self.training` excuses the path like `is_causal=self.training`.
    assert.deepEqual(await findingLines(sub('self.training and past_len == 0', 'self.use_flash'), 'ATT008'), [24]);
    assert.deepEqual(await findingLines(sub('self.training and past_len == 0', 'self.training'), 'ATT008'), []);
  });
  it('a zero test joined by `or`, or a cached arm (`past_len > 0` holding): still reported', async () => {
    assert.deepEqual(await findingLines(sub('self.training and past_len == 0', 'self.training or past_len == 0'), 'ATT008'), [24]);
    assert.deepEqual(await findingLines(sub('self.training and past_len == 0', 'past_len > 0'), 'ATT008'), [24]);
    assert.deepEqual(await findingLines(sub('self.training and past_len == 0', 'not (past_len == 0)'), 'ATT008'), [24]);
  });
  it('the length read before the keys are joined with the cache (always zero, proves nothing): still reported', async () => {
    const early = sub('        k_len = k.shape[2]\n', '')
      .replace('self.training and', 'self.use_flash and')
      .replace('        if past is not None:\n', '        k_len = k.shape[2]\n        if past is not None:\n');
    assert.deepEqual(await findingLines(early, 'ATT008'), [24]);
  });
  it('a difference read off other tensors, or a flag bound twice: still reported', async () => {
    const unshown = (code: string) => code.replace('self.training and', 'self.use_flash and');
    assert.deepEqual(await findingLines(unshown(sub('k_len = k.shape[2]', 'k_len = v.shape[2] + 0 * k.shape[2]')), 'ATT008'), [24]);
    const twice = unshown(sub('        if use_fast:', '        if past is not None:\n            use_fast = True\n        if use_fast:'));
    assert.deepEqual(await findingLines(twice, 'ATT008'), [26]);
  });
});

const SWITCHED_MODULE = `import torch
import torch.nn as nn
import torch.nn.functional as F


class PlainAttention(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.qkv = nn.Linear(d, 3 * d)

    def forward(self, x, mask=None):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        return F.scaled_dot_product_attention(q, k, v, mask)


class GroupedAttention(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.qkv = nn.Linear(d, 3 * d)

    def forward(self, x, attention_mask=None):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        keep = attention_mask.bool() if attention_mask is not None else None
        return F.scaled_dot_product_attention(q, k, v, attn_mask=keep)


class Block(nn.Module):
    def __init__(self, d, grouped):
        super().__init__()
        if grouped:
            self.attention = GroupedAttention(d)
        else:
            self.attention = PlainAttention(d)

    def forward(self, x, mask=None):
        return x + self.attention(x, mask)


class TinyLM(nn.Module):
    def __init__(self, d, n, grouped=False):
        super().__init__()
        self.blocks = nn.ModuleList([Block(d, grouped) for _ in range(n)])

    def forward(self, x):
        t = x.shape[1]
        mask = torch.tril(torch.ones(t, t)).to(x.device)
        for block in self.blocks:
            x = block(x, mask)
        return x
`;

const ATTN_FILE = `import torch
import torch.nn as nn
import torch.nn.functional as F


class PlainAttention(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.qkv = nn.Linear(d, 3 * d)

    def forward(self, x, mask=None):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        return F.scaled_dot_product_attention(q, k, v, mask)


class GroupedAttention(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.qkv = nn.Linear(d, 3 * d)

    def forward(self, x, attention_mask=None):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        keep = attention_mask.bool() if attention_mask is not None else None
        return F.scaled_dot_product_attention(q, k, v, attn_mask=keep)
`;

const MODEL_FILE = `import torch
import torch.nn as nn

from .attn import GroupedAttention, PlainAttention


class Block(nn.Module):
    def __init__(self, d, grouped):
        super().__init__()
        if grouped:
            self.attention = GroupedAttention(d)
        else:
            self.attention = PlainAttention(d)

    def forward(self, x, mask=None):
        return x + self.attention(x, mask)


class TinyLM(nn.Module):
    def __init__(self, d, n, grouped=False):
        super().__init__()
        self.blocks = nn.ModuleList([Block(d, grouped) for _ in range(n)])

    def forward(self, x):
        t = x.shape[1]
        mask = torch.tril(torch.ones(t, t)).to(x.device)
        for block in self.blocks:
            x = block(x, mask)
        return x
`;

describe('lint: a module attribute built from one of several classes runs each as called (ATT002)', () => {
  it('a float keep mask reaching one choice that hands it to SDPA positionally: reported there', async () => {
    assert.deepEqual(await findingLines(SWITCHED_MODULE, 'ATT002'), [13]);
  });
  it('the fixed form (`mask.bool()` in that choice): silent', async () => {
    const fixed = SWITCHED_MODULE.replace('(q, k, v, mask)', '(q, k, v, mask.bool())');
    assert.deepEqual(await findingLines(fixed, 'ATT002'), []);
  });
  it('a call by a keyword only the other choice takes (`attention_mask=mask`): the first is not run with it', async () => {
    const keyword = SWITCHED_MODULE.replace('self.attention(x, mask)', 'self.attention(x, attention_mask=mask)');
    assert.deepEqual(await findingLines(keyword, 'ATT002'), []);
  });
  it('cross-file: the classes in attn.py, the switch and the mask in model.py: reported in attn.py', async () => {
    const files = { 'pkg/__init__.py': '', 'pkg/attn.py': ATTN_FILE, 'pkg/model.py': MODEL_FILE };
    assert.deepEqual(await workspaceFindingLines(files, 'pkg/attn.py', 'ATT002'), [13]);
    const fixed = { ...files, 'pkg/model.py': MODEL_FILE.replace('torch.tril(torch.ones(t, t))', 'torch.tril(torch.ones(t, t, dtype=torch.bool))') };
    assert.deepEqual(await workspaceFindingLines(fixed, 'pkg/attn.py', 'ATT002'), []);
  });
});

const DTYPE_ARMS = `import torch
import torch.nn.functional as F


def attend(q, k, v, mask=None, use_sdpa=True):
    if use_sdpa:
        attn_mask = mask
        if mask is not None and mask.dtype != torch.bool:
            attn_mask = mask == 0
        return F.scaled_dot_product_attention(q, k, v, attn_mask=attn_mask)
    scores = q @ k.transpose(-2, -1) / q.shape[-1] ** 0.5
    if mask is not None:
        if mask.dtype == torch.bool:
            scores = scores.masked_fill(mask, float("-inf"))
        else:
            scores = scores + (1.0 - mask) * -1e9
    return scores.softmax(dim=-1) @ v


def model(q, k, v):
    t = q.shape[-2]
    future = torch.triu(torch.ones(t, t, dtype=torch.bool), diagonal=1)
    return attend(q, k, v, future), attend(q, k, v, future, use_sdpa=False)
`;

describe('lint: dtype arms run only for the mask the code holds (ATT002)', () => {
  it('a boolean mask True on the future handed to SDPA through the bool arm: reported; its other arms are not judged', async () => {
    assert.deepEqual(await findingLines(DTYPE_ARMS, 'ATT002'), [10]);
  });
  it('the fixed form (the caller passes the keep triangle): silent, the float arm included', async () => {
    const fixed = DTYPE_ARMS.replace('torch.triu(torch.ones(t, t, dtype=torch.bool), diagonal=1)', 'torch.tril(torch.ones(t, t, dtype=torch.bool))').replace(
      'scores.masked_fill(mask, float("-inf"))',
      'scores.masked_fill(~mask, float("-inf"))',
    );
    assert.deepEqual(await findingLines(fixed, 'ATT002'), []);
  });
  it('a float keep mask from the caller takes the float arms (`mask == 0`, `(1.0 - mask) * -1e9`): silent', async () => {
    const float = DTYPE_ARMS.replace('torch.triu(torch.ones(t, t, dtype=torch.bool), diagonal=1)', 'torch.tril(torch.ones(t, t))').replace(
      'mask == 0',
      'mask != 0',
    );
    assert.deepEqual(await findingLines(float, 'ATT002'), []);
  });
  it('torch.is_floating_point(mask) decides the same way', async () => {
    const fp = DTYPE_ARMS.replace('mask.dtype != torch.bool', 'torch.is_floating_point(mask)');
    assert.deepEqual(await findingLines(fp, 'ATT002'), [10]);
  });
  it('no caller (the dtype unknown): the bool-arm fill states nothing about the float arm, silent', async () => {
    const alone = DTYPE_ARMS.slice(0, DTYPE_ARMS.indexOf('def model('));
    assert.deepEqual(await findingLines(alone, 'ATT002'), []);
  });
  it('dtype equality: kinds that differ are unequal; a float of unknown width against another float says nothing', () => {
    assert.equal(dtypeEquality('bool', 'float'), false);
    assert.equal(dtypeEquality('int', 'bool'), false);
    assert.equal(dtypeEquality('bool', 'bool'), true);
    assert.equal(dtypeEquality('float16', 'float32'), false);
    assert.equal(dtypeEquality('float', 'float16'), undefined);
    assert.equal(dtypeEquality('float', 'float'), undefined);
  });
});
