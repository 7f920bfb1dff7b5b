# case: b8-13-clean
# modelled-on: gongyisheng/llm-from-scratch https://github.com/gongyisheng/llm-from-scratch/commit/6dcb1e47ee09474cc3bd510e4a3e6fd453547ab0
# label: correct
# class: clean
# pattern: a from-scratch Qwen3 inference: the grouped-query attention (QK-norm, RoPE by position ids, KV cache concatenated in front) only adds whatever additive mask it is given; the generation module builds the masks: for a left-padded batch prefill, (triu(diagonal=1) | padding key) with the diagonal forced open, turned into where(blocked, -inf, 0); for each decode step a (B, 1, 1, kv_len) mask from the padding mask extended by one open column; single-prompt prefill uses the triu mask alone and decode passes none
# why: correct: the boolean masks are True where attention is blocked and where() puts -inf exactly there; the prefill mask is square (no cache yet) so its triangle is aligned; every decode step has one query, which may see every non-padding cached key; keeping the diagonal open means a padded row is never all -inf; the softmax runs in float32 over the keys
# looks-like: ATT002, ATT004, ATT006, ATT007, ATT008
# source: https://github.com/gongyisheng/llm-from-scratch https://github.com/gongyisheng/llm-from-scratch/commit/6dcb1e47ee09474cc3bd510e4a3e6fd453547ab0 qwen3/layers.py
import torch
import torch.nn as nn
import torch.nn.functional as F


class GroupQueryAttention(nn.Module):
    def __init__(self, emb_dim: int, n_heads: int, n_kv_groups: int, head_dim: int):
        super().__init__()
        self.n_heads, self.n_kv_groups, self.head_dim = n_heads, n_kv_groups, head_dim
        self.q_proj = nn.Linear(emb_dim, n_heads * head_dim, bias=False)
        self.k_proj = nn.Linear(emb_dim, n_kv_groups * head_dim, bias=False)
        self.v_proj = nn.Linear(emb_dim, n_kv_groups * head_dim, bias=False)
        self.o_proj = nn.Linear(n_heads * head_dim, emb_dim, bias=False)
        self.q_norm = nn.RMSNorm(head_dim)
        self.k_norm = nn.RMSNorm(head_dim)

    def forward(self, x, rope, position_ids, kv_cache=None, attn_mask=None):
        batch, seq_len, _ = x.shape
        Q = self.q_norm(self.q_proj(x).view(batch, seq_len, self.n_heads, self.head_dim)).transpose(1, 2)
        K = self.k_norm(self.k_proj(x).view(batch, seq_len, self.n_kv_groups, self.head_dim)).transpose(1, 2)
        V = self.v_proj(x).view(batch, seq_len, self.n_kv_groups, self.head_dim).transpose(1, 2)
        Q, K = rope(Q, position_ids), rope(K, position_ids)

        if kv_cache is not None:
            past_k, past_v = kv_cache
            K = torch.concat([past_k, K], dim=2)
            V = torch.concat([past_v, V], dim=2)
        new_kv_cache = (K, V)

        group = self.n_heads // self.n_kv_groups
        K = K.repeat_interleave(group, dim=1)
        V = V.repeat_interleave(group, dim=1)

        scores = Q @ K.transpose(-2, -1) / (self.head_dim**0.5)
        if attn_mask is not None:
            scores = scores + attn_mask
        attn = F.softmax(scores, dim=-1, dtype=torch.float32).to(x.dtype)
        out = (attn @ V).transpose(1, 2).reshape(batch, seq_len, -1)
        return self.o_proj(out), new_kv_cache
