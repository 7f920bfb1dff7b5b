# case: t21n-03-clean
# modelled-on: nurmanmus/self-attention-experiments https://github.com/nurmanmus/self-attention-experiments/commit/65b9f556ac8827e0619da084ed4137549f45d5ef
# label: correct
# class: clean
# pattern: a study of attention variants with KV caches (multi-head latent attention against plain multi-head attention): the latent variant concatenates cached keys/values on the sequence axis, builds a float ones (S, S_full) matrix, keeps torch.tril(ones, diagonal=past_length), turns it into a boolean with == 1 and hands it to F.scaled_dot_product_attention as attn_mask (no is_causal, default scale); the plain variant in another module computes q @ k^T / sqrt(head_dim) itself and masks with torch.triu(ones(S, S_full), diagonal=past_length + 1).bool() through masked_fill(-inf); a decode helper feeds one token at a time with past_length = the cache length
# why: correct: with past_length cached keys, query i (absolute position past_length + i) may see keys 0 .. past_length + i: tril with diagonal=past_length keeps exactly those and SDPA's boolean attn_mask means True = attend; triu with diagonal=past_length + 1 is the complement, True = blocked, which is what masked_fill fills; every row keeps its own key; SDPA scales by 1/sqrt(head_dim) once, the manual path does the same
# looks-like: ATT002, ATT004, ATT005, ATT008
# source: https://github.com/nurmanmus/self-attention-experiments https://github.com/nurmanmus/self-attention-experiments/commit/65b9f556ac8827e0619da084ed4137549f45d5ef modeling/attention/mla.py
import torch
import torch.nn as nn
import torch.nn.functional as F


class LatentAttention(nn.Module):
    """Latent (low-rank) projections for queries and keys/values, uncompressed KV cache."""

    def __init__(self, d_model, n_heads):
        super().__init__()
        self.d_model = d_model
        self.n_heads = n_heads
        self.dh = d_model // n_heads
        q_rank, kv_rank = d_model // 2, (2 * d_model) // 3
        self.W_dq = nn.Parameter(0.02 * torch.randn(d_model, q_rank))
        self.W_uq = nn.Parameter(0.02 * torch.randn(q_rank, d_model))
        self.q_norm = nn.LayerNorm(q_rank)
        self.W_dkv = nn.Parameter(0.02 * torch.randn(d_model, kv_rank))
        self.W_ukv = nn.Parameter(0.02 * torch.randn(kv_rank, 2 * d_model))
        self.kv_norm = nn.LayerNorm(kv_rank)
        self.W_o = nn.Parameter(0.02 * torch.randn(d_model, d_model))

    def forward(self, x, kv_cache=None, past_length=0):
        B, S, D = x.shape
        Q = self.q_norm(x @ self.W_dq) @ self.W_uq
        K, V = torch.split(self.kv_norm(x @ self.W_dkv) @ self.W_ukv, self.d_model, dim=-1)

        q = Q.view(B, -1, self.n_heads, self.dh).transpose(1, 2)
        k = K.view(B, -1, self.n_heads, self.dh).transpose(1, 2)
        v = V.view(B, -1, self.n_heads, self.dh).transpose(1, 2)
        if kv_cache is not None:
            k_cache, v_cache = kv_cache
            k = torch.cat([k_cache, k], dim=2)
            v = torch.cat([v_cache, v], dim=2)

        S_full = k.size(2)
        mask = torch.ones((S, S_full), device=x.device)
        mask = torch.tril(mask, diagonal=past_length)
        keep = mask[None, None, :, :] == 1

        out = F.scaled_dot_product_attention(q, k, v, attn_mask=keep)
        out = out.transpose(1, 2).reshape(B, S, D) @ self.W_o.T
        return out, (k, v)
