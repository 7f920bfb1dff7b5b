// ATT008's matrix of KV-cache forms × causal-mask forms: small natural snippets, each the buggy form and its fixed
// form, written from what the APIs mean rather than from known cases. PyTorch's is_causal=True (and
// causal_upper_left, xformers' LowerTriangularMask) is aligned top-left: with L queries over S > L keys query i sees
// keys 0..i, so on keys that include a cache the new tokens lose the latest cached keys (a one-token decode step sees
// only key 0). Bottom-right forms (tril(diagonal=S - L), rows start_pos:start_pos+T of a causal buffer, Llama's
// triu(1) + hstack of zeros, causal_lower_right, flash-attn's causal=True since 2.1, xformers'
// LowerTriangularFromBottomRightMask) are right. Keys count as including a cache only on evidence that the cache
// reaches them (a concatenation, a cache's update, a slice written then read back), not on a name alone.
// `today` records the cells today's linter decides wrongly (the lines it reports; [] = silent), so each fix
// removes the `today` of the cells it changes. A cell that is another cell's program with one change (most often a
// correct cell: the buggy one with its causal form fixed) is written as that change, `of` the other cell's id and the
// `replace`ments made in its code, so that the difference is what a reader sees.
import { strict as assert } from 'node:assert';
import { createLinter } from '../../../src/lint';
import { grammar, linter, memoryWorkspace } from './helpers';

interface Cell {
  readonly id: string;
  /** The cache form: how the keys come to include the cache. */
  readonly form: string;
  /** The causal form applied to the scores. */
  readonly causal: string;
  readonly code: string;
  /** Text on the line the finding belongs to; absent for correct code. */
  readonly bugAt?: string;
  /** Today's wrong decision: texts on the lines reported today ([] = nothing reported). */
  readonly today?: readonly string[];
  /** Also check the fixed form: is_causal=True replaced by a bottom-right aligned boolean mask. */
  readonly bottomRightFix?: boolean;
}

/** A cell whose program is another cell's (`of`, written in full) with each `[text, by]` of `replace` made everywhere. */
interface ChangedCell extends Omit<Cell, 'code'> {
  readonly of: string;
  readonly replace: readonly (readonly [text: string, by: string])[];
}

/** The cell's program: written in full, or the other cell's with the replacements made (each text must be there). */
function programOf(cell: Cell | ChangedCell, cells: readonly (Cell | ChangedCell)[]): string {
  if (!('of' in cell)) return cell.code;
  const base = cells.find((c) => c.id === cell.of);
  assert.ok(base && 'code' in base, `${cell.id}: ${cell.of} is a cell written in full`);
  let code = base.code;
  for (const [text, by] of cell.replace) {
    assert.ok(code.includes(text), `${cell.id}: ${cell.of} holds ${JSON.stringify(text)}`);
    code = code.split(text).join(by);
  }
  return code;
}

