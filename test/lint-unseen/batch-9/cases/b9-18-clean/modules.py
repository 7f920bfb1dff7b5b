import torch
import torch.nn as nn
import torch.nn.functional as F


class MHAttention(nn.Module):
    """Multi-head attention on PyTorch's scaled dot-product attention; (batch, tokens, d_in) -> (batch, tokens, d_out)."""

    def __init__(self, d_in: int, d_out: int, n_heads: int, dropout: float = 0.1, qkv_bias: bool = False) -> None:
        super().__init__()
        assert d_out % n_heads == 0, "Output embedding size (d_out) must be divisible by n_heads"
        self.d_out = d_out
        self.d_head = d_out // n_heads
        self.n_heads = n_heads
        self.dropout = dropout
        self.qkv = nn.Linear(d_in, 3 * d_out, bias=qkv_bias)
        self.proj = nn.Linear(d_out, d_out)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        n_batches, n_tokens, _ = x.shape
        q, k, v = self.qkv(x).split(self.d_out, dim=2)
        key = k.view(n_batches, n_tokens, self.n_heads, self.d_head).transpose(1, 2)
        query = q.view(n_batches, n_tokens, self.n_heads, self.d_head).transpose(1, 2)
        value = v.view(n_batches, n_tokens, self.n_heads, self.d_head).transpose(1, 2)

        use_dropout = self.dropout if self.training else 0.0
        context_vec = F.scaled_dot_product_attention(query, key, value, is_causal=True, dropout_p=use_dropout)
        context_vec = context_vec.transpose(1, 2).contiguous().view(n_batches, n_tokens, self.d_out)
        return self.proj(context_vec)
