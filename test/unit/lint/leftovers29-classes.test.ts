// Session 29 (leftovers29): ATT008's causal-with-cache and ATT004's scale classes, precision first. Correct forms
// written the way real decoders and encoders write them (HF-style past_key_value tuples, DynamicCache-like update with
// cache_position, prefill and decode branches, sliding windows, causal buffers sliced bottom-right, cross-attention with
// a cache, encoder self-attention beside a decoder; scales folded into q, a config head_dim apart from hidden // heads,
// softmax_scale, SDPA scale=, fourth roots, learnt temperatures, literal widths that are the root) stay silent for
// ATT004 and ATT008. Then the classes added, each with its correct form above and, where the evidence can sit in
// another file, a cross-file pair:
//  1. ATT008: a square causal triangle over the new tokens joined along the key axis with a block of kept columns as
//     wide as the cache, on the wrong side (`hstack([tri, zeros(T, start)])`, `cat([tri, ones], -1)`,
//     `F.pad(tri, (0, start))`): keys are laid out [cached | new], so the cache's columns go first. Decided from the
//     side and the block's written size, not from names.
//  2. ATT008: a store entry read with `.get(key)`, extended by concatenation and written back under the same key
//     (`old = self.store.get(layer)`, `self.store[layer] = (k, v)`) is a KV cache whatever it is called; read and
//     joined but never written back it is no evidence.
//  3. ATT008 precision: a call in an `if` arm where the offset a preallocated buffer is read up to is zero
//     (`keys = self.cache_k[:B, :, :start_pos + T]` under `if start_pos == 0:`) has as many keys as queries.
//  4. ATT004: a constant on the scores (or on q) that is the stated width of the product (`view(B, T, 8, 64)`) or one over it
//     (`* 64 ** -1`, `self.scale = 1.0 / 64`, `self.temperature = 64`, `q / 64`, `temperature=64`) is d, not sqrt(d);
//     its root (`self.temperature = 8`) is the width's scale, not a fixed temperature (ATT003 silent).
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