const WRITTEN: readonly (Cell | ChangedCell)[] = [
  {
    id: 'tuple_cat_is_causal',
    form: 'tuple past_key_value + torch.cat',
    causal: 'is_causal=True',
    code: `import torch
import torch.nn.functional as F


def attend(q, k, v, past_key_value=None):
    if past_key_value is not None:
        past_k, past_v = past_key_value
        k = torch.cat([past_k, k], dim=-2)
        v = torch.cat([past_v, v], dim=-2)
    return F.scaled_dot_product_attention(q, k, v, is_causal=True), (k, v)
`,
    bugAt: 'is_causal=True',
    bottomRightFix: true,
  },
  {
    id: 'tuple_cat_bottom_right',
    form: 'tuple past_key_value + torch.cat',
    causal: 'tril(diagonal=S - L) attn_mask',
    of: 'tuple_cat_is_causal',
    replace: [
      [
        '    return F.scaled_dot_product_attention(q, k, v, is_causal=True), (k, v)\n',
        '    L, S = q.size(-2), k.size(-2)\n    keep = torch.ones(L, S, dtype=torch.bool, device=q.device).tril(diagonal=S - L)\n    return F.scaled_dot_product_attention(q, k, v, attn_mask=keep), (k, v)\n',
      ],
    ],
  },
  {
    id: 'tuple_cat_causal_only_prefill',
    form: 'tuple past_key_value + torch.cat',
    causal: 'is_causal=past is None',
    of: 'tuple_cat_is_causal',
    replace: [['is_causal=True', 'is_causal=past_key_value is None']],
  },
  {
    id: 'hf_update_is_causal',
    form: 'Cache.update(k, v, layer_idx)',
    causal: 'is_causal=True',
    code: `import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self, dim, layer_idx):
        super().__init__()
        self.qkv = nn.Linear(dim, 3 * dim)
        self.layer_idx = layer_idx

    def forward(self, x, past_key_value=None):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        if past_key_value is not None:
            k, v = past_key_value.update(k, v, self.layer_idx)
        return F.scaled_dot_product_attention(q, k, v, is_causal=True)
`,
    bugAt: 'is_causal=True',
    bottomRightFix: true,
  },
  {
    id: 'hf_update_hf_flag',
    form: 'Cache.update(k, v, layer_idx)',
    causal: 'is_causal = causal_mask is None and q_len > 1',
    code: `import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self, dim, layer_idx):
        super().__init__()
        self.qkv = nn.Linear(dim, 3 * dim)
        self.layer_idx = layer_idx
        self.is_causal = True

    def forward(self, x, attention_mask=None, past_key_value=None):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        q_len = q.shape[-2]
        if past_key_value is not None:
            k, v = past_key_value.update(k, v, self.layer_idx)
        causal_mask = attention_mask
        if attention_mask is not None:
            causal_mask = causal_mask[:, :, :, : k.shape[-2]]
        is_causal = True if causal_mask is None and q_len > 1 else False
        return F.scaled_dot_product_attention(q, k, v, attn_mask=causal_mask, is_causal=is_causal)
`,
  },
  {
    id: 'hf_update_causal_only_without_cache',
    form: 'Cache.update(k, v, layer_idx)',
    causal: 'is_causal=cache is None (prefill unmasked)',
    code: `import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self, dim, layer_idx):
        super().__init__()
        self.qkv = nn.Linear(dim, 3 * dim)
        self.layer_idx = layer_idx

    def forward(self, x, past_key_value=None):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        if past_key_value is not None:
            k, v = past_key_value.update(k, v, self.layer_idx)
        return F.scaled_dot_product_attention(q, k, v, is_causal=past_key_value is None)
`,
    bugAt: 'is_causal=past_key_value is None',
  },
  {
    id: 'hf_update_causal_q_len',
    form: 'Cache.update(k, v, layer_idx)',
    causal: 'is_causal=q_len > 1',
    of: 'hf_update_is_causal',
    replace: [['is_causal=True', 'is_causal=q.shape[-2] > 1']],
  },
  {
    id: 'llama_prealloc_is_causal',
    form: 'preallocated cache_k[:bsz, start_pos:start_pos+T] = xk',
    causal: 'is_causal=True',
    code: `import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self, dim, max_batch, max_seq):
        super().__init__()
        self.wq = nn.Linear(dim, dim)
        self.wk = nn.Linear(dim, dim)
        self.wv = nn.Linear(dim, dim)
        self.cache_k = torch.zeros(max_batch, max_seq, dim)
        self.cache_v = torch.zeros(max_batch, max_seq, dim)

    def forward(self, x, start_pos):
        bsz, seqlen, _ = x.shape
        xq, xk, xv = self.wq(x), self.wk(x), self.wv(x)
        self.cache_k[:bsz, start_pos : start_pos + seqlen] = xk
        self.cache_v[:bsz, start_pos : start_pos + seqlen] = xv
        keys = self.cache_k[:bsz, : start_pos + seqlen]
        values = self.cache_v[:bsz, : start_pos + seqlen]
        return F.scaled_dot_product_attention(xq, keys, values, is_causal=True)
`,
    bugAt: 'is_causal=True',
    bottomRightFix: true,
  },
  {
    id: 'llama_prealloc_hstack_mask',
    form: 'preallocated cache_k[:bsz, start_pos:start_pos+T] = xk',
    causal: 'full(-inf).triu(1) + hstack(zeros(T, start_pos))',
    code: `import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self, dim, max_batch, max_seq):
        super().__init__()
        self.wq = nn.Linear(dim, dim)
        self.wk = nn.Linear(dim, dim)
        self.wv = nn.Linear(dim, dim)
        self.cache_k = torch.zeros(max_batch, max_seq, dim)
        self.cache_v = torch.zeros(max_batch, max_seq, dim)

    def forward(self, x, start_pos):
        bsz, seqlen, _ = x.shape
        xq, xk, xv = self.wq(x), self.wk(x), self.wv(x)
        self.cache_k[:bsz, start_pos : start_pos + seqlen] = xk
        self.cache_v[:bsz, start_pos : start_pos + seqlen] = xv
        keys = self.cache_k[:bsz, : start_pos + seqlen]
        values = self.cache_v[:bsz, : start_pos + seqlen]
        mask = torch.full((seqlen, seqlen), float("-inf"), device=x.device)
        mask = torch.triu(mask, diagonal=1)
        mask = torch.hstack([torch.zeros((seqlen, start_pos), device=x.device), mask])
        scores = torch.matmul(xq, keys.transpose(1, 2)) / xq.size(-1) ** 0.5
        scores = scores + mask
        return torch.matmul(torch.softmax(scores, dim=-1), values)
`,
  },
  {
    id: 'llama_prealloc_triu_start_pos',
    form: 'preallocated cache_k[:bsz, start_pos:start_pos+T] = xk',
    causal: 'triu(diagonal=start_pos + 1)',
    of: 'llama_prealloc_is_causal',
    replace: [
      [
        '        return F.scaled_dot_product_attention(xq, keys, values, is_causal=True)\n',
        '        mask = torch.full((seqlen, start_pos + seqlen), float("-inf"), device=x.device).triu(start_pos + 1)\n        return F.scaled_dot_product_attention(xq, keys, values, attn_mask=mask)\n',
      ],
    ],
  },
  {
    id: 'llama_prealloc_buffer_rows',
    form: 'preallocated cache_k[:bsz, start_pos:start_pos+T] = xk',
    causal: 'mask[:, start_pos:start_pos+T, :start_pos+T]',
    of: 'llama_prealloc_buffer_top_left',
    replace: [['self.mask[:, :seqlen, ', 'self.mask[:, start_pos : start_pos + seqlen, ']],
  },
  {
    id: 'llama_prealloc_buffer_top_left',
    form: 'preallocated cache_k[:bsz, start_pos:start_pos+T] = xk',
    causal: 'mask[:, :T, :start_pos+T]',
    code: `import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self, dim, max_batch, max_seq):
        super().__init__()
        self.wq = nn.Linear(dim, dim)
        self.wk = nn.Linear(dim, dim)
        self.wv = nn.Linear(dim, dim)
        self.cache_k = torch.zeros(max_batch, max_seq, dim)
        self.cache_v = torch.zeros(max_batch, max_seq, dim)
        self.register_buffer("mask", torch.tril(torch.ones(max_seq, max_seq, dtype=torch.bool)).view(1, max_seq, max_seq))

    def forward(self, x, start_pos):
        bsz, seqlen, _ = x.shape
        xq, xk, xv = self.wq(x), self.wk(x), self.wv(x)
        self.cache_k[:bsz, start_pos : start_pos + seqlen] = xk
        self.cache_v[:bsz, start_pos : start_pos + seqlen] = xv
        keys = self.cache_k[:bsz, : start_pos + seqlen]
        values = self.cache_v[:bsz, : start_pos + seqlen]
        mask = self.mask[:, :seqlen, : start_pos + seqlen]
        return F.scaled_dot_product_attention(xq, keys, values, attn_mask=mask)
`,
    bugAt: 'attn_mask=mask',
  },
  {
    id: 'index_copy_is_causal',
    form: 'index_copy_ into a cache buffer',
    causal: 'is_causal=True',
    code: `import torch
import torch.nn as nn
import torch.nn.functional as F


class KVCache(nn.Module):
    def __init__(self, batch, heads, max_seq, head_dim):
        super().__init__()
        self.register_buffer("k_cache", torch.zeros(batch, heads, max_seq, head_dim))
        self.register_buffer("v_cache", torch.zeros(batch, heads, max_seq, head_dim))

    def update(self, input_pos, k, v):
        self.k_cache.index_copy_(2, input_pos, k)
        self.v_cache.index_copy_(2, input_pos, v)
        return self.k_cache, self.v_cache


class Attention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.qkv = nn.Linear(dim, 3 * dim)
        self.kv_cache = None

    def forward(self, x, input_pos):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        if self.kv_cache is not None:
            k, v = self.kv_cache.update(input_pos, k, v)
        return F.scaled_dot_product_attention(q, k, v, is_causal=True)


class Transformer(nn.Module):
    def __init__(self, dim, heads, n_layers):
        super().__init__()
        self.layers = nn.ModuleList(Attention(dim, heads) for _ in range(n_layers))

    def setup_caches(self, batch, max_seq, head_dim):
        for layer in self.layers:
            layer.kv_cache = KVCache(batch, 1, max_seq, head_dim)
`,
    bugAt: 'is_causal=True',
    bottomRightFix: true,
  },
  {
    id: 'index_copy_buffer_rows',
    form: 'index_copy_ into a cache buffer',
    causal: 'causal_mask[None, None, input_pos]',
    code: `import torch
import torch.nn as nn
import torch.nn.functional as F


class KVCache(nn.Module):
    def __init__(self, batch, heads, max_seq, head_dim):
        super().__init__()
        self.register_buffer("k_cache", torch.zeros(batch, heads, max_seq, head_dim))
        self.register_buffer("v_cache", torch.zeros(batch, heads, max_seq, head_dim))

    def update(self, input_pos, k, v):
        self.k_cache.index_copy_(2, input_pos, k)
        self.v_cache.index_copy_(2, input_pos, v)
        return self.k_cache, self.v_cache


class Attention(nn.Module):
    def __init__(self, dim, heads, max_seq):
        super().__init__()
        self.qkv = nn.Linear(dim, 3 * dim)
        self.kv_cache = None
        self.register_buffer("causal_mask", torch.tril(torch.ones(max_seq, max_seq, dtype=torch.bool)))

    def forward(self, x, input_pos):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        mask = self.causal_mask[None, None, input_pos]
        if self.kv_cache is not None:
            k, v = self.kv_cache.update(input_pos, k, v)
        return F.scaled_dot_product_attention(q, k, v, attn_mask=mask)


class Transformer(nn.Module):
    def __init__(self, dim, heads, n_layers, max_seq=2048):
        super().__init__()
        self.layers = nn.ModuleList(Attention(dim, heads, max_seq) for _ in range(n_layers))

    def setup_caches(self, batch, max_seq, head_dim):
        for layer in self.layers:
            layer.kv_cache = KVCache(batch, 1, max_seq, head_dim)
`,
  },
  {
    id: 'rolling_cat_window_is_causal',
    form: 'rolling window: cat then keep the last W',
    causal: 'is_causal=True',
    code: `import torch
import torch.nn as nn
import torch.nn.functional as F


class SlidingAttention(nn.Module):
    def __init__(self, dim, window):
        super().__init__()
        self.qkv = nn.Linear(dim, 3 * dim)
        self.window = window
        self.keys = None
        self.values = None

    def forward(self, x):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        if self.keys is not None:
            k = torch.cat([self.keys, k], dim=-2)[..., -self.window :, :]
            v = torch.cat([self.values, v], dim=-2)[..., -self.window :, :]
        self.keys, self.values = k, v
        return F.scaled_dot_product_attention(q, k, v, is_causal=True)
`,
    bugAt: 'is_causal=True',
    bottomRightFix: true,
  },
  {
    id: 'rolling_cat_then_store',
    form: 'state grown by cat and stored back',
    causal: 'is_causal=True',
    code: `import torch
import torch.nn as nn
import torch.nn.functional as F


class SlidingAttention(nn.Module):
    def __init__(self, dim, window):
        super().__init__()
        self.qkv = nn.Linear(dim, 3 * dim)
        self.window = window
        self.keys = None
        self.values = None

    def forward(self, x):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        if self.keys is not None:
            k = torch.cat([self.keys, k], dim=-2)
            v = torch.cat([self.values, v], dim=-2)
        self.keys, self.values = k, v
        return F.scaled_dot_product_attention(q, k, v, is_causal=True)
`,
    bugAt: 'is_causal=True',
    bottomRightFix: true,
  },
  {
    id: 'kv_cache_dict_is_causal',
    form: 'kv_cache dict',
    causal: 'is_causal=True',
    code: `import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.qkv = nn.Linear(dim, 3 * dim)

    def forward(self, x, kv_cache=None):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        if kv_cache is not None:
            if "k" in kv_cache:
                k = torch.cat([kv_cache["k"], k], dim=-2)
                v = torch.cat([kv_cache["v"], v], dim=-2)
            kv_cache["k"], kv_cache["v"] = k, v
        return F.scaled_dot_product_attention(q, k, v, is_causal=True)
`,
    bugAt: 'is_causal=True',
    bottomRightFix: true,
  },
  {
    id: 'imported_cache_update_is_causal',
    form: 'cache object from another module',
    causal: 'is_causal=True',
    code: `import torch
import torch.nn as nn
import torch.nn.functional as F
from mylib.cache import KVCache


class Attention(nn.Module):
    def __init__(self, dim, max_seq):
        super().__init__()
        self.qkv = nn.Linear(dim, 3 * dim)
        self.kv_cache = KVCache(max_seq, dim)

    def forward(self, x, input_pos):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        k, v = self.kv_cache.update(input_pos, k, v)
        return F.scaled_dot_product_attention(q, k, v, is_causal=True)
`,
    bugAt: 'is_causal=True',
    bottomRightFix: true,
  },
  {
    id: 'use_cache_flag_is_causal',
    form: 'use_cache flag',
    causal: 'is_causal=True',
    code: `import torch
import torch.nn.functional as F


def attend(q, k, v, past=None, use_cache=False):
    if use_cache and past is not None:
        k = torch.cat([past[0], k], dim=-2)
        v = torch.cat([past[1], v], dim=-2)
    out = F.scaled_dot_product_attention(q, k, v, is_causal=True)
    return out, (k, v) if use_cache else None
`,
    bugAt: 'is_causal=True',
    bottomRightFix: true,
  },
  {
    id: 'decode_one_query_is_causal',
    form: 'decode step (one query)',
    causal: 'is_causal=True (top-left: query 0 sees key 0 only)',
    code: `import torch
import torch.nn.functional as F


def decode_step(q, k, v, past_k, past_v):
    # q: (B, H, 1, D), one new token
    k = torch.cat([past_k, k], dim=-2)
    v = torch.cat([past_v, v], dim=-2)
    return F.scaled_dot_product_attention(q, k, v, is_causal=True)
`,
    bugAt: 'is_causal=True',
  },
  {
    id: 'decode_one_query_no_mask',
    form: 'decode step (one query)',
    causal: 'no mask',
    of: 'decode_one_query_is_causal',
    replace: [[', is_causal=True', '']],
  },
  {
    id: 'tril_T_T_handwritten',
    form: 'torch.cat, hand-written scores',
    causal: 'tril(ones(T, S)) top-left',
    code: `import torch
import torch.nn.functional as F


def attend(q, k, v, past_k, past_v):
    T = q.size(-2)
    k = torch.cat([past_k, k], dim=-2)
    v = torch.cat([past_v, v], dim=-2)
    S = k.size(-2)
    att = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5
    att = att.masked_fill(torch.tril(torch.ones(T, S, device=q.device)) == 0, float("-inf"))
    return torch.softmax(att, dim=-1) @ v
`,
    bugAt: 'masked_fill',
  },
  {
    id: 'tril_T_S_bottom_right_handwritten',
    form: 'torch.cat, hand-written scores',
    causal: 'tril(ones(T, S), diagonal=S - T)',
    of: 'tril_T_T_handwritten',
    replace: [['torch.tril(torch.ones(T, S, device=q.device))', 'torch.tril(torch.ones(T, S, device=q.device), diagonal=S - T)']],
  },
  {
    id: 'flash_attn_causal',
    form: 'torch.cat',
    causal: 'flash_attn_func(causal=True) (bottom-right since 2.1)',
    code: `import torch
from flash_attn import flash_attn_func


def attend(q, k, v, past_k, past_v):
    k = torch.cat([past_k, k], dim=1)
    v = torch.cat([past_v, v], dim=1)
    return flash_attn_func(q, k, v, causal=True)
`,
  },
  {
    id: 'xformers_lower_triangular',
    form: 'torch.cat',
    causal: 'xformers LowerTriangularMask (top-left)',
    code: `import torch
import xformers.ops as xops


def attend(q, k, v, past_k, past_v):
    k = torch.cat([past_k, k], dim=1)
    v = torch.cat([past_v, v], dim=1)
    return xops.memory_efficient_attention(q, k, v, attn_bias=xops.LowerTriangularMask())
`,
    bugAt: 'LowerTriangularMask()',
  },
  {
    id: 'xformers_from_bottom_right',
    form: 'torch.cat',
    causal: 'xformers LowerTriangularFromBottomRightMask',
    of: 'xformers_lower_triangular',
    replace: [
      ['import xformers.ops as xops\n', 'import xformers.ops as xops\nfrom xformers.ops.fmha.attn_bias import LowerTriangularFromBottomRightMask\n'],
      ['attn_bias=xops.LowerTriangularMask()', 'attn_bias=LowerTriangularFromBottomRightMask()'],
    ],
  },
  {
    id: 'sdpa_causal_lower_right',
    form: 'torch.cat',
    causal: 'causal_lower_right(L, S)',
    of: 'sdpa_causal_upper_left',
    replace: [['causal_upper_left', 'causal_lower_right']],
  },
  {
    id: 'sdpa_causal_upper_left',
    form: 'torch.cat',
    causal: 'causal_upper_left(L, S)',
    code: `import torch
import torch.nn.functional as F
from torch.nn.attention.bias import causal_upper_left


def attend(q, k, v, past_k, past_v):
    k = torch.cat([past_k, k], dim=-2)
    v = torch.cat([past_v, v], dim=-2)
    mask = causal_upper_left(q.size(-2), k.size(-2))
    return F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
`,
    bugAt: 'attn_mask=mask',
  },
  {
    id: 'handwritten_mask_only_without_cache_update',
    form: 'cache.update in place, hand-written scores',
    causal: 'causal fill only when cache is None',
    code: `import torch
import torch.nn as nn


class Attention(nn.Module):
    def __init__(self, dim, max_seq):
        super().__init__()
        self.qkv = nn.Linear(dim, 3 * dim)
        self.register_buffer("future", torch.triu(torch.ones(max_seq, max_seq, dtype=torch.bool), diagonal=1))

    def forward(self, x, cache=None):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        T = q.size(-2)
        if cache is not None:
            k, v = cache.update(k, v)
        att = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5
        if cache is None:
            att = att.masked_fill(self.future[:T, :T], float("-inf"))
        return torch.softmax(att, dim=-1) @ v
`,
    bugAt: 'self.future[:T, :T]',
  },
  {
    id: 'handwritten_mask_always_bottom_right',
    form: 'cache.update in place, hand-written scores',
    causal: 'causal fill of rows S - T:S, always applied',
    of: 'handwritten_mask_only_without_cache_update',
    replace: [
      [
        '        if cache is None:\n            att = att.masked_fill(self.future[:T, :T], float("-inf"))\n',
        '        S = k.size(-2)\n        att = att.masked_fill(self.future[S - T : S, :S], float("-inf"))\n',
      ],
    ],
  },
  {
    id: 'hf_prepare_4d_mask',
    form: 'Cache.update(k, v, layer_idx)',
    causal: '_prepare_4d_causal_attention_mask_with_cache_position',
    code: `import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self, dim, layer_idx):
        super().__init__()
        self.qkv = nn.Linear(dim, 3 * dim)
        self.layer_idx = layer_idx

    def forward(self, x, attention_mask, cache_position, past_key_values=None):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        if past_key_values is not None:
            k, v = past_key_values.update(k, v, self.layer_idx)
        causal_mask = _prepare_4d_causal_attention_mask_with_cache_position(
            attention_mask, q.shape[-2], k.shape[-2], x.dtype, cache_position, x.shape[0]
        )
        return F.scaled_dot_product_attention(q, k, v, attn_mask=causal_mask)
`,
  },
  {
    id: 'name_only_layer_past_unused',
    form: 'name only: layer_past never read',
    causal: 'is_causal=True',
    code: `import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.qkv = nn.Linear(dim, 3 * dim)

    def forward(self, x, layer_past=None):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        present = (k, v)
        return F.scaled_dot_product_attention(q, k, v, is_causal=True), present
`,
  },
  {
    id: 'name_only_cache_holds_keys_of_prompt',
    form: 'name only: cache unpacked then overwritten',
    causal: 'is_causal=True',
    code: `import torch
import torch.nn.functional as F


def recompute(q, x, cache, proj_k, proj_v):
    k, v = cache
    k = proj_k(x)
    v = proj_v(x)
    return F.scaled_dot_product_attention(q, k, v, is_causal=True)
`,
  },
  {
    id: 'name_only_cross_cache',
    form: 'name only: encoder_cache, no causal flag',
    causal: 'none',
    code: `import torch
import torch.nn.functional as F


def cross_attend(q, encoder_cache):
    k, v = encoder_cache
    return F.scaled_dot_product_attention(q, k, v)
`,
  },
  {
    id: 'name_only_unpacked_cache_is_causal',
    form: 'name only: k, v = cache',
    causal: 'is_causal=True',
    code: `import torch
import torch.nn.functional as F


def attend_cached(q, cache):
    k, v = cache
    return F.scaled_dot_product_attention(q, k, v, is_causal=True)
`,
  },
  {
    id: 'name_only_layer_past_param_is_causal',
    form: 'name only: past_key, past_value = layer_past',
    causal: 'is_causal=True',
    code: `import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def forward(self, q, layer_past):
        past_key, past_value = layer_past
        return F.scaled_dot_product_attention(q, past_key, past_value, is_causal=True)
`,
  },
  {
    id: 'name_only_zip_layers',
    form: 'name only: layer_past from zip(self.layers, past_key_values)',
    causal: 'is_causal=True',
    code: `import torch
import torch.nn as nn
import torch.nn.functional as F


class Block(nn.Module):
    def forward(self, q, layer_past):
        k, v = layer_past
        return F.scaled_dot_product_attention(q, k, v, is_causal=True)


class Model(nn.Module):
    def forward(self, x, past_key_values):
        for layer, layer_past in zip(self.layers, past_key_values):
            x = layer(x, layer_past)
        return x
`,
  },
  {
    id: 'hf_update_causal_only_without_cache_keys_returned',
    form: 'Cache.update(k, v, layer_idx)',
    causal: 'is_causal=cache is None, keys handed back (the caller may run the prompt without the cache)',
    of: 'hf_update_causal_only_without_cache',
    replace: [
      [
        '        return F.scaled_dot_product_attention(q, k, v, is_causal=past_key_value is None)\n',
        '        out = F.scaled_dot_product_attention(q, k, v, is_causal=past_key_value is None)\n        return out, torch.stack((k, v))\n',
      ],
    ],
  },
  {
    id: 'arm_prefill_only',
    form: 'prefill / decode arms on layer_past',
    causal: 'is_causal=True only in the arm without the cache',
    of: 'arm_both_causal',
    replace: [[', is_causal=True)  # one step with the cache', ')']],
  },
  {
    id: 'arm_both_causal',
    form: 'prefill / decode arms on layer_past',
    causal: 'is_causal=True in the cached arm too',
    code: `import torch
import torch.nn.functional as F


def attend(q, k, v, layer_past=None):
    if layer_past is not None:
        past_k, past_v = layer_past
        k = torch.cat([past_k, k], dim=-2)
        v = torch.cat([past_v, v], dim=-2)
    if layer_past is None:
        out = F.scaled_dot_product_attention(q, k, v, is_causal=True)
    else:
        out = F.scaled_dot_product_attention(q, k, v, is_causal=True)  # one step with the cache
    return out, (k, v)
`,
    bugAt: '# one step with the cache',
  },
  {
    id: 'prefill_method_empty_cache',
    form: 'prefill and decode methods growing the cache',
    causal: 'is_causal=True at prefill, no mask for the decode step',
    of: 'prefill_method_buggy_decode',
    replace: [['self.k_cache, self.v_cache, is_causal=True)', 'self.k_cache, self.v_cache)']],
  },
  {
    id: 'prefill_method_buggy_decode',
    form: 'prefill and decode methods growing the cache',
    causal: 'is_causal=True in the decode step',
    code: `import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.qkv = nn.Linear(dim, 3 * dim)
        self.k_cache = None
        self.v_cache = None

    def prefill(self, x):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        self.k_cache, self.v_cache = k, v
        return F.scaled_dot_product_attention(q, k, v, is_causal=True)

    def decode(self, x):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        self.k_cache = torch.cat([self.k_cache, k], dim=-2)
        self.v_cache = torch.cat([self.v_cache, v], dim=-2)
        return F.scaled_dot_product_attention(q, self.k_cache, self.v_cache, is_causal=True)
`,
    bugAt: 'self.k_cache, self.v_cache, is_causal=True',
  },
  {
    id: 'flag_prefill_variable',
    form: 'tuple past_key_value + torch.cat',
    causal: 'is_causal=is_prefill (layer_past is None)',
    code: `import torch
import torch.nn.functional as F


def attend(q, k, v, layer_past=None):
    is_prefill = layer_past is None
    if layer_past is not None:
        k = torch.cat([layer_past[0], k], dim=-2)
        v = torch.cat([layer_past[1], v], dim=-2)
    out = F.scaled_dot_product_attention(q, k, v, is_causal=is_prefill)
    return out, (k, v)
`,
  },
  {
    id: 'eq_len_flag',
    form: 'torch.cat',
    causal: 'is_causal=q.size(-2) == k.size(-2)',
    code: `import torch
import torch.nn.functional as F


def attend(q, k, v, past_k, past_v):
    k = torch.cat([past_k, k], dim=-2)
    v = torch.cat([past_v, v], dim=-2)
    return F.scaled_dot_product_attention(q, k, v, is_causal=q.size(-2) == k.size(-2))
`,
  },
  {
    id: 'cross_attn_cached_encoder',
    form: 'kv_cache dict',
    causal: 'cross-attention keys cached from the encoder, no causal mask',
    code: `import torch
import torch.nn as nn
import torch.nn.functional as F


class CrossAttention(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.q = nn.Linear(dim, dim)
        self.kv = nn.Linear(dim, 2 * dim)

    def forward(self, x, memory, cache=None):
        q = self.q(x)
        if cache is not None and "k" in cache:
            k, v = cache["k"], cache["v"]
        else:
            k, v = self.kv(memory).chunk(2, dim=-1)
            if cache is not None:
                cache["k"], cache["v"] = k, v
        return F.scaled_dot_product_attention(q, k, v)
`,
  },
  {
    id: 'use_cache_returns_present_hf_old',
    form: 'use_cache flag',
    causal: 'is_causal=True only when q_len == k_len',
    code: `import torch
import torch.nn.functional as F


def attend(q, k, v, layer_past=None, use_cache=False):
    if layer_past is not None:
        past_key, past_value = layer_past
        k = torch.cat((past_key, k), dim=-2)
        v = torch.cat((past_value, v), dim=-2)
    present = (k, v) if use_cache else None
    q_len, k_len = q.size(-2), k.size(-2)
    if q_len == k_len:
        out = F.scaled_dot_product_attention(q, k, v, is_causal=True)
    else:
        out = F.scaled_dot_product_attention(q, k, v)
    return out, present
`,
  },
];

