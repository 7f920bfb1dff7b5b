// Classes of real bugs the linter missed, seen by the session 28 precision scan (precscan8b,
// test/lint-scan/results/2026-12-04-scan-precscan8b.md), written fresh with their correct forms (silent) and, where the
// evidence can sit in another file, a cross-file pair.
//  1. ATT002: a keep mask made additive with the subtraction the wrong way round, `(keep - 1.0) * -10000.0` (+10000 at
//     the padding, 0 at the kept keys): `keep - 1` is the flipped mask negated, so the sign of the constant decides.
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

const BERT = `import math
import torch
import torch.nn as nn


class SelfAttention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)

    def forward(self, x, bias):
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.heads, C // self.heads).permute(2, 0, 3, 1, 4)
        scores = q @ k.transpose(-2, -1) / math.sqrt(C // self.heads)
        scores = scores + bias
        return (scores.softmax(dim=-1) @ v).transpose(1, 2).reshape(B, T, C)


class Encoder(nn.Module):
    def __init__(self, vocab, dim, heads, pad_id=0):
        super().__init__()
        self.pad_id = pad_id
        self.embed = nn.Embedding(vocab, dim)
        self.attn = SelfAttention(dim, heads)

    def forward(self, input_ids):
        keep = (input_ids != self.pad_id).long()
        extended = keep[:, None, None, :].to(torch.float32)
        extended = EXTENDED
        return self.attn(self.embed(input_ids), extended)
`;

const bert = (form: string): string => BERT.replace('EXTENDED', form);

// [the additive mask built from `extended` (1 at tokens, 0 at padding), the line of the ATT002 finding or undefined]
const SIGN_FORMS: readonly (readonly [string, number | undefined])[] = [
  // Correct: 0 at the tokens, a large negative number at the padding.
  ['(1.0 - extended) * -10000.0', undefined],
  ['(extended - 1.0) * 10000.0', undefined],
  ['(1 - extended) * torch.finfo(torch.float32).min', undefined],
  ['(extended - 1) * torch.finfo(torch.float32).max', undefined],
  ['(extended - 1.0) * 1e9', undefined],
  ['10000.0 * (extended - 1.0)', undefined],
  // Buggy: the subtraction the wrong way round for the sign of the constant, +10000 (or more) at the padding.
  ['(extended - 1.0) * -10000.0', 30],
  ['(extended - 1) * torch.finfo(torch.float32).min', 30],
  ['-1e9 * (extended - 1.0)', 30],
  // A large positive number added: right on the kept side (the same after softmax as the padding side made negative),
  // wrong on the padding side (reported where it is added to the scores).
  ['extended * 10000.0', undefined],
  ['(1.0 - extended) * 10000.0', 16],
];

describe('lint: a keep mask made additive with the sign carried through `keep - 1` (ATT002)', () => {
  for (const [form, line] of SIGN_FORMS) {
    it(`${line === undefined ? 'silent' : `reported at ${line}`}: ${form}`, async () => {
      assert.deepEqual(await findingLines(bert(form), 'ATT002'), line === undefined ? [] : [line]);
    });
  }
  it('a mask read as nonzero after `- 1` (`masked_fill(keep - 1, -inf)`: fills the padding) stays silent', async () => {
    const src = BERT.replace('scores = scores + bias', 'scores = scores.masked_fill(bias != 0, float("-inf"))').replace('EXTENDED', 'extended - 1');
    assert.deepEqual(await findingLines(src, 'ATT002'), []);
  });
  it('a parameter known only by its name (`attention_mask`) is not evidence: silent', async () => {
    const src = `import torch


def extended_bias(attention_mask):
    return (attention_mask[:, None, None, :].float() - 1.0) * -10000.0
`;
    assert.deepEqual(await findingLines(src, 'ATT002'), []);
  });
});

const HELPER = `import torch


def extended_bias(attention_mask, dtype):
    return (attention_mask[:, None, None, :].to(dtype) - 1.0) * SIGN
`;

