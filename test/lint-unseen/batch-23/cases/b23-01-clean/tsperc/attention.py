from typing import Optional

import torch
import torch.nn.functional as F
from torch import nn


def layer_norm(x: torch.Tensor) -> torch.Tensor:
    return F.layer_norm(x, [x.shape[-1]])


class MultiHeadAttention(nn.Module):
    """Multi-head attention on torch's fused kernel; queries and keys/values may come from different arrays."""

    def __init__(self, q_in: int, q_out: int, kv_in: int, v_out: int, out: int, n_heads: int, dropout_p: float = 0.0):
        super().__init__()
        assert q_out % n_heads == 0 and v_out % n_heads == 0
        self.n_heads = n_heads
        self.to_q = nn.Linear(q_in, q_out, bias=False)
        self.to_k = nn.Linear(kv_in, q_out, bias=False)
        self.to_v = nn.Linear(kv_in, v_out, bias=False)
        self.qk_head = q_out // n_heads
        self.v_head = v_out // n_heads
        self.v_out = v_out
        self.proj = nn.Linear(v_out, out, bias=False)
        self.dropout_p = dropout_p

    def forward(self, q_in: torch.Tensor, kv_in: torch.Tensor, mask: Optional[torch.Tensor] = None) -> torch.Tensor:
        b, nq, _ = q_in.shape
        _, nkv, _ = kv_in.shape
        q = self.to_q(q_in).view(b, nq, self.n_heads, self.qk_head).transpose(1, 2)
        k = self.to_k(kv_in).view(b, nkv, self.n_heads, self.qk_head).transpose(1, 2)
        v = self.to_v(kv_in).view(b, nkv, self.n_heads, self.v_head).transpose(1, 2)
        y = F.scaled_dot_product_attention(
            q, k, v, attn_mask=mask, dropout_p=self.dropout_p if self.training else 0.0, is_causal=False
        )
        y = y.transpose(1, 2).contiguous().view(b, nq, self.v_out)
        return self.proj(y)


class CrossAttentionBlock(nn.Module):
    """The latent array (queries) reads the byte array (keys and values), then an MLP."""

    def __init__(self, latent_ch: int, data_ch: int, n_heads: int, dropout_p: float = 0.0):
        super().__init__()
        self.att = MultiHeadAttention(latent_ch, latent_ch, data_ch, latent_ch, latent_ch, n_heads, dropout_p)
        self.fc1 = nn.Linear(latent_ch, 4 * latent_ch)
        self.fc2 = nn.Linear(4 * latent_ch, latent_ch)
        self.dropout_p = dropout_p

    def forward(self, latent: torch.Tensor, data: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        latent = latent + self.att(layer_norm(latent), data, mask)
        h = self.fc2(F.relu(self.fc1(layer_norm(latent))))
        return latent + F.dropout(h, p=self.dropout_p, training=self.training)


class SelfAttentionBlock(nn.Module):
    def __init__(self, latent_ch: int, n_heads: int, dropout_p: float = 0.0):
        super().__init__()
        self.att = MultiHeadAttention(latent_ch, latent_ch, latent_ch, latent_ch, latent_ch, n_heads, dropout_p)
        self.fc1 = nn.Linear(latent_ch, 4 * latent_ch)
        self.fc2 = nn.Linear(4 * latent_ch, latent_ch)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = layer_norm(x)
        x = x + self.att(h, h)
        return x + self.fc2(F.relu(self.fc1(layer_norm(x))))