const CELLS: readonly Cell[] = WRITTEN.map((c) => {
  if (!('of' in c)) return c;
  const { of: _of, replace: _replace, ...rest } = c;
  return { ...rest, code: programOf(c, WRITTEN) };
});

/** 1-based line of the first line holding `needle`. */
function lineOf(code: string, needle: string): number {
  const i = code.split('\n').findIndex((l) => l.includes(needle));
  assert.ok(i >= 0, `no line holds ${needle}`);
  return i + 1;
}

/** The cell's SDPA call with is_causal=True, rewritten with a bottom-right aligned mask over its own q and k. */
function withBottomRightMask(code: string): string {
  const call = /^( *)(.*)F\.scaled_dot_product_attention\((\w+), (\w+), (\w+), is_causal=True\)/m;
  const m = call.exec(code);
  assert.ok(m, 'the cell calls SDPA with is_causal=True');
  const [whole, indent, before, q, k, v] = m;
  const keep = `${indent}keep = torch.ones(${q}.size(-2), ${k}.size(-2), dtype=torch.bool, device=${q}.device).tril(diagonal=${k}.size(-2) - ${q}.size(-2))\n`;
  return code.replace(whole, `${keep}${indent}${before}F.scaled_dot_product_attention(${q}, ${k}, ${v}, attn_mask=keep)`);
}