const MODEL = `import math
import torch
from utils.masks import extended_bias

PAD_ID = 0


def attend(input_ids, q, k, v):
    bias = extended_bias((input_ids != PAD_ID).long(), q.dtype)
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
    return (scores + bias).softmax(dim=-1) @ v
`;

describe('lint: cross-file, the keep mask built in the model and made additive by a helper of another file (ATT002)', () => {
  it('buggy helper, `(attention_mask - 1.0) * -10000.0`: reported in the helper', async () => {
    const files = { 'utils/masks.py': HELPER.replace('SIGN', '-10000.0'), 'models/model.py': MODEL };
    assert.deepEqual(await workspaceFindingLines(files, 'utils/masks.py', 'ATT002'), [5]);
  });
  it('correct helper, `(attention_mask - 1.0) * 10000.0`: silent', async () => {
    const files = { 'utils/masks.py': HELPER.replace('SIGN', '10000.0'), 'models/model.py': MODEL };
    assert.deepEqual(await workspaceFindingLines(files, 'utils/masks.py', 'ATT002'), []);
  });
});

//  2. ATT008: cached keys repeated for grouped-query attention keep the fact that they are cached (the repeat keeps the
//     key axis and its length); keys read back from a paged or block cache the function has just written keep it too.
const GQA = `import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self, dim, n_heads, n_kv_heads):
        super().__init__()
        self.n_heads = n_heads
        self.n_kv_heads = n_kv_heads
        self.n_rep = n_heads // n_kv_heads
        self.head_dim = dim // n_heads
        self.wq = nn.Linear(dim, n_heads * self.head_dim)
        self.wk = nn.Linear(dim, n_kv_heads * self.head_dim)
        self.wv = nn.Linear(dim, n_kv_heads * self.head_dim)

    def forward(self, x, past_kv=None):
        B, T, C = x.shape
        q = self.wq(x).view(B, T, self.n_heads, self.head_dim).transpose(1, 2)
        k = self.wk(x).view(B, T, self.n_kv_heads, self.head_dim).transpose(1, 2)
        v = self.wv(x).view(B, T, self.n_kv_heads, self.head_dim).transpose(1, 2)
        if past_kv is not None:
            k = torch.cat([past_kv[0], k], dim=2)
            v = torch.cat([past_kv[1], v], dim=2)
        present = (k, v)
        k = REPEAT_K
        v = REPEAT_V
        out = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        return out.transpose(1, 2).reshape(B, T, C), present
`;

const gqa = (k: string): string => GQA.replace('REPEAT_K', k).replace('REPEAT_V', k.replace(/\bk\b/g, 'v'));

const REPEATS = [
  'k.repeat_interleave(self.n_rep, dim=1)',
  'torch.repeat_interleave(k, self.n_rep, dim=1)',
  'torch.repeat_interleave(k, repeats=self.n_rep, dim=1)',
  'k.repeat(1, self.n_rep, 1, 1)',
  'k[:, :, None, :, :].expand(B, self.n_kv_heads, self.n_rep, k.size(2), self.head_dim).reshape(B, self.n_heads, k.size(2), self.head_dim)',
];

describe('lint: cached keys repeated for grouped-query attention (ATT008)', () => {
  for (const r of REPEATS) {
    it(`reported: ${r} on keys joined with the cache, then is_causal=True`, async () => {
      assert.deepEqual(await findingLines(gqa(r), 'ATT008'), [28]);
    });
  }
  it('silent: the same repeat with no cache joined', async () => {
    const src = gqa('k.repeat_interleave(self.n_rep, dim=1)').replace(/ {8}if past_kv is not None:\n.*\n.*\n/, '');
    assert.deepEqual(await findingLines(src, 'ATT008'), []);
  });
  it('silent: the repeated cached keys with a bottom-right causal mask', async () => {
    const src = gqa('k.repeat_interleave(self.n_rep, dim=1)').replace(
      'is_causal=True)',
      'attn_mask=torch.ones(T, k.size(2), dtype=torch.bool, device=x.device).tril(diagonal=k.size(2) - T))',
    );
    assert.deepEqual(await findingLines(src, 'ATT008'), []);
  });
  it('reported: a top-left causal buffer sliced [:T, :S] on the repeated cached keys', async () => {
    const src = gqa('k.repeat_interleave(self.n_rep, dim=1)')
      .replace('self.head_dim = dim // n_heads', "self.head_dim = dim // n_heads\n        self.register_buffer('tril', torch.tril(torch.ones(1024, 1024)))")
      .replace(
        'out = F.scaled_dot_product_attention(q, k, v, is_causal=True)',
        "att = (q @ k.transpose(-2, -1)) * self.head_dim ** -0.5\n        att = att.masked_fill(self.tril[:T, :k.size(2)] == 0, float('-inf'))\n        out = att.softmax(dim=-1) @ v",
      );
    assert.deepEqual(await findingLines(src, 'ATT008'), [30]);
  });
});

