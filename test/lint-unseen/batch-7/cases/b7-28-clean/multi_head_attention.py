# case: b7-28-clean
# modelled-on: longlnOff/Transformer-from-scratch-with-Torch-and-TorchLightning https://github.com/longlnOff/Transformer-from-scratch-with-Torch-and-TorchLightning/commit/1909ecbfb2ded0d36c0730a0fd4ddd55b35380e7
# label: correct
# class: clean
# pattern: the plain-PyTorch version of a from-scratch translation transformer: the inputs are cast to float32 before the projections, einops splits d_model into heads, a static attention function divides by sqrt(d_k) and fills masked_fill(mask == 0, -1e9); the dataset in another file returns keep masks (tokens != pad as long, & a causal mask from triu(ones, 1) == 0); training runs in float32
# why: correct: the masks are 1 where a key may be attended and are filled where 0, -1e9 fits float32 (the projections run on .float() inputs and no mixed precision is used), padding varies only along the key axis, and the scale is the per-head width
# looks-like: ATT002, ATT004, ATT007
# source: https://github.com/longlnOff/Transformer-from-scratch-with-Torch-and-TorchLightning https://github.com/longlnOff/Transformer-from-scratch-with-Torch-and-TorchLightning/commit/1909ecbfb2ded0d36c0730a0fd4ddd55b35380e7 Source/models/MultiHeadAttention.py
import math

import einops
import torch


class MultiHeadAttention(torch.nn.Module):
    def __init__(self, d_model: int, num_head: int, dropout: float):
        super().__init__()
        assert d_model % num_head == 0, "d_model must be divisible by num_head"
        self.d_model, self.num_head = d_model, num_head
        self.head_dim = d_model // num_head
        self.dropout = torch.nn.Dropout(dropout)
        self.W_Q = torch.nn.Linear(d_model, d_model, bias=False)
        self.W_K = torch.nn.Linear(d_model, d_model, bias=False)
        self.W_V = torch.nn.Linear(d_model, d_model, bias=False)
        self.W_O = torch.nn.Linear(d_model, d_model, bias=False)

    @staticmethod
    def attention(Q, K, V, mask, dropout: torch.nn.Dropout):
        d_k = Q.shape[-1]
        score = torch.matmul(Q, K.transpose(-2, -1)) / math.sqrt(d_k)  # (B, H, S, S)
        if mask is not None:
            score = score.masked_fill(mask == 0, -1e9)
        score = dropout(score.softmax(dim=-1))
        return torch.matmul(score, V), score

    def forward(self, q, k, v, mask=None):
        Q = einops.rearrange(self.W_Q(q.float()), "b s (h d) -> b h s d", h=self.num_head, d=self.head_dim)
        K = einops.rearrange(self.W_K(k.float()), "b s (h d) -> b h s d", h=self.num_head, d=self.head_dim)
        V = einops.rearrange(self.W_V(v.float()), "b s (h d) -> b h s d", h=self.num_head, d=self.head_dim)
        attention, scores = MultiHeadAttention.attention(Q, K, V, mask, self.dropout)
        self.attention_scores = scores
        return self.W_O(einops.rearrange(attention, "b h s d -> b s (h d)"))