const CORRECT: readonly (readonly [id: string, what: string, code: string])[] = [
  [
    'c01_hf_tuple',
    'HF-style past_key_value tuple, is_causal only at prefill with more than one query',
    `import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self, dim, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.head_dim = dim // n_heads
        self.q_proj = nn.Linear(dim, dim)
        self.k_proj = nn.Linear(dim, dim)
        self.v_proj = nn.Linear(dim, dim)
        self.o_proj = nn.Linear(dim, dim)

    def forward(self, x, past_key_value=None, use_cache=False):
        B, T, C = x.shape
        q = self.q_proj(x).view(B, T, self.n_heads, self.head_dim).transpose(1, 2)
        k = self.k_proj(x).view(B, T, self.n_heads, self.head_dim).transpose(1, 2)
        v = self.v_proj(x).view(B, T, self.n_heads, self.head_dim).transpose(1, 2)
        if past_key_value is not None:
            k = torch.cat([past_key_value[0], k], dim=2)
            v = torch.cat([past_key_value[1], v], dim=2)
        present = (k, v) if use_cache else None
        out = F.scaled_dot_product_attention(q, k, v, is_causal=q.size(-2) > 1 and past_key_value is None)
        return self.o_proj(out.transpose(1, 2).reshape(B, T, C)), present
`,
  ],
  [
    'c02_qlen_gt1',
    'is_causal=q.size(-2) > 1 and cache is None, keys handed back',
    `import torch
import torch.nn.functional as F


def attend(q, k, v, cache=None):
    if cache is not None:
        k = torch.cat([cache[0], k], dim=-2)
        v = torch.cat([cache[1], v], dim=-2)
    out = F.scaled_dot_product_attention(q, k, v, is_causal=q.size(-2) > 1 and cache is None)
    return out, (k, v)
`,
  ],
  [
    'c03_decode_only',
    'cached branch without a mask, prefill branch with is_causal=True',
    `import torch
import torch.nn.functional as F


def attend(q, k, v, cache=None):
    if cache is not None:
        k = torch.cat([cache[0], k], dim=-2)
        v = torch.cat([cache[1], v], dim=-2)
        out = F.scaled_dot_product_attention(q, k, v)
    else:
        out = F.scaled_dot_product_attention(q, k, v, is_causal=True)
    return out, (k, v)
`,
  ],
  [
    'c04_slice_mask',
    'causal buffer sliced mask[:, :, start:start+T, :start+T] (bottom-right)',
    `import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self, dim, n_heads, max_len):
        super().__init__()
        self.n_heads = n_heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.register_buffer("mask", torch.tril(torch.ones(max_len, max_len, dtype=torch.bool)).view(1, 1, max_len, max_len))
        self.cache_k = None
        self.cache_v = None

    def forward(self, x, start=0):
        B, T, C = x.shape
        q, k, v = self.qkv(x).split(C, dim=2)
        q = q.view(B, T, self.n_heads, C // self.n_heads).transpose(1, 2)
        k = k.view(B, T, self.n_heads, C // self.n_heads).transpose(1, 2)
        v = v.view(B, T, self.n_heads, C // self.n_heads).transpose(1, 2)
        if start > 0:
            k = torch.cat([self.cache_k, k], dim=2)
            v = torch.cat([self.cache_v, v], dim=2)
        self.cache_k, self.cache_v = k, v
        mask = self.mask[:, :, start:start + T, :start + T]
        out = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
        return out.transpose(1, 2).reshape(B, T, C)
`,
  ],
  [
    'c05_cross_attn',
    'cross-attention reading its cache (no causal mask), decoder self-attention, encoder padding mask',
    `import torch
import torch.nn as nn
import torch.nn.functional as F


class CrossAttention(nn.Module):
    def __init__(self, dim, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.q = nn.Linear(dim, dim)
        self.kv = nn.Linear(dim, 2 * dim)

    def forward(self, x, memory, past_key_value=None):
        B, T, C = x.shape
        q = self.q(x).view(B, T, self.n_heads, -1).transpose(1, 2)
        if past_key_value is not None:
            k, v = past_key_value
        else:
            S = memory.size(1)
            k, v = self.kv(memory).view(B, S, 2, self.n_heads, -1).permute(2, 0, 3, 1, 4)
        out = F.scaled_dot_product_attention(q, k, v)
        return out.transpose(1, 2).reshape(B, T, C), (k, v)


class SelfAttention(nn.Module):
    def __init__(self, dim, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.qkv = nn.Linear(dim, 3 * dim)

    def forward(self, x, past_key_value=None):
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.n_heads, -1).permute(2, 0, 3, 1, 4)
        if past_key_value is not None:
            k = torch.cat([past_key_value[0], k], dim=2)
            v = torch.cat([past_key_value[1], v], dim=2)
        out = F.scaled_dot_product_attention(q, k, v, is_causal=past_key_value is None)
        return out.transpose(1, 2).reshape(B, T, C), (k, v)


class Encoder(nn.Module):
    def __init__(self, dim, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.qkv = nn.Linear(dim, 3 * dim)

    def forward(self, x, pad_mask):
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.n_heads, -1).permute(2, 0, 3, 1, 4)
        out = F.scaled_dot_product_attention(q, k, v, attn_mask=pad_mask[:, None, None, :])
        return out.transpose(1, 2).reshape(B, T, C)
`,
  ],
  [
    'c06_dynamic_cache',
    'DynamicCache-like update with cache_position, is_causal = mask is None and q_len > 1',
    `import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self, config, layer_idx):
        super().__init__()
        self.layer_idx = layer_idx
        self.num_heads = config.num_attention_heads
        self.head_dim = config.head_dim
        self.q_proj = nn.Linear(config.hidden_size, self.num_heads * self.head_dim)
        self.k_proj = nn.Linear(config.hidden_size, self.num_heads * self.head_dim)
        self.v_proj = nn.Linear(config.hidden_size, self.num_heads * self.head_dim)

    def forward(self, hidden_states, attention_mask=None, past_key_value=None, cache_position=None):
        B, T, _ = hidden_states.shape
        q = self.q_proj(hidden_states).view(B, T, -1, self.head_dim).transpose(1, 2)
        k = self.k_proj(hidden_states).view(B, T, -1, self.head_dim).transpose(1, 2)
        v = self.v_proj(hidden_states).view(B, T, -1, self.head_dim).transpose(1, 2)
        if past_key_value is not None:
            k, v = past_key_value.update(k, v, self.layer_idx, {"cache_position": cache_position})
        causal_mask = attention_mask
        if attention_mask is not None:
            causal_mask = attention_mask[:, :, :, : k.shape[-2]]
        is_causal = causal_mask is None and q.shape[2] > 1
        out = F.scaled_dot_product_attention(q, k, v, attn_mask=causal_mask, is_causal=is_causal)
        return out.transpose(1, 2).reshape(B, T, -1)
`,
  ],
  [
    'c07_sliding',
    'sliding window over cat([cache, k])[-window:], mask from positions S - T..S',
    `import torch
import torch.nn.functional as F


def sliding_mask(T, S, window, device):
    q_pos = torch.arange(S - T, S, device=device)[:, None]
    k_pos = torch.arange(S, device=device)[None, :]
    return (k_pos <= q_pos) & (k_pos > q_pos - window)


def attend(q, k, v, cache, window):
    k = torch.cat([cache[0], k], dim=-2)[..., -window:, :]
    v = torch.cat([cache[1], v], dim=-2)[..., -window:, :]
    T, S = q.size(-2), k.size(-2)
    mask = sliding_mask(T, S, window, q.device)
    return F.scaled_dot_product_attention(q, k, v, attn_mask=mask), (k, v)
`,
  ],
  [
    'c08_hstack_ok',
    "Llama's hstack([zeros(T, start_pos), triu(-inf, 1)])",
    `import torch
import torch.nn.functional as F


def attend(q, k, v, cache_k, cache_v, start_pos):
    T = q.size(-2)
    k = torch.cat([cache_k[:, :, :start_pos], k], dim=-2)
    v = torch.cat([cache_v[:, :, :start_pos], v], dim=-2)
    mask = torch.full((T, T), float("-inf"), device=q.device)
    mask = torch.triu(mask, diagonal=1)
    mask = torch.hstack([torch.zeros((T, start_pos), device=q.device), mask])
    return F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
`,
  ],
  [
    'c09_pad_ok',
    'F.pad(tri, (start, 0), value=True): cache columns on the left',
    `import torch
import torch.nn.functional as F


def attend(q, k, v, past_k, past_v):
    T = q.size(-2)
    start = past_k.size(-2)
    k = torch.cat([past_k, k], dim=-2)
    v = torch.cat([past_v, v], dim=-2)
    tri = torch.ones(T, T, dtype=torch.bool, device=q.device).tril()
    mask = F.pad(tri, (start, 0), value=True)
    return F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
`,
  ],
  [
    'c10_cat_ok',
    'cat([ones(T, start), tri], dim=-1): cache columns on the left',
    `import torch
import torch.nn.functional as F


def attend(q, k, v, past_k, past_v):
    T = q.size(-2)
    start = past_k.size(-2)
    k = torch.cat([past_k, k], dim=-2)
    v = torch.cat([past_v, v], dim=-2)
    tri = torch.ones(T, T, dtype=torch.bool, device=q.device).tril()
    mask = torch.cat([torch.ones(T, start, dtype=torch.bool, device=q.device), tri], dim=-1)
    return F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
`,
  ],
  [
    'c11_cache_get',
    'self.cache.get(layer) joined and stored back, bottom-right tril(diagonal=S - T)',
    `import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self, dim, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.cache = {}

    def forward(self, x, layer):
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.n_heads, -1).permute(2, 0, 3, 1, 4)
        past = self.cache.get(layer)
        if past is not None:
            k = torch.cat([past[0], k], dim=2)
            v = torch.cat([past[1], v], dim=2)
        self.cache[layer] = (k, v)
        S = k.size(2)
        mask = torch.ones(T, S, dtype=torch.bool, device=x.device).tril(diagonal=S - T)
        out = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
        return out.transpose(1, 2).reshape(B, T, C)
`,
  ],
  [
    'c12_gptfast',
    'gpt-fast KVCache.update with the causal buffer rows at input_pos',
    `import torch
import torch.nn as nn
import torch.nn.functional as F


class KVCache(nn.Module):
    def __init__(self, B, H, S, D):
        super().__init__()
        self.register_buffer("k_cache", torch.zeros(B, H, S, D))
        self.register_buffer("v_cache", torch.zeros(B, H, S, D))

    def update(self, input_pos, k_val, v_val):
        self.k_cache[:, :, input_pos] = k_val
        self.v_cache[:, :, input_pos] = v_val
        return self.k_cache, self.v_cache


class Attention(nn.Module):
    def __init__(self, dim, n_head, max_len):
        super().__init__()
        self.n_head = n_head
        self.wqkv = nn.Linear(dim, 3 * dim)
        self.kv_cache = None
        self.register_buffer("causal_mask", torch.tril(torch.ones(max_len, max_len, dtype=torch.bool)))

    def forward(self, x, input_pos):
        B, T, C = x.shape
        q, k, v = self.wqkv(x).split(C, dim=-1)
        q = q.view(B, T, self.n_head, -1).transpose(1, 2)
        k = k.view(B, T, self.n_head, -1).transpose(1, 2)
        v = v.view(B, T, self.n_head, -1).transpose(1, 2)
        if self.kv_cache is not None:
            k, v = self.kv_cache.update(input_pos, k, v)
        mask = self.causal_mask[None, None, input_pos]
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
        return y.transpose(1, 2).reshape(B, T, C)


def setup_caches(model, B, S):
    for blk in model.layers:
        blk.attn.kv_cache = KVCache(B, blk.attn.n_head, S, 64)
`,
  ],
  [
    'c13_prefill_branch',
    'Llama buffer read [:start_pos + T], is_causal=True only under start_pos == 0',
    `import torch
import torch.nn.functional as F


class Attention(torch.nn.Module):
    def __init__(self, dim, n_heads, max_batch, max_seq):
        super().__init__()
        self.n_heads = n_heads
        self.wq = torch.nn.Linear(dim, dim)
        self.wk = torch.nn.Linear(dim, dim)
        self.wv = torch.nn.Linear(dim, dim)
        self.cache_k = torch.zeros(max_batch, n_heads, max_seq, dim // n_heads)
        self.cache_v = torch.zeros(max_batch, n_heads, max_seq, dim // n_heads)

    def forward(self, x, start_pos):
        B, T, C = x.shape
        q = self.wq(x).view(B, T, self.n_heads, -1).transpose(1, 2)
        k = self.wk(x).view(B, T, self.n_heads, -1).transpose(1, 2)
        v = self.wv(x).view(B, T, self.n_heads, -1).transpose(1, 2)
        self.cache_k[:B, :, start_pos:start_pos + T] = k
        self.cache_v[:B, :, start_pos:start_pos + T] = v
        keys = self.cache_k[:B, :, :start_pos + T]
        values = self.cache_v[:B, :, :start_pos + T]
        if start_pos == 0:
            out = F.scaled_dot_product_attention(q, keys, values, is_causal=True)
        else:
            out = F.scaled_dot_product_attention(q, keys, values)
        return out.transpose(1, 2).reshape(B, T, C)
`,
  ],
  [
    'c14_qlen_dynamic',
    'cache.update(...) with is_causal=T > 1',
    `import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self, dim, n_heads, layer_idx):
        super().__init__()
        self.n_heads = n_heads
        self.layer_idx = layer_idx
        self.qkv = nn.Linear(dim, 3 * dim)

    def forward(self, x, past_key_values=None):
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.n_heads, -1).permute(2, 0, 3, 1, 4)
        if past_key_values is not None:
            k, v = past_key_values.update(k, v, self.layer_idx)
        out = F.scaled_dot_product_attention(q, k, v, is_causal=T > 1)
        return out.transpose(1, 2).reshape(B, T, C)
`,
  ],
  [
    'c15_whisper_cross',
    'Whisper-style cross-attention keys from a cache dict',
    `import torch
import torch.nn as nn
import torch.nn.functional as F


class MultiHeadAttention(nn.Module):
    def __init__(self, n_state, n_head):
        super().__init__()
        self.n_head = n_head
        self.query = nn.Linear(n_state, n_state)
        self.key = nn.Linear(n_state, n_state, bias=False)
        self.value = nn.Linear(n_state, n_state)

    def forward(self, x, xa=None, mask=None, kv_cache=None):
        q = self.query(x)
        if kv_cache is None or xa is None or self.key not in kv_cache:
            k = self.key(x if xa is None else xa)
            v = self.value(x if xa is None else xa)
        else:
            k = kv_cache[self.key]
            v = kv_cache[self.value]
        B, T, C = q.shape
        q = q.view(B, T, self.n_head, -1).transpose(1, 2)
        k = k.view(B, k.shape[1], self.n_head, -1).transpose(1, 2)
        v = v.view(B, v.shape[1], self.n_head, -1).transpose(1, 2)
        out = F.scaled_dot_product_attention(q, k, v, is_causal=mask is not None and T > 1)
        return out.transpose(1, 2).reshape(B, T, C)
`,
  ],
  [
    'c16_manual_ok',
    'hand-written scores plus cat([zeros(T, start_pos), triu(-inf, 1)], dim=-1)',
    `import math
import torch


def attend(q, k, v, cache_k, cache_v, start_pos):
    T = q.size(-2)
    keys = torch.cat([cache_k[:, :, :start_pos], k], dim=-2)
    values = torch.cat([cache_v[:, :, :start_pos], v], dim=-2)
    scores = q @ keys.transpose(-2, -1) / math.sqrt(q.size(-1))
    mask = torch.triu(torch.full((T, T), float("-inf"), device=q.device), diagonal=1)
    mask = torch.cat([torch.zeros(T, start_pos, device=q.device), mask], dim=-1)
    scores = scores + mask
    return scores.softmax(dim=-1) @ values
`,
  ],
  [
    'c17_store_ok',
    'store entry read with .get, extended, written back; bottom-right mask',
    `import torch
import torch.nn.functional as F


class Layer(torch.nn.Module):
    def __init__(self, store):
        super().__init__()
        self.store = store

    def forward(self, q, k, v, layer):
        old = self.store.get(layer)
        if old is not None:
            k = torch.cat([old[0], k], dim=-2)
            v = torch.cat([old[1], v], dim=-2)
        self.store[layer] = (k, v)
        T, S = q.size(-2), k.size(-2)
        mask = torch.ones(T, S, dtype=torch.bool, device=q.device).tril(diagonal=S - T)
        return F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
`,
  ],
  [
    'c18_store_not_written',
    'store entry read with .get and joined but never written back: no evidence of a cache',
    `import torch
import torch.nn.functional as F


class Layer(torch.nn.Module):
    def __init__(self, store):
        super().__init__()
        self.store = store

    def forward(self, q, k, v, layer):
        old = self.store.get(layer)
        if old is not None:
            k = torch.cat([old[0], k], dim=-2)
            v = torch.cat([old[1], v], dim=-2)
        return F.scaled_dot_product_attention(q, k, v, is_causal=True)
`,
  ],
  [
    's01_fold_weights',
    'scale folded into the query projection weights at load time (ATT004 silent; ATT003 left as is)',
    `import math
import torch
import torch.nn as nn


class Attention(nn.Module):
    def __init__(self, dim, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.head_dim = dim // n_heads
        self.q_proj = nn.Linear(dim, dim)
        self.k_proj = nn.Linear(dim, dim)
        self.v_proj = nn.Linear(dim, dim)

    def fold_scale(self):
        with torch.no_grad():
            self.q_proj.weight.mul_(self.head_dim ** -0.5)
            self.q_proj.bias.mul_(self.head_dim ** -0.5)

    def forward(self, x):
        B, T, C = x.shape
        q = self.q_proj(x).view(B, T, self.n_heads, self.head_dim).transpose(1, 2)
        k = self.k_proj(x).view(B, T, self.n_heads, self.head_dim).transpose(1, 2)
        v = self.v_proj(x).view(B, T, self.n_heads, self.head_dim).transpose(1, 2)
        att = (q @ k.transpose(-2, -1)).softmax(dim=-1)
        return (att @ v).transpose(1, 2).reshape(B, T, C)
`,
  ],
  [
    's02_config_head_dim',
    'config.head_dim and query_pre_attn_scalar ** -0.5',
    `import torch
import torch.nn as nn


class Attention(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.num_heads = config.num_attention_heads
        self.head_dim = config.head_dim
        self.scaling = config.query_pre_attn_scalar ** -0.5
        self.q_proj = nn.Linear(config.hidden_size, self.num_heads * self.head_dim)
        self.k_proj = nn.Linear(config.hidden_size, self.num_heads * self.head_dim)
        self.v_proj = nn.Linear(config.hidden_size, self.num_heads * self.head_dim)

    def forward(self, x):
        B, T, _ = x.shape
        q = self.q_proj(x).view(B, T, self.num_heads, self.head_dim).transpose(1, 2)
        k = self.k_proj(x).view(B, T, self.num_heads, self.head_dim).transpose(1, 2)
        v = self.v_proj(x).view(B, T, self.num_heads, self.head_dim).transpose(1, 2)
        w = torch.matmul(q, k.transpose(2, 3)) * self.scaling
        w = w.softmax(dim=-1)
        return torch.matmul(w, v).transpose(1, 2).reshape(B, T, -1)
`,
  ],
  [
    's03_softmax_scale',
    'flash_attn_func(softmax_scale=1/sqrt(head_dim)) with head_dim given apart from dim // heads',
    `import math
import torch
import torch.nn as nn
from flash_attn import flash_attn_func


class Attention(nn.Module):
    def __init__(self, dim, n_heads, head_dim=None):
        super().__init__()
        self.n_heads = n_heads
        self.head_dim = head_dim or dim // n_heads
        self.softmax_scale = 1.0 / math.sqrt(self.head_dim)
        self.wqkv = nn.Linear(dim, 3 * n_heads * self.head_dim)

    def forward(self, x):
        B, T, _ = x.shape
        q, k, v = self.wqkv(x).view(B, T, 3, self.n_heads, self.head_dim).unbind(2)
        out = flash_attn_func(q, k, v, softmax_scale=self.softmax_scale, causal=True)
        return out.reshape(B, T, -1)
`,
  ],
  [
    's04_sdpa_scale',
    'SDPA scale=self.scale with qk_scale or head_dim ** -0.5',
    `import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self, dim, n_heads, qk_scale=None):
        super().__init__()
        self.n_heads = n_heads
        head_dim = dim // n_heads
        self.scale = qk_scale or head_dim ** -0.5
        self.qkv = nn.Linear(dim, dim * 3)

    def forward(self, x):
        B, N, C = x.shape
        q, k, v = self.qkv(x).reshape(B, N, 3, self.n_heads, C // self.n_heads).permute(2, 0, 3, 1, 4)
        x = F.scaled_dot_product_attention(q, k, v, scale=self.scale)
        return x.transpose(1, 2).reshape(B, N, C)
`,
  ],
  [
    's05_quarter',
    'q * d ** -0.25 and k * d ** -0.25',
    `import torch
import torch.nn as nn


class Attention(nn.Module):
    def __init__(self, dim, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.qkv = nn.Linear(dim, dim * 3)

    def forward(self, x):
        B, T, C = x.shape
        d = C // self.n_heads
        q, k, v = self.qkv(x).view(B, T, 3, self.n_heads, d).permute(2, 0, 3, 1, 4)
        q = q * d ** -0.25
        k = k * d ** -0.25
        att = (q @ k.transpose(-2, -1)).softmax(dim=-1)
        return (att @ v).transpose(1, 2).reshape(B, T, C)
`,
  ],
  [
    's06_learnt_temp',
    'learnt temperature on normalised q and k',
    `import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self, dim, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.temperature = nn.Parameter(torch.ones(n_heads, 1, 1))
        self.qkv = nn.Linear(dim, dim * 3)

    def forward(self, x):
        B, N, C = x.shape
        q, k, v = self.qkv(x).reshape(B, N, 3, self.n_heads, C // self.n_heads).permute(2, 0, 3, 1, 4)
        q = F.normalize(q, dim=-1)
        k = F.normalize(k, dim=-1)
        attn = (q @ k.transpose(-2, -1)) * self.temperature
        attn = attn.softmax(dim=-1)
        return (attn @ v).transpose(1, 2).reshape(B, N, C)
`,
  ],
  [
    's07_head_dim_differs',
    'head_dim passed apart from hidden // heads (2048, 8, 256)',
    `import math
import torch
import torch.nn as nn


class Attention(nn.Module):
    def __init__(self, hidden_size, num_heads, head_dim):
        super().__init__()
        self.num_heads = num_heads
        self.head_dim = head_dim
        self.q_proj = nn.Linear(hidden_size, num_heads * head_dim)
        self.k_proj = nn.Linear(hidden_size, num_heads * head_dim)
        self.v_proj = nn.Linear(hidden_size, num_heads * head_dim)

    def forward(self, x):
        B, T, C = x.shape
        q = self.q_proj(x).view(B, T, self.num_heads, self.head_dim).transpose(1, 2)
        k = self.k_proj(x).view(B, T, self.num_heads, self.head_dim).transpose(1, 2)
        v = self.v_proj(x).view(B, T, self.num_heads, self.head_dim).transpose(1, 2)
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.head_dim)
        return (scores.softmax(-1) @ v).transpose(1, 2).reshape(B, T, -1)


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.attn = Attention(2048, 8, 256)
`,
  ],
  [
    's08_literal_ok',
    'self.temperature = 8 over heads 64 wide (view(B, T, 8, 64)): sqrt(64)',
    `import math
import torch
import torch.nn as nn


class Attention(nn.Module):
    def __init__(self):
        super().__init__()
        self.q_proj = nn.Linear(512, 512)
        self.k_proj = nn.Linear(512, 512)
        self.v_proj = nn.Linear(512, 512)
        self.temperature = 8

    def forward(self, x):
        B, T, _ = x.shape
        q = self.q_proj(x).view(B, T, 8, 64).transpose(1, 2)
        k = self.k_proj(x).view(B, T, 8, 64).transpose(1, 2)
        v = self.v_proj(x).view(B, T, 8, 64).transpose(1, 2)
        att = torch.softmax(q @ k.transpose(-2, -1) / self.temperature, dim=-1)
        return (att @ v).transpose(1, 2).reshape(B, T, 512)
`,
  ],
  [
    's09_unknown_div8',
    '/ 8 with no width in view',
    `import torch


def attend(q, k, v):
    att = torch.softmax(q @ k.transpose(-2, -1) / 8, dim=-1)
    return att @ v
`,
  ],
  [
    's10_mla',
    'MLA softmax_scale = (nope + rope) ** -0.5, v width apart',
    `import torch
import torch.nn as nn
import torch.nn.functional as F


class MLA(nn.Module):
    def __init__(self, dim, n_heads, qk_nope_head_dim, qk_rope_head_dim, v_head_dim):
        super().__init__()
        self.n_heads = n_heads
        self.qk_head_dim = qk_nope_head_dim + qk_rope_head_dim
        self.v_head_dim = v_head_dim
        self.softmax_scale = self.qk_head_dim ** -0.5
        self.wq = nn.Linear(dim, n_heads * self.qk_head_dim)
        self.wk = nn.Linear(dim, n_heads * self.qk_head_dim)
        self.wv = nn.Linear(dim, n_heads * v_head_dim)

    def forward(self, x):
        B, T, _ = x.shape
        q = self.wq(x).view(B, T, self.n_heads, self.qk_head_dim)
        k = self.wk(x).view(B, T, self.n_heads, self.qk_head_dim)
        v = self.wv(x).view(B, T, self.n_heads, self.v_head_dim)
        scores = torch.einsum("bshd,bthd->bsht", q, k) * self.softmax_scale
        scores = scores.softmax(dim=-1)
        return torch.einsum("bsht,bthd->bshd", scores, v).flatten(2)
`,
  ],
  [
    's11_temp_module',
    'temperature module bound to d_k ** 0.5 by its caller',
    `import torch
import torch.nn as nn


class ScaledDotProductAttention(nn.Module):
    def __init__(self, temperature, attn_dropout=0.1):
        super().__init__()
        self.temperature = temperature
        self.dropout = nn.Dropout(attn_dropout)

    def forward(self, q, k, v, mask=None):
        attn = torch.matmul(q / self.temperature, k.transpose(2, 3))
        if mask is not None:
            attn = attn.masked_fill(mask == 0, -1e9)
        attn = self.dropout(torch.softmax(attn, dim=-1))
        return torch.matmul(attn, v), attn


class MultiHeadAttention(nn.Module):
    def __init__(self, n_head, d_model, d_k, d_v):
        super().__init__()
        self.n_head, self.d_k, self.d_v = n_head, d_k, d_v
        self.w_qs = nn.Linear(d_model, n_head * d_k, bias=False)
        self.w_ks = nn.Linear(d_model, n_head * d_k, bias=False)
        self.w_vs = nn.Linear(d_model, n_head * d_v, bias=False)
        self.attention = ScaledDotProductAttention(temperature=d_k ** 0.5)

    def forward(self, q, k, v, mask=None):
        B, Lq, Lk = q.size(0), q.size(1), k.size(1)
        q = self.w_qs(q).view(B, Lq, self.n_head, self.d_k).transpose(1, 2)
        k = self.w_ks(k).view(B, Lk, self.n_head, self.d_k).transpose(1, 2)
        v = self.w_vs(v).view(B, Lk, self.n_head, self.d_v).transpose(1, 2)
        out, attn = self.attention(q, k, v, mask=mask)
        return out
`,
  ],
  [
    's12_prescaled_sdpa',
    'q pre-scaled, SDPA told scale=1.0',
    `import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self, dim, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.scale = (dim // n_heads) ** -0.5
        self.qkv = nn.Linear(dim, dim * 3)

    def forward(self, x):
        B, N, C = x.shape
        q, k, v = self.qkv(x).reshape(B, N, 3, self.n_heads, C // self.n_heads).permute(2, 0, 3, 1, 4)
        q = q * self.scale
        x = F.scaled_dot_product_attention(q, k, v, scale=1.0)
        return x.transpose(1, 2).reshape(B, N, C)
`,
  ],
  [
    's13_logit_scale',
    'cosine attention with a clamped learnt logit scale',
    `import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class WindowAttention(nn.Module):
    def __init__(self, dim, num_heads):
        super().__init__()
        self.num_heads = num_heads
        self.logit_scale = nn.Parameter(torch.log(10 * torch.ones((num_heads, 1, 1))))
        self.qkv = nn.Linear(dim, dim * 3)

    def forward(self, x):
        B, N, C = x.shape
        q, k, v = self.qkv(x).reshape(B, N, 3, self.num_heads, -1).permute(2, 0, 3, 1, 4)
        attn = F.normalize(q, dim=-1) @ F.normalize(k, dim=-1).transpose(-2, -1)
        logit_scale = torch.clamp(self.logit_scale, max=math.log(1.0 / 0.01)).exp()
        attn = attn * logit_scale
        attn = attn.softmax(dim=-1)
        return (attn @ v).transpose(1, 2).reshape(B, N, C)
`,
  ],
  [
    's14_gemma_cfg',
    'dataclass config head_dim 256 with query_pre_attn_scalar, SDPA scale=',
    `import torch
import torch.nn as nn
import torch.nn.functional as F
from dataclasses import dataclass


@dataclass
class Config:
    hidden_size: int = 2304
    num_attention_heads: int = 8
    head_dim: int = 256
    query_pre_attn_scalar: int = 256


class Attention(nn.Module):
    def __init__(self, config: Config):
        super().__init__()
        self.num_heads = config.num_attention_heads
        self.head_dim = config.head_dim
        self.scaling = config.query_pre_attn_scalar ** -0.5
        self.q_proj = nn.Linear(config.hidden_size, self.num_heads * self.head_dim)
        self.k_proj = nn.Linear(config.hidden_size, self.num_heads * self.head_dim)
        self.v_proj = nn.Linear(config.hidden_size, self.num_heads * self.head_dim)

    def forward(self, x):
        B, T, _ = x.shape
        q = self.q_proj(x).view(B, T, self.num_heads, self.head_dim).transpose(1, 2)
        k = self.k_proj(x).view(B, T, self.num_heads, self.head_dim).transpose(1, 2)
        v = self.v_proj(x).view(B, T, self.num_heads, self.head_dim).transpose(1, 2)
        out = F.scaled_dot_product_attention(q, k, v, scale=self.scaling, is_causal=True)
        return out.transpose(1, 2).reshape(B, T, -1)
`,
  ],
  [
    's15_quarter_sdpa',
    'q and k each * d ** -0.25, SDPA scale=1.0',
    `import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self, dim, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.qkv = nn.Linear(dim, dim * 3)

    def forward(self, x):
        B, T, C = x.shape
        d = C // self.n_heads
        q, k, v = self.qkv(x).view(B, T, 3, self.n_heads, d).permute(2, 0, 3, 1, 4)
        scale = d ** -0.25
        out = F.scaled_dot_product_attention(q * scale, k * scale, v, scale=1.0)
        return out.transpose(1, 2).reshape(B, T, C)
`,
  ],
  [
    'o1_pow_half',
    'literal width: * 64 ** -0.5 over view(B, T, 8, 64)',
    `import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self):
        super().__init__()
        self.q_proj = nn.Linear(512, 512)
        self.k_proj = nn.Linear(512, 512)
        self.v_proj = nn.Linear(512, 512)


    def forward(self, x):
        B, T, _ = x.shape
        q = self.q_proj(x).view(B, T, 8, 64).transpose(1, 2)
        k = self.k_proj(x).view(B, T, 8, 64).transpose(1, 2)
        v = self.v_proj(x).view(B, T, 8, 64).transpose(1, 2)
        y = (q @ k.transpose(-2, -1) * 64 ** -0.5).softmax(dim=-1) @ v
        return y.transpose(1, 2).reshape(B, T, 512)
`,
  ],
  [
    'o2_fold_q',
    'literal width: q / 8 over view(B, T, 8, 64)',
    `import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self):
        super().__init__()
        self.q_proj = nn.Linear(512, 512)
        self.k_proj = nn.Linear(512, 512)
        self.v_proj = nn.Linear(512, 512)


    def forward(self, x):
        B, T, _ = x.shape
        q = self.q_proj(x).view(B, T, 8, 64).transpose(1, 2)
        k = self.k_proj(x).view(B, T, 8, 64).transpose(1, 2)
        v = self.v_proj(x).view(B, T, 8, 64).transpose(1, 2)
        q = q / 8
        y = (q @ k.transpose(-2, -1)).softmax(dim=-1) @ v
        return y.transpose(1, 2).reshape(B, T, 512)
`,
  ],
  [
    'o3_sdpa',
    'literal width: SDPA scale=1.0 / 8',
    `import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self):
        super().__init__()
        self.q_proj = nn.Linear(512, 512)
        self.k_proj = nn.Linear(512, 512)
        self.v_proj = nn.Linear(512, 512)


    def forward(self, x):
        B, T, _ = x.shape
        q = self.q_proj(x).view(B, T, 8, 64).transpose(1, 2)
        k = self.k_proj(x).view(B, T, 8, 64).transpose(1, 2)
        v = self.v_proj(x).view(B, T, 8, 64).transpose(1, 2)
        y = F.scaled_dot_product_attention(q, k, v, scale=1.0 / 8)
        return y.transpose(1, 2).reshape(B, T, 512)
`,
  ],
  [
    'o4_self_scale',
    'literal width: self.scale = 1.0 / 8',
    `import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self):
        super().__init__()
        self.q_proj = nn.Linear(512, 512)
        self.k_proj = nn.Linear(512, 512)
        self.v_proj = nn.Linear(512, 512)
        self.scale = 1.0 / 8

    def forward(self, x):
        B, T, _ = x.shape
        q = self.q_proj(x).view(B, T, 8, 64).transpose(1, 2)
        k = self.k_proj(x).view(B, T, 8, 64).transpose(1, 2)
        v = self.v_proj(x).view(B, T, 8, 64).transpose(1, 2)
        y = (q @ k.transpose(-2, -1) * self.scale).softmax(dim=-1) @ v
        return y.transpose(1, 2).reshape(B, T, 512)
`,
  ],
  [
    'o5_temp',
    'literal width: self.temperature = 8',
    `import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self):
        super().__init__()
        self.q_proj = nn.Linear(512, 512)
        self.k_proj = nn.Linear(512, 512)
        self.v_proj = nn.Linear(512, 512)
        self.temperature = 8

    def forward(self, x):
        B, T, _ = x.shape
        q = self.q_proj(x).view(B, T, 8, 64).transpose(1, 2)
        k = self.k_proj(x).view(B, T, 8, 64).transpose(1, 2)
        v = self.v_proj(x).view(B, T, 8, 64).transpose(1, 2)
        y = F.softmax(q @ k.transpose(-2, -1) / self.temperature, dim=-1) @ v
        return y.transpose(1, 2).reshape(B, T, 512)
`,
  ],
  [
    'o6_div',
    'literal width: / 8',
    `import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self):
        super().__init__()
        self.q_proj = nn.Linear(512, 512)
        self.k_proj = nn.Linear(512, 512)
        self.v_proj = nn.Linear(512, 512)


    def forward(self, x):
        B, T, _ = x.shape
        q = self.q_proj(x).view(B, T, 8, 64).transpose(1, 2)
        k = self.k_proj(x).view(B, T, 8, 64).transpose(1, 2)
        v = self.v_proj(x).view(B, T, 8, 64).transpose(1, 2)
        y = (q @ k.transpose(-2, -1) / 8).softmax(dim=-1) @ v
        return y.transpose(1, 2).reshape(B, T, 512)
`,
  ],
  [
    'o7_mul',
    'literal width: * 0.125',
    `import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self):
        super().__init__()
        self.q_proj = nn.Linear(512, 512)
        self.k_proj = nn.Linear(512, 512)
        self.v_proj = nn.Linear(512, 512)


    def forward(self, x):
        B, T, _ = x.shape
        q = self.q_proj(x).view(B, T, 8, 64).transpose(1, 2)
        k = self.k_proj(x).view(B, T, 8, 64).transpose(1, 2)
        v = self.v_proj(x).view(B, T, 8, 64).transpose(1, 2)
        y = (q @ k.transpose(-2, -1) * 0.125).softmax(dim=-1) @ v
        return y.transpose(1, 2).reshape(B, T, 512)
`,
  ],
  [
    'o8_temp_module',
    'literal width: temperature module built with temperature=8',
    `import torch
import torch.nn as nn
import torch.nn.functional as F


class ScaledDotProductAttention(nn.Module):
    def __init__(self, temperature):
        super().__init__()
        self.temperature = temperature

    def forward(self, q, k, v):
        attn = torch.matmul(q / self.temperature, k.transpose(2, 3))
        return torch.matmul(F.softmax(attn, dim=-1), v)


class Attention(nn.Module):
    def __init__(self):
        super().__init__()
        self.qkv = nn.Linear(512, 3 * 512)
        self.attention = ScaledDotProductAttention(temperature=8)

    def forward(self, x):
        B, T, _ = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, 8, 64).permute(2, 0, 3, 1, 4)
        return self.attention(q, k, v).transpose(1, 2).reshape(B, T, 512)
`,
  ],
  [
    'a1_neox',
    'GPT-NeoX-style layer_past, is_causal=attention_mask is None and q_len > 1',
    `import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self, hidden, heads):
        super().__init__()
        self.heads = heads
        self.head_size = hidden // heads
        self.query_key_value = nn.Linear(hidden, 3 * hidden)

    def forward(self, x, attention_mask=None, layer_past=None, use_cache=False):
        B, T, C = x.shape
        qkv = self.query_key_value(x).view(B, T, self.heads, 3 * self.head_size).permute(0, 2, 1, 3)
        q, k, v = qkv.chunk(3, dim=-1)
        if layer_past is not None:
            past_key, past_value = layer_past
            k = torch.cat((past_key, k), dim=-2)
            v = torch.cat((past_value, v), dim=-2)
        present = (k, v) if use_cache else None
        q_len = q.shape[2]
        out = F.scaled_dot_product_attention(q, k, v, attn_mask=attention_mask, is_causal=attention_mask is None and q_len > 1)
        return out.transpose(1, 2).reshape(B, T, C), present
`,
  ],
  [
    'a2_llama1_mask',
    'Llama 1: buffer read back, mask triu(diagonal=start_pos + 1) only when seqlen > 1',
    `import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self, dim, n_heads, max_batch, max_seq):
        super().__init__()
        self.n_heads = n_heads
        self.head_dim = dim // n_heads
        self.wq = nn.Linear(dim, dim, bias=False)
        self.wk = nn.Linear(dim, dim, bias=False)
        self.wv = nn.Linear(dim, dim, bias=False)
        self.cache_k = torch.zeros(max_batch, max_seq, n_heads, self.head_dim)
        self.cache_v = torch.zeros(max_batch, max_seq, n_heads, self.head_dim)

    def forward(self, x, start_pos, mask):
        bsz, seqlen, _ = x.shape
        xq = self.wq(x).view(bsz, seqlen, self.n_heads, self.head_dim)
        xk = self.wk(x).view(bsz, seqlen, self.n_heads, self.head_dim)
        xv = self.wv(x).view(bsz, seqlen, self.n_heads, self.head_dim)
        self.cache_k[:bsz, start_pos : start_pos + seqlen] = xk
        self.cache_v[:bsz, start_pos : start_pos + seqlen] = xv
        keys = self.cache_k[:bsz, : start_pos + seqlen].transpose(1, 2)
        values = self.cache_v[:bsz, : start_pos + seqlen].transpose(1, 2)
        xq = xq.transpose(1, 2)
        scores = torch.matmul(xq, keys.transpose(2, 3)) / math.sqrt(self.head_dim)
        if mask is not None:
            scores = scores + mask
        scores = F.softmax(scores.float(), dim=-1).type_as(xq)
        return torch.matmul(scores, values).transpose(1, 2).reshape(bsz, seqlen, -1)


class Transformer(nn.Module):
    def __init__(self, dim, n_heads):
        super().__init__()
        self.layer = Attention(dim, n_heads, 4, 512)

    def forward(self, h, start_pos):
        seqlen = h.shape[1]
        mask = None
        if seqlen > 1:
            mask = torch.full((1, 1, seqlen, seqlen), float("-inf"), device=h.device)
            mask = torch.triu(mask, diagonal=start_pos + 1).type_as(h)
        return self.layer(h, start_pos, mask)
`,
  ],
  [
    'a3_mlx',
    'MLX cache tuple joined by mx.concatenate, additive causal mask of the prompt',
    `import mlx.core as mx
import mlx.nn as nn


class Attention(nn.Module):
    def __init__(self, dims, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.scale = (dims // n_heads) ** -0.5
        self.wq = nn.Linear(dims, dims, bias=False)
        self.wk = nn.Linear(dims, dims, bias=False)
        self.wv = nn.Linear(dims, dims, bias=False)

    def __call__(self, x, mask=None, cache=None):
        B, L, D = x.shape
        q = self.wq(x).reshape(B, L, self.n_heads, -1).transpose(0, 2, 1, 3)
        k = self.wk(x).reshape(B, L, self.n_heads, -1).transpose(0, 2, 1, 3)
        v = self.wv(x).reshape(B, L, self.n_heads, -1).transpose(0, 2, 1, 3)
        if cache is not None:
            key_cache, value_cache = cache
            k = mx.concatenate([key_cache, k], axis=2)
            v = mx.concatenate([value_cache, v], axis=2)
        scores = (q * self.scale) @ k.transpose(0, 1, 3, 2)
        if mask is not None:
            scores = scores + mask
        scores = mx.softmax(scores, axis=-1)
        return (scores @ v).transpose(0, 2, 1, 3).reshape(B, L, -1), (k, v)


def generate(model, x):
    mask = nn.MultiHeadAttention.create_additive_causal_mask(x.shape[1])
    out, cache = model(x, mask=mask)
    return out, cache
`,
  ],
  [
    'a4_lucid',
    'dim_head ** -0.5 with inner_dim = dim_head * heads (einops split)',
    `import torch
import torch.nn as nn
from einops import rearrange


class Attention(nn.Module):
    def __init__(self, dim, heads=8, dim_head=64):
        super().__init__()
        inner_dim = dim_head * heads
        self.heads = heads
        self.scale = dim_head ** -0.5
        self.to_qkv = nn.Linear(dim, inner_dim * 3, bias=False)
        self.to_out = nn.Linear(inner_dim, dim)

    def forward(self, x):
        qkv = self.to_qkv(x).chunk(3, dim=-1)
        q, k, v = map(lambda t: rearrange(t, "b n (h d) -> b h n d", h=self.heads), qkv)
        dots = torch.matmul(q, k.transpose(-1, -2)) * self.scale
        attn = dots.softmax(dim=-1)
        out = torch.matmul(attn, v)
        return self.to_out(rearrange(out, "b h n d -> b n (h d)"))
`,
  ],
  [
    'a5_karpathy_head',
    'single head, k.shape[-1] ** -0.5',
    `import torch
import torch.nn as nn
from torch.nn import functional as F


class Head(nn.Module):
    def __init__(self, n_embd, head_size, block_size):
        super().__init__()
        self.key = nn.Linear(n_embd, head_size, bias=False)
        self.query = nn.Linear(n_embd, head_size, bias=False)
        self.value = nn.Linear(n_embd, head_size, bias=False)
        self.register_buffer("tril", torch.tril(torch.ones(block_size, block_size)))

    def forward(self, x):
        B, T, C = x.shape
        k = self.key(x)
        q = self.query(x)
        wei = q @ k.transpose(-2, -1) * k.shape[-1] ** -0.5
        wei = wei.masked_fill(self.tril[:T, :T] == 0, float("-inf"))
        wei = F.softmax(wei, dim=-1)
        return wei @ self.value(x)
`,
  ],
  [
    'a6_mqa',
    'multi-query attention, one key head, 1/sqrt(head_dim)',
    `import math
import torch
import torch.nn as nn


class MultiQueryAttention(nn.Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.head_dim = d_model // n_heads
        self.softmax_scale = 1 / math.sqrt(self.head_dim)
        self.Wqkv = nn.Linear(d_model, d_model + 2 * self.head_dim)

    def forward(self, x):
        B, T, C = x.shape
        qkv = self.Wqkv(x)
        q, k, v = qkv.split([C, self.head_dim, self.head_dim], dim=2)
        q = q.view(B, T, self.n_heads, self.head_dim).transpose(1, 2)
        k = k.view(B, T, 1, self.head_dim).transpose(1, 2)
        v = v.view(B, T, 1, self.head_dim).transpose(1, 2)
        attn = q.matmul(k.transpose(-2, -1)) * self.softmax_scale
        attn = torch.softmax(attn, dim=-1)
        return attn.matmul(v).transpose(1, 2).reshape(B, T, C)
`,
  ],
  [
    'a7_annotated',
    'Annotated Transformer: attention() helper with query.size(-1)',
    `import math
import torch
import torch.nn as nn


def attention(query, key, value, mask=None, dropout=None):
    d_k = query.size(-1)
    scores = torch.matmul(query, key.transpose(-2, -1)) / math.sqrt(d_k)
    if mask is not None:
        scores = scores.masked_fill(mask == 0, -1e9)
    p_attn = scores.softmax(dim=-1)
    return torch.matmul(p_attn, value), p_attn


class MultiHeadedAttention(nn.Module):
    def __init__(self, h, d_model):
        super().__init__()
        self.d_k = d_model // h
        self.h = h
        self.linears = nn.ModuleList([nn.Linear(d_model, d_model) for _ in range(4)])

    def forward(self, query, key, value, mask=None):
        nbatches = query.size(0)
        query, key, value = [lin(x).view(nbatches, -1, self.h, self.d_k).transpose(1, 2) for lin, x in zip(self.linears, (query, key, value))]
        x, self.attn = attention(query, key, value, mask=mask)
        x = x.transpose(1, 2).contiguous().view(nbatches, -1, self.h * self.d_k)
        return self.linears[-1](x)
`,
  ],
];