const REPEAT_HELPER = `import torch


def repeat_kv(x, n_rep):
    return torch.repeat_interleave(x, n_rep, dim=1)
`;

describe('lint: cross-file, cached keys repeated by a helper of another file (ATT008)', () => {
  const model = GQA.replace('import torch.nn.functional as F', 'import torch.nn.functional as F\nfrom utils.gqa import repeat_kv')
    .replace('REPEAT_K', 'repeat_kv(k, self.n_rep)')
    .replace('REPEAT_V', 'repeat_kv(v, self.n_rep)');
  it('reported in the model', async () => {
    assert.deepEqual(await workspaceFindingLines({ 'utils/gqa.py': REPEAT_HELPER, 'models/attn.py': model }, 'models/attn.py', 'ATT008'), [29]);
  });
  it('silent without the cache', async () => {
    const src = model.replace(/ {8}if past_kv is not None:\n.*\n.*\n/, '');
    assert.deepEqual(await workspaceFindingLines({ 'utils/gqa.py': REPEAT_HELPER, 'models/attn.py': src }, 'models/attn.py', 'ATT008'), []);
  });
});

// Keys read back from a per-layer buffer or a paged cache object that this function has just written.
const LAYERED = `import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self, dim, heads, n_layers, max_len, batch):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.k_cache = [torch.zeros(batch, heads, max_len, dim // heads) for _ in range(n_layers)]
        self.v_cache = [torch.zeros(batch, heads, max_len, dim // heads) for _ in range(n_layers)]

    def forward(self, x, layer_idx, start_pos):
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.heads, C // self.heads).permute(2, 0, 3, 1, 4)
        WRITE
        keys = self.k_cache[layer_idx][:B, :, :start_pos + T]
        values = self.v_cache[layer_idx][:B, :, :start_pos + T]
        out = F.scaled_dot_product_attention(q, keys, values, is_causal=True)
        return out.transpose(1, 2).reshape(B, T, C)
`;

const WRITES = 'self.k_cache[layer_idx][:B, :, start_pos:start_pos + T] = k\n        self.v_cache[layer_idx][:B, :, start_pos:start_pos + T] = v';

const PAGED = `import torch
import torch.nn as nn
import torch.nn.functional as F
from cache import PagedKVCache


class Attention(nn.Module):
    def __init__(self, dim, heads, max_len):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.kv_cache = PagedKVCache(heads, dim // heads, max_len)

    def forward(self, x, seq_id, positions):
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.heads, C // self.heads).permute(2, 0, 3, 1, 4)
        WRITE
        keys = self.kv_cache.k_cache[:, :, :READ]
        values = self.kv_cache.v_cache[:, :, :READ]
        out = F.scaled_dot_product_attention(q, keys, values, is_causal=True)
        return out.transpose(1, 2).reshape(B, T, C)
`;

const paged = (write: string, read = 'positions.max() + 1'): string => PAGED.replace('WRITE', write).replace(/READ/g, read);