async function att008Lines(code: string): Promise<number[]> {
  return (await linter()).lintPython(code, { select: ['ATT008'] }).map((f) => f.line);
}

describe('ATT008 matrix: KV-cache forms × causal forms', () => {
  for (const cell of CELLS) {
    const verdict = cell.bugAt ? `buggy (${cell.causal})` : `correct (${cell.causal})`;
    it(`${cell.form}: ${verdict}${cell.today ? ' [wrong today]' : ''}`, async () => {
      const want = cell.bugAt ? [lineOf(cell.code, cell.bugAt)] : [];
      const expected = cell.today ? cell.today.map((n) => lineOf(cell.code, n)) : want;
      assert.deepEqual(await att008Lines(cell.code), expected);
    });
    if (cell.bottomRightFix) {
      it(`${cell.form}: fixed with a bottom-right mask`, async () => {
        const fixed = withBottomRightMask(cell.code);
        assert.ok(!fixed.includes('is_causal=True'));
        assert.deepEqual(await att008Lines(fixed), []);
      });
    }
  }

  it('every cache form has a buggy and a correct cell', () => {
    const forms = new Map<string, { buggy: boolean; correct: boolean }>();
    for (const c of CELLS) {
      const f = forms.get(c.form) ?? { buggy: false, correct: false };
      if (c.bugAt || c.bottomRightFix) f.buggy = true;
      if (!c.bugAt || c.bottomRightFix) f.correct = true;
      forms.set(c.form, f);
    }
    const oneSided = [...forms].filter(([form, f]) => !form.startsWith('name only') && !(f.buggy && f.correct)).map(([form]) => form);
    assert.deepEqual(oneSided, []);
  });
});

