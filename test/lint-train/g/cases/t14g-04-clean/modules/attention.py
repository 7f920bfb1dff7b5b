# case: t14g-04-clean
# modelled-on: WajdiHammami/llm-attention-from-scratch https://github.com/WajdiHammami/llm-attention-from-scratch/commit/798ab2de4d4869e0987d47733a710e4bc2c15024
# label: correct
# class: clean
# pattern: a decoder-only LM built to study attention variants: grouped-query attention with fewer key/value heads than query heads (each query head picks its KV group by indexing with arange(heads) // heads_per_kv), RoPE from another module, and two paths: training, which adds a (T, T) triu(full(-inf), diagonal=1) matrix to the scores, and cached inference, which asserts one new token, concatenates its key and value to the cache dict along the time axis and attends the single query to every cached key with no mask; both divide Q @ K_sel.transpose(-2, -1) by head_dim ** 0.5
# why: correct: K_sel is (B, heads, T, head_dim), so transpose(-2, -1) swaps time and features and head_dim ** 0.5 is the per-head scale; the training mask is additive, -inf strictly above the diagonal and 0 elsewhere, which is the causal mask for a full sequence; in cached decoding the one query is the newest position and may see every cached key, so no mask is right (a top-left causal mask would be wrong there); what a naive linter could misread: ATT008 (a cache with no causal handling), ATT006 (a mask added into the scores), ATT004 (head_dim ** 0.5 with GQA), ATT005 (a transpose of gathered keys), ATT007 (a -inf matrix)
# looks-like: ATT004, ATT005, ATT006, ATT007, ATT008
# source: https://github.com/WajdiHammami/llm-attention-from-scratch https://github.com/WajdiHammami/llm-attention-from-scratch/commit/798ab2de4d4869e0987d47733a710e4bc2c15024 src/modules/attention.py
import torch
import torch.nn as nn

from modules.rope import RotaryEmbedding


class GroupedQueryAttention(nn.Module):
    def __init__(self, d_model, num_heads, num_kv_heads=None, max_positions=2048, rope_base=10000):
        super().__init__()
        self.d_model = d_model
        self.num_heads = num_heads
        self.num_kv_heads = num_kv_heads if num_kv_heads is not None else num_heads
        self.head_dim = d_model // num_heads
        assert num_heads % self.num_kv_heads == 0
        self.heads_per_kv = num_heads // self.num_kv_heads
        self.W_Q = nn.Linear(d_model, d_model, bias=False)
        self.W_K = nn.Linear(d_model, self.num_kv_heads * self.head_dim, bias=False)
        self.W_V = nn.Linear(d_model, self.num_kv_heads * self.head_dim, bias=False)
        self.W_O = nn.Linear(d_model, d_model, bias=False)
        self.rope = RotaryEmbedding(self.head_dim, max_positions, rope_base)

    def _heads(self, x, B, T, n):
        return x.view(B, T, n, self.head_dim).transpose(1, 2)

    def forward(self, x, cache=None):
        if cache is None:
            return self._forward_train(x)
        return self._forward_step(x, cache)

    def _forward_train(self, x):
        B, T, _ = x.shape
        Q = self._heads(self.W_Q(x), B, T, self.num_heads)
        K = self._heads(self.W_K(x), B, T, self.num_kv_heads)
        V = self._heads(self.W_V(x), B, T, self.num_kv_heads)
        cos, sin = self.rope.get_cos_sin(T, x.device, x.dtype)
        Q, K = self.rope.apply_rotary(Q, K, cos, sin)
        group = torch.arange(self.num_heads, device=x.device) // self.heads_per_kv
        K_sel, V_sel = K[:, group], V[:, group]  # (B, heads, T, head_dim)
        scores = torch.matmul(Q, K_sel.transpose(-2, -1)) / (self.head_dim**0.5)
        causal = torch.triu(torch.full((T, T), float("-inf"), device=x.device), diagonal=1)
        scores = scores + causal
        attn = torch.softmax(scores, dim=-1)
        out = torch.matmul(attn, V_sel).transpose(1, 2).contiguous().view(B, T, self.d_model)
        return self.W_O(out), None

    def _forward_step(self, x, cache):
        B, T, _ = x.shape
        assert T == 1, "cached decoding feeds one token at a time"
        Q = self._heads(self.W_Q(x), B, 1, self.num_heads)
        K_new = self._heads(self.W_K(x), B, 1, self.num_kv_heads)
        V_new = self._heads(self.W_V(x), B, 1, self.num_kv_heads)
        if cache["k"] is None:
            K_all, V_all = K_new, V_new
        else:
            K_all = torch.cat([cache["k"], K_new], dim=2)
            V_all = torch.cat([cache["v"], V_new], dim=2)
        total = K_all.size(2)
        cos, sin = self.rope.get_cos_sin(total, x.device, x.dtype)
        Q, _ = self.rope.apply_rotary(Q, K_new, cos[-1:], sin[-1:])
        _, K_rot = self.rope.apply_rotary(torch.zeros_like(K_all), K_all, cos, sin)
        group = torch.arange(self.num_heads, device=x.device) // self.heads_per_kv
        K_sel, V_sel = K_rot[:, group], V_all[:, group]  # (B, heads, total, head_dim)
        scores = torch.matmul(Q, K_sel.transpose(-2, -1)) / (self.head_dim**0.5)
        attn = torch.softmax(scores, dim=-1)  # one query, every cached key
        out = torch.matmul(attn, V_sel).transpose(1, 2).contiguous().view(B, 1, self.d_model)
        return self.W_O(out), {"k": K_all, "v": V_all}