const BUGGY: readonly (readonly [id: string, code: string, line: number, what: string, src: string])[] = [
  [
    'b01_hstack_wrong',
    'ATT008',
    12,
    "hstack([triu(-inf, 1), zeros(T, start_pos)]): the cache's columns after the triangle",
    `import torch
import torch.nn.functional as F


def attend(q, k, v, cache_k, cache_v, start_pos):
    T = q.size(-2)
    k = torch.cat([cache_k[:, :, :start_pos], k], dim=-2)
    v = torch.cat([cache_v[:, :, :start_pos], v], dim=-2)
    mask = torch.full((T, T), float("-inf"), device=q.device)
    mask = torch.triu(mask, diagonal=1)
    mask = torch.hstack([mask, torch.zeros((T, start_pos), device=q.device)])
    return F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
`,
  ],
  [
    'b02_pad_wrong',
    'ATT008',
    12,
    'F.pad(tri, (0, start), value=True): cache columns padded on the right',
    `import torch
import torch.nn.functional as F


def attend(q, k, v, past_k, past_v):
    T = q.size(-2)
    start = past_k.size(-2)
    k = torch.cat([past_k, k], dim=-2)
    v = torch.cat([past_v, v], dim=-2)
    tri = torch.ones(T, T, dtype=torch.bool, device=q.device).tril()
    mask = F.pad(tri, (0, start), value=True)
    return F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
`,
  ],
  [
    'b03_cat_wrong',
    'ATT008',
    12,
    'cat([tri, ones(T, start)], dim=-1): cache columns on the right',
    `import torch
import torch.nn.functional as F


def attend(q, k, v, past_k, past_v):
    T = q.size(-2)
    start = past_k.size(-2)
    k = torch.cat([past_k, k], dim=-2)
    v = torch.cat([past_v, v], dim=-2)
    tri = torch.ones(T, T, dtype=torch.bool, device=q.device).tril()
    mask = torch.cat([tri, torch.ones(T, start, dtype=torch.bool, device=q.device)], dim=-1)
    return F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
`,
  ],
  [
    'b04_manual_wrong',
    'ATT008',
    12,
    'hand-written scores plus cat([triu(-inf, 1), zeros(T, start_pos)], dim=-1)',
    `import math
import torch


def attend(q, k, v, cache_k, cache_v, start_pos):
    T = q.size(-2)
    keys = torch.cat([cache_k[:, :, :start_pos], k], dim=-2)
    values = torch.cat([cache_v[:, :, :start_pos], v], dim=-2)
    scores = q @ keys.transpose(-2, -1) / math.sqrt(q.size(-1))
    mask = torch.triu(torch.full((T, T), float("-inf"), device=q.device), diagonal=1)
    mask = torch.cat([mask, torch.zeros(T, start_pos, device=q.device)], dim=-1)
    scores = scores + mask
    return scores.softmax(dim=-1) @ values
`,
  ],
  [
    'b15_store',
    'ATT008',
    16,
    'store entry read with .get, extended and written back, is_causal=True',
    `import torch
import torch.nn.functional as F


class Layer(torch.nn.Module):
    def __init__(self, store):
        super().__init__()
        self.store = store

    def forward(self, q, k, v, layer):
        old = self.store.get(layer)
        if old is not None:
            k = torch.cat([old[0], k], dim=-2)
            v = torch.cat([old[1], v], dim=-2)
        self.store[layer] = (k, v)
        return F.scaled_dot_product_attention(q, k, v, is_causal=True)
`,
  ],
  [
    'b16_prefill_arm_decode',
    'ATT008',
    25,
    'is_causal=True under start_pos > 0 (the cached steps)',
    `import torch
import torch.nn.functional as F


class Attention(torch.nn.Module):
    def __init__(self, dim, n_heads, max_batch, max_seq):
        super().__init__()
        self.n_heads = n_heads
        self.wq = torch.nn.Linear(dim, dim)
        self.wk = torch.nn.Linear(dim, dim)
        self.wv = torch.nn.Linear(dim, dim)
        self.cache_k = torch.zeros(max_batch, n_heads, max_seq, dim // n_heads)
        self.cache_v = torch.zeros(max_batch, n_heads, max_seq, dim // n_heads)

    def forward(self, x, start_pos):
        B, T, C = x.shape
        q = self.wq(x).view(B, T, self.n_heads, -1).transpose(1, 2)
        k = self.wk(x).view(B, T, self.n_heads, -1).transpose(1, 2)
        v = self.wv(x).view(B, T, self.n_heads, -1).transpose(1, 2)
        self.cache_k[:B, :, start_pos:start_pos + T] = k
        self.cache_v[:B, :, start_pos:start_pos + T] = v
        keys = self.cache_k[:B, :, :start_pos + T]
        values = self.cache_v[:B, :, :start_pos + T]
        if start_pos > 0:
            out = F.scaled_dot_product_attention(q, keys, values, is_causal=True)
        else:
            out = F.scaled_dot_product_attention(q, keys, values)
        return out.transpose(1, 2).reshape(B, T, C)
`,
  ],
  [
    'b17_no_arm',
    'ATT008',
    24,
    'is_causal=True on the Llama buffer read with no prefill arm',
    `import torch
import torch.nn.functional as F


class Attention(torch.nn.Module):
    def __init__(self, dim, n_heads, max_batch, max_seq):
        super().__init__()
        self.n_heads = n_heads
        self.wq = torch.nn.Linear(dim, dim)
        self.wk = torch.nn.Linear(dim, dim)
        self.wv = torch.nn.Linear(dim, dim)
        self.cache_k = torch.zeros(max_batch, n_heads, max_seq, dim // n_heads)
        self.cache_v = torch.zeros(max_batch, n_heads, max_seq, dim // n_heads)

    def forward(self, x, start_pos):
        B, T, C = x.shape
        q = self.wq(x).view(B, T, self.n_heads, -1).transpose(1, 2)
        k = self.wk(x).view(B, T, self.n_heads, -1).transpose(1, 2)
        v = self.wv(x).view(B, T, self.n_heads, -1).transpose(1, 2)
        self.cache_k[:B, :, start_pos:start_pos + T] = k
        self.cache_v[:B, :, start_pos:start_pos + T] = v
        keys = self.cache_k[:B, :, :start_pos + T]
        values = self.cache_v[:B, :, :start_pos + T]
        out = F.scaled_dot_product_attention(q, keys, values, is_causal=True)
        return out.transpose(1, 2).reshape(B, T, C)
`,
  ],
  [
    'n1_pow_neg1',
    'ATT004',
    20,
    'literal width: * 64 ** -1 over view(B, T, 8, 64)',
    `import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self):
        super().__init__()
        self.q_proj = nn.Linear(512, 512)
        self.k_proj = nn.Linear(512, 512)
        self.v_proj = nn.Linear(512, 512)


    def forward(self, x):
        B, T, _ = x.shape
        q = self.q_proj(x).view(B, T, 8, 64).transpose(1, 2)
        k = self.k_proj(x).view(B, T, 8, 64).transpose(1, 2)
        v = self.v_proj(x).view(B, T, 8, 64).transpose(1, 2)
        y = (q @ k.transpose(-2, -1) * 64 ** -1).softmax(dim=-1) @ v
        return y.transpose(1, 2).reshape(B, T, 512)
`,
  ],
  [
    'n4_self_scale',
    'ATT004',
    20,
    'literal width: self.scale = 1.0 / 64',
    `import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self):
        super().__init__()
        self.q_proj = nn.Linear(512, 512)
        self.k_proj = nn.Linear(512, 512)
        self.v_proj = nn.Linear(512, 512)
        self.scale = 1.0 / 64

    def forward(self, x):
        B, T, _ = x.shape
        q = self.q_proj(x).view(B, T, 8, 64).transpose(1, 2)
        k = self.k_proj(x).view(B, T, 8, 64).transpose(1, 2)
        v = self.v_proj(x).view(B, T, 8, 64).transpose(1, 2)
        y = (q @ k.transpose(-2, -1) * self.scale).softmax(dim=-1) @ v
        return y.transpose(1, 2).reshape(B, T, 512)
`,
  ],
  [
    'n5_temp',
    'ATT004',
    20,
    'literal width: self.temperature = 64 (divided by)',
    `import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self):
        super().__init__()
        self.q_proj = nn.Linear(512, 512)
        self.k_proj = nn.Linear(512, 512)
        self.v_proj = nn.Linear(512, 512)
        self.temperature = 64

    def forward(self, x):
        B, T, _ = x.shape
        q = self.q_proj(x).view(B, T, 8, 64).transpose(1, 2)
        k = self.k_proj(x).view(B, T, 8, 64).transpose(1, 2)
        v = self.v_proj(x).view(B, T, 8, 64).transpose(1, 2)
        y = F.softmax(q @ k.transpose(-2, -1) / self.temperature, dim=-1) @ v
        return y.transpose(1, 2).reshape(B, T, 512)
`,
  ],
  [
    'n2_fold_q',
    'ATT004',
    20,
    'literal width: q = q / 64 over view(B, T, 8, 64)',
    `import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self):
        super().__init__()
        self.q_proj = nn.Linear(512, 512)
        self.k_proj = nn.Linear(512, 512)
        self.v_proj = nn.Linear(512, 512)


    def forward(self, x):
        B, T, _ = x.shape
        q = self.q_proj(x).view(B, T, 8, 64).transpose(1, 2)
        k = self.k_proj(x).view(B, T, 8, 64).transpose(1, 2)
        v = self.v_proj(x).view(B, T, 8, 64).transpose(1, 2)
        q = q / 64
        y = (q @ k.transpose(-2, -1)).softmax(dim=-1) @ v
        return y.transpose(1, 2).reshape(B, T, 512)
`,
  ],
  [
    'n7_temp_module',
    'ATT004',
    12,
    'literal width: temperature module built with temperature=64, reported where q is divided',
    `import torch
import torch.nn as nn
import torch.nn.functional as F


class ScaledDotProductAttention(nn.Module):
    def __init__(self, temperature):
        super().__init__()
        self.temperature = temperature

    def forward(self, q, k, v):
        attn = torch.matmul(q / self.temperature, k.transpose(2, 3))
        return torch.matmul(F.softmax(attn, dim=-1), v)


class Attention(nn.Module):
    def __init__(self):
        super().__init__()
        self.qkv = nn.Linear(512, 3 * 512)
        self.attention = ScaledDotProductAttention(temperature=64)

    def forward(self, x):
        B, T, _ = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, 8, 64).permute(2, 0, 3, 1, 4)
        return self.attention(q, k, v).transpose(1, 2).reshape(B, T, 512)
`,
  ],
];

