# case: b10-02-clean
# modelled-on: JorgeVanco/LLM-from-scratch https://github.com/JorgeVanco/LLM-from-scratch/commit/a6fec30
# label: correct
# class: clean
# pattern: a hand-written scaled_dot_product_attention in another module takes a keep mask (True = attend, as torch's SDPA) and fills ~mask with -inf; the caller passes ~triu(ones, 1).bool()
# why: ~triu(ones, diagonal=1) is True on and below the diagonal, the positions a causal query may see; the function inverts it once before masked_fill, so the future is filled and the diagonal always survives
# looks-like: ATT002, ATT007
# source: https://github.com/JorgeVanco/LLM-from-scratch https://github.com/JorgeVanco/LLM-from-scratch/commit/a6fec30 src/model/models.py
import torch
import torch.nn as nn
from einops import rearrange

from lm.functional import scaled_dot_product_attention


class MultiHeadSelfAttention(nn.Module):
    def __init__(self, d_model: int, num_heads: int, rope=None):
        super().__init__()
        assert d_model % num_heads == 0, "d_model must be divisible by num_heads"
        self.num_heads = num_heads
        self.q_proj = nn.Linear(d_model, d_model, bias=False)
        self.k_proj = nn.Linear(d_model, d_model, bias=False)
        self.v_proj = nn.Linear(d_model, d_model, bias=False)
        self.output_proj = nn.Linear(d_model, d_model, bias=False)
        self.rope = rope

    def forward(self, x: torch.Tensor, token_positions=None) -> torch.Tensor:
        seq_len = x.shape[-2]
        split = "... s (h d) -> ... h s d"
        q = rearrange(self.q_proj(x), split, h=self.num_heads)
        k = rearrange(self.k_proj(x), split, h=self.num_heads)
        v = rearrange(self.v_proj(x), split, h=self.num_heads)
        if self.rope is not None:
            q = self.rope(q, token_positions)
            k = self.rope(k, token_positions)
        allowed = ~torch.triu(torch.ones(seq_len, seq_len, device=x.device), diagonal=1).bool()
        out = scaled_dot_product_attention(q, k, v, allowed)
        out = rearrange(out, "... h s d -> ... s (h d)")
        return self.output_proj(out)