describe('lint: keys read back from a per-layer buffer or a paged cache the function writes (ATT008)', () => {
  it('reported: a per-layer buffer written at the new positions and read from 0', async () => {
    assert.deepEqual(await findingLines(LAYERED.replace('WRITE', WRITES), 'ATT008'), [21]);
  });
  it('silent: the per-layer buffer read but never written here', async () => {
    assert.deepEqual(await findingLines(LAYERED.replace('WRITE', 'pass'), 'ATT008'), []);
  });
  it('reported: a paged cache handed the new keys, then its buffer read from 0', async () => {
    assert.deepEqual(await findingLines(paged('self.kv_cache.update_cache(seq_id, positions, k, v)'), 'ATT008'), [20]);
  });
  it('silent: the paged buffer read with no write in view', async () => {
    assert.deepEqual(await findingLines(paged('pass'), 'ATT008'), []);
  });
  it('silent: only the new positions read back (a window that holds no earlier key)', async () => {
    const src = paged('self.kv_cache.update_cache(seq_id, positions, k, v)').replace(/\[:, :, :positions.max\(\) \+ 1\]/g, '[:, :, positions]');
    assert.deepEqual(await findingLines(src, 'ATT008'), []);
  });
  it('silent: a bottom-right mask on the keys read back', async () => {
    const src = paged('self.kv_cache.update_cache(seq_id, positions, k, v)').replace(
      'is_causal=True)',
      'attn_mask=torch.ones(T, keys.size(2), dtype=torch.bool).tril(diagonal=keys.size(2) - T))',
    );
    assert.deepEqual(await findingLines(src, 'ATT008'), []);
  });
});

//  3. An in-place fill through a view (`scores.view(B, H, T, S).masked_fill_(...)`, `w[:, :, :T, :T].masked_fill_(...)`)
//     writes into the storage of the base tensor: the base is masked (here: the scores are masked before the softmax,
//     so re-zeroing the padding after it is no ATT006 finding).
const VIEW_FILL = `import torch
import torch.nn.functional as F


def attend(q, k, v, pad_mask, bsz, heads):
    # q, k, v: (bsz * heads, len, head_dim); pad_mask: (bsz, len_k), True at padding
    len_q, len_k = q.size(1), k.size(1)
    scores = torch.bmm(q, k.transpose(1, 2)) * q.size(-1) ** -0.5
    FILL
    weights = F.softmax(scores, dim=-1)
    weights = weights * (~pad_mask).repeat_interleave(heads, dim=0)[:, None, :].float()
    return torch.bmm(weights, v)
`;

const VIEW_FILLS = [
  "scores.view(bsz, heads, len_q, len_k).masked_fill_(pad_mask[:, None, None, :], float('-inf'))",
  "scores.unsqueeze(0).masked_fill_(pad_mask.repeat_interleave(heads, dim=0)[None, :, None, :], float('-inf'))",
  "scores[:, :, :].masked_fill_(pad_mask.repeat_interleave(heads, dim=0)[:, None, :], float('-inf'))",
  "scores.view(bsz, heads, len_q, len_k).transpose(1, 2).masked_fill_(pad_mask[:, None, None, :], float('-inf'))",
];

describe('lint: an in-place fill through a view masks the base tensor (ATT006)', () => {
  for (const f of VIEW_FILLS) {
    it(`silent: ${f}`, async () => {
      assert.deepEqual(await findingLines(VIEW_FILL.replace('FILL', f), 'ATT006'), []);
    });
  }
  it('reported: nothing masks the scores before the softmax', async () => {
    assert.deepEqual(await findingLines(VIEW_FILL.replace('FILL', 'pass'), 'ATT006'), [11]);
  });
  it('reported: the fill writes into a copy (advanced indexing, `scores[idx]`), not into the scores', async () => {
    const src = VIEW_FILL.replace(
      'FILL',
      "scores[torch.arange(scores.size(0))].masked_fill_(pad_mask.repeat_interleave(heads, dim=0)[:, None, :], float('-inf'))",
    );
    assert.deepEqual(await findingLines(src, 'ATT006'), [11]);
  });
  it('reported: the fill writes into a copy (`reshape` after a transpose may copy; not read as a view)', async () => {
    const src = VIEW_FILL.replace('FILL', "scores.transpose(1, 2).reshape(bsz, heads, len_k, len_q).masked_fill_(pad_mask[:, None, :, None], float('-inf'))");
    assert.deepEqual(await findingLines(src, 'ATT006'), [11]);
  });
});
