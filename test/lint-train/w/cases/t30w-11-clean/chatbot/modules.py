# case: t30w-11-clean
# modelled-on: ljm565/chatbot-transformer https://github.com/ljm565/chatbot-transformer/commit/85700bf48f7cb905da143ceceed3a6fe9a0c2dcf
# label: correct
# class: clean
# pattern: an encoder-decoder chatbot: the transformer module builds every mask as an integer keep mask: enc_mask = torch.where(src == PAD, 0, 1)[:, None, None, :] (also used for the cross-attention), and the decoder mask as tril(ones(T, T)) + torch.where(trg == PAD, 0, 1)[:, None, None, :] followed by torch.where(sum < 2, 0, 1); the attention module in this file fills masked_fill(mask == 0, -inf) before the softmax; inference re-runs the whole model on the growing target each step (no cache)
# why: correct: all masks are 1 where attending is allowed, and the fill hits mask == 0, i.e. the padded source keys, the padded target keys and the future keys; the sum of the lower triangle and the key keep mask is 2 exactly where both allow, so where(sum < 2, 0, 1) is their AND; every decoder row keeps the start token (position 0, never PAD, never future) and every encoder row keeps the real source tokens, so no row is all -inf; the target mask is rebuilt for the whole prefix at each step, which is right without a cache
# looks-like: ATT002, ATT007, ATT008
# source: https://github.com/ljm565/chatbot-transformer https://github.com/ljm565/chatbot-transformer/commit/85700bf48f7cb905da143ceceed3a6fe9a0c2dcf src/models/modules.py
import torch
import torch.nn.functional as F
from torch import nn


class MultiHeadAttention(nn.Module):
    def __init__(self, hidden_dim: int, num_head: int, bias: bool = True) -> None:
        super().__init__()
        self.hidden_dim, self.num_head = hidden_dim, num_head
        self.head_dim = hidden_dim // num_head
        assert hidden_dim == num_head * self.head_dim
        self.q_proj = nn.Linear(hidden_dim, hidden_dim, bias=bias)
        self.k_proj = nn.Linear(hidden_dim, hidden_dim, bias=bias)
        self.v_proj = nn.Linear(hidden_dim, hidden_dim, bias=bias)
        self.attn_proj = nn.Linear(hidden_dim, hidden_dim, bias=bias)

    def head_split(self, x: torch.Tensor) -> torch.Tensor:
        return x.view(x.size(0), -1, self.num_head, self.head_dim).permute(0, 2, 1, 3)

    def scaled_dot_product(self, q, k, v, mask):
        attn_wts = torch.matmul(q, torch.transpose(k, 2, 3)) / (self.head_dim ** 0.5)
        if mask is not None:
            attn_wts = attn_wts.masked_fill(mask == 0, float("-inf"))
        attn_wts = F.softmax(attn_wts, dim=-1)
        return attn_wts, torch.matmul(attn_wts, v)

    def forward(self, query, key, value, mask):
        q = self.head_split(self.q_proj(query))
        k = self.head_split(self.k_proj(key))
        v = self.head_split(self.v_proj(value))
        attn_wts, out = self.scaled_dot_product(q, k, v, mask)
        out = out.permute(0, 2, 1, 3).contiguous().view(query.size(0), -1, self.hidden_dim)
        return attn_wts, self.attn_proj(out)


class EncoderLayer(nn.Module):
    def __init__(self, hidden_dim: int, ffn_dim: int, num_head: int) -> None:
        super().__init__()
        self.self_attention = MultiHeadAttention(hidden_dim, num_head)
        self.ffn = nn.Sequential(nn.Linear(hidden_dim, ffn_dim), nn.GELU(), nn.Linear(ffn_dim, hidden_dim))
        self.norm1, self.norm2 = nn.LayerNorm(hidden_dim), nn.LayerNorm(hidden_dim)

    def forward(self, x, mask):
        attn_wts, out = self.self_attention(x, x, x, mask)
        x = self.norm1(x + out)
        return attn_wts, self.norm2(x + self.ffn(x))


class DecoderLayer(nn.Module):
    def __init__(self, hidden_dim: int, ffn_dim: int, num_head: int) -> None:
        super().__init__()
        self.masked_self_attention = MultiHeadAttention(hidden_dim, num_head)
        self.enc_dec_attention = MultiHeadAttention(hidden_dim, num_head)
        self.ffn = nn.Sequential(nn.Linear(hidden_dim, ffn_dim), nn.GELU(), nn.Linear(ffn_dim, hidden_dim))
        self.norms = nn.ModuleList([nn.LayerNorm(hidden_dim) for _ in range(3)])

    def forward(self, x, enc_output, dec_causal_mask, enc_dec_mask):
        _, out = self.masked_self_attention(x, x, x, dec_causal_mask)
        x = self.norms[0](x + out)
        cross_wts, out = self.enc_dec_attention(x, enc_output, enc_output, enc_dec_mask)
        x = self.norms[1](x + out)
        return cross_wts, self.norms[2](x + self.ffn(x))