const MASKS_WRONG = `import torch


def decode_mask(T, start, device):
    tri = torch.triu(torch.full((T, T), float("-inf"), device=device), diagonal=1)
    return torch.cat([tri, torch.zeros(T, start, device=device)], dim=-1)
`;

const ATTN = `import torch
import torch.nn.functional as F

from masks import decode_mask


def attend(q, k, v, cache_k, cache_v, start_pos):
    T = q.size(-2)
    k = torch.cat([cache_k[:, :, :start_pos], k], dim=-2)
    v = torch.cat([cache_v[:, :, :start_pos], v], dim=-2)
    mask = decode_mask(T, start_pos, q.device)
    return F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
`;

describe('leftovers29: causal-with-cache (ATT008) and scale (ATT004) classes', () => {
  for (const [id, what, code] of CORRECT) {
    it(`correct, silent: ${id} (${what})`, async () => {
      assert.deepEqual(await findingLines(code, 'ATT008'), [], 'ATT008');
      assert.deepEqual(await findingLines(code, 'ATT004'), [], 'ATT004');
      // The literal widths' roots are the width's scale: no missing-scale finding either.
      if (id.startsWith('o') || id === 's08_literal_ok') assert.deepEqual(await findingLines(code, 'ATT003'), [], 'ATT003');
    });
  }
  for (const [id, code, line, what, src] of BUGGY) {
    it(`buggy, ${code} at line ${line}: ${id} (${what})`, async () => {
      assert.deepEqual(await findingLines(src, code), [line]);
      // One finding, by the right rule: the literal width is reported as d, not also as a missing scale.
      if (code === 'ATT004') assert.deepEqual(await findingLines(src, 'ATT003'), []);
    });
  }
  it('cross-file: the mask helper of another file joins the cache columns after the triangle', async () => {
    assert.deepEqual(await workspaceFindingLines({ 'masks.py': MASKS_WRONG, 'attn.py': ATTN }, 'attn.py', 'ATT008'), [12]);
  });
  it('cross-file, fixed: the helper puts the cache columns first', async () => {
    const fixed = MASKS_WRONG.replace(
      'torch.cat([tri, torch.zeros(T, start, device=device)], dim=-1)',
      'torch.cat([torch.zeros(T, start, device=device), tri], dim=-1)',
    );
    assert.notEqual(fixed, MASKS_WRONG);
    assert.deepEqual(await workspaceFindingLines({ 'masks.py': fixed, 'attn.py': ATTN }, 'attn.py', 'ATT008'), []);
  });
  it('a causal triangle joined with a block whose size is not written stays unknown (silent)', async () => {
    const [, , , , src] = BUGGY[0] ?? [];
    const unknown = (src ?? '')
      .replace('torch.zeros((T, start_pos), device=q.device)', 'pad_cols')
      .replace('def attend(q, k, v, cache_k, cache_v, start_pos):', 'def attend(q, k, v, cache_k, cache_v, start_pos, pad_cols):');
    assert.ok(unknown.includes('pad_cols)'));
    assert.deepEqual(await findingLines(unknown, 'ATT008'), []);
  });
  it('a store entry read and joined but never written back stays silent', async () => {
    const [, , , , src] = BUGGY.find(([id]) => id === 'b15_store') ?? [];
    assert.deepEqual(await findingLines((src ?? '').replace('        self.store[layer] = (k, v)\n', ''), 'ATT008'), []);
  });
});
