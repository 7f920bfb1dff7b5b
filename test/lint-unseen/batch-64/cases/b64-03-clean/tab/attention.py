# case: b64-03-clean
# modelled-on: AzatGal/price_prediction https://github.com/AzatGal/price_prediction/commit/4576b8ebc2fd038f9027fcd5588e06cd9f7cd07e
# label: correct
# class: clean
# pattern: attention variants of a tabular (feature-token) transformer for price regression (a folder: `attention.py` holds full SDPA attention whose keys and values can be shortened along the token axis by shared Linformer compressors, a top-k token-selection attention that gathers the chosen keys and values before SDPA, and an ELU+1 linear attention; `model.py` builds the compressors once, `nn.Linear(num_tokens, k)`, and hands the same ones to every layer)
# why: correct: the compressors act on the token axis, so keys and values are transposed to (B, H, D, T), compressed to (B, H, D, k) and transposed back, which leaves SDPA with (B, H, k, D) keys it transposes itself; SDPA applies its default 1/sqrt(head_dim) scale to unscaled queries; the selection path gathers the top-k keys and values along the token axis and keeps the query axis whole; the linear attention has no softmax by design (kernelised attention: phi(q) (phi(k)^T v) / phi(q) sum phi(k)), so its k^T v sums over tokens on purpose
# looks-like: ATT001, ATT003, ATT005
# source: https://github.com/AzatGal/price_prediction https://github.com/AzatGal/price_prediction/commit/4576b8ebc2fd038f9027fcd5588e06cd9f7cd07e models/attention.py
import torch
import torch.nn as nn
import torch.nn.functional as F


class TokenAttention(nn.Module):
    def __init__(self, dim, heads, dropout=0.0, k_proj=None, v_proj=None, bias=False):
        super().__init__()
        assert dim % heads == 0
        self.dim, self.heads, self.head_dim = dim, heads, dim // heads
        self.dropout = dropout
        self.qkv = nn.Linear(dim, 3 * dim, bias=bias)
        self.out = nn.Linear(dim, dim, bias=bias)
        self.k_proj, self.v_proj = k_proj, v_proj

    def forward(self, x):
        b, t, c = x.shape
        q, k, v = self.qkv(x).reshape(b, t, self.heads, 3, self.head_dim).transpose(1, 2).unbind(3)
        if self.k_proj is not None and self.v_proj is not None:
            # compress the token axis: (B, H, T, D) -> (B, H, D, T) -> (B, H, D, k) -> (B, H, k, D)
            k = self.k_proj(k.transpose(2, 3)).transpose(2, 3)
            v = self.v_proj(v.transpose(2, 3)).transpose(2, 3)
        y = F.scaled_dot_product_attention(q, k, v, dropout_p=self.dropout if self.training else 0.0)
        return self.out(y.transpose(1, 2).reshape(b, t, c))


class SelectedTokenAttention(nn.Module):
    """Each head scores the tokens, keeps the top-k (plus the first, the CLS token) as keys and values."""

    def __init__(self, dim, heads, num_tokens, keep=14, dropout=0.0, bias=False):
        super().__init__()
        self.heads, self.head_dim, self.num_tokens, self.keep = heads, dim // heads, num_tokens, keep
        self.dropout = dropout
        self.scorer = nn.Sequential(nn.Linear(dim, heads), nn.Tanh())
        self.qkv = nn.Linear(dim, 3 * dim, bias=bias)
        self.out = nn.Linear(dim, dim, bias=bias)

    def forward(self, x):
        b = x.size(0)
        q, k, v = self.qkv(x).reshape(b, self.num_tokens, self.heads, 3, self.head_dim).transpose(1, 2).unbind(3)
        token_scores = self.scorer(x).transpose(1, 2)  # (B, H, T)
        idx = token_scores.topk(self.keep, dim=2, sorted=False).indices
        cls_idx = torch.zeros(b, self.heads, 1, dtype=idx.dtype, device=idx.device)
        idx = torch.cat([cls_idx, idx], dim=2).unsqueeze(-1).expand(-1, -1, -1, self.head_dim)
        y = F.scaled_dot_product_attention(
            q, k.gather(2, idx), v.gather(2, idx), dropout_p=self.dropout if self.training else 0.0
        )
        return self.out(y.transpose(1, 2).reshape(b, self.num_tokens, -1))


class LinearTokenAttention(nn.Module):
    def __init__(self, dim, heads, dropout=0.0, bias=False):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim, bias=bias)
        self.out = nn.Linear(dim, dim, bias=bias)
        self.drop = nn.Dropout(dropout)

    def forward(self, x):
        b, t, c = x.shape
        q, k, v = self.qkv(x).reshape(b, t, self.heads, 3, -1).transpose(1, 2).unbind(3)
        q, k = F.elu(q) + 1.0, F.elu(k) + 1.0
        kv = k.transpose(2, 3) @ v  # (B, H, D, D): summed over the tokens
        norm = q @ k.sum(dim=2).unsqueeze(-1) + 1e-8  # (B, H, T, 1)
        y = (q @ self.drop(kv)) / norm
        return self.out(y.transpose(1, 2).reshape(b, t, c))