// Cross-file pairs: the cache class lives in another workspace file (a Hugging Face-style cache whose update
// concatenates per layer, a gpt-fast-style static cache written by index and attached by setup_caches).
describe('ATT008 matrix: a cache class of another workspace file', () => {
  const CACHE = `import torch
  
  
  class KVCache:
      def __init__(self):
          self.key_cache = []
          self.value_cache = []
  
      def update(self, key_states, value_states, layer_idx):
          if len(self.key_cache) <= layer_idx:
              self.key_cache.append(key_states)
              self.value_cache.append(value_states)
          else:
              self.key_cache[layer_idx] = torch.cat([self.key_cache[layer_idx], key_states], dim=-2)
              self.value_cache[layer_idx] = torch.cat([self.value_cache[layer_idx], value_states], dim=-2)
          return self.key_cache[layer_idx], self.value_cache[layer_idx]
  `;
  const GPTFAST = `import torch
  import torch.nn as nn
  
  
  class StaticCache(nn.Module):
      def __init__(self, batch, heads, max_seq, head_dim):
          super().__init__()
          self.register_buffer("k_cache", torch.zeros(batch, heads, max_seq, head_dim))
          self.register_buffer("v_cache", torch.zeros(batch, heads, max_seq, head_dim))
  
      def update(self, input_pos, k, v):
          self.k_cache[:, :, input_pos] = k
          self.v_cache[:, :, input_pos] = v
          return self.k_cache, self.v_cache
  `;
  const model = (flag: string, extra = '') => `import torch
  import torch.nn as nn
  import torch.nn.functional as F
  from cache import KVCache
  
  
  class Attention(nn.Module):
      def __init__(self, dim, layer_idx):
          super().__init__()
          self.qkv = nn.Linear(dim, 3 * dim)
          self.layer_idx = layer_idx
  
      def forward(self, x, past_key_values=None):
          q, k, v = self.qkv(x).chunk(3, dim=-1)
          if past_key_values is not None:
              k, v = past_key_values.update(k, v, self.layer_idx)
  ${extra}        return F.scaled_dot_product_attention(q, k, v, ${flag})
  
  
  class Model(nn.Module):
      def __init__(self, dim, n_layers):
          super().__init__()
          self.layers = nn.ModuleList(Attention(dim, i) for i in range(n_layers))
  
      def forward(self, x, use_cache=True):
          cache = KVCache() if use_cache else None
          for layer in self.layers:
              x = layer(x, cache)
          return x, cache
  `;
  const gmodel = (flag: string) => `import torch
  import torch.nn as nn
  import torch.nn.functional as F
  from cache import StaticCache
  
  
  class Attention(nn.Module):
      def __init__(self, dim):
          super().__init__()
          self.qkv = nn.Linear(dim, 3 * dim)
          self.kv_cache = None
  
      def forward(self, x, input_pos, mask=None):
          q, k, v = self.qkv(x).chunk(3, dim=-1)
          if self.kv_cache is not None:
              k, v = self.kv_cache.update(input_pos, k, v)
          return F.scaled_dot_product_attention(q, k, v, ${flag})
  
  
  class Transformer(nn.Module):
      def __init__(self, dim, n_layers):
          super().__init__()
          self.layers = nn.ModuleList(Attention(dim) for _ in range(n_layers))
  
      def setup_caches(self, batch, max_seq, head_dim):
          for layer in self.layers:
              layer.kv_cache = StaticCache(batch, 1, max_seq, head_dim)
  `;

  const cases: readonly [string, Record<string, string>, boolean][] = [
    ['Cache.update of another file, is_causal=True: buggy', { 'cache.py': CACHE, 'model.py': model('is_causal=True') }, true],
    [
      'Cache.update of another file, is_causal=past_key_values is None (prompt unmasked): buggy',
      { 'cache.py': CACHE, 'model.py': model('is_causal=past_key_values is None') },
      true,
    ],
    [
      'Cache.update of another file, bottom-right mask: correct',
      {
        'cache.py': CACHE,
        'model.py': model(
          'attn_mask=keep',
          '        keep = torch.ones(q.size(-2), k.size(-2), dtype=torch.bool, device=q.device).tril(diagonal=k.size(-2) - q.size(-2))\n',
        ),
      },
      false,
    ],
    ['static cache of another file attached by setup_caches, is_causal=True: buggy', { 'cache.py': GPTFAST, 'model.py': gmodel('is_causal=True') }, true],
    [
      'static cache of another file attached by setup_caches, rows of a causal mask passed in: correct',
      { 'cache.py': GPTFAST, 'model.py': gmodel('attn_mask=mask') },
      false,
    ],
  ];
  for (const [name, files, buggy] of cases) {
    it(name, async () => {
      const l = await createLinter(grammar(), { workspace: memoryWorkspace(files), onInternalError: (e) => assert.fail(String(e)) });
      const model = files['model.py'] ?? '';
      const found = l.lintPython(model, { path: 'model.py', select: ['ATT008'] }).map((f) => f.line);
      assert.deepEqual(found, buggy ? [lineOf(model, 'return F.scaled_dot_product_attention')] : []);
    });
  }
});
