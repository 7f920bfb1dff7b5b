from torch import nn

from mhattn.core import attention, merge_heads, split_heads


class MultiHeadAttention(nn.Module):
    def __init__(self, d_model, num_heads):
        super().__init__()
        self.num_heads = num_heads
        self.w_q = nn.Linear(d_model, d_model)
        self.w_k = nn.Linear(d_model, d_model)
        self.w_v = nn.Linear(d_model, d_model)
        self.w_o = nn.Linear(d_model, d_model)

    def forward(self, q, k, v, mask=None):
        qh = split_heads(self.w_q(q), self.num_heads)  # (B, H, S, d_k)
        kh = split_heads(self.w_k(k), self.num_heads)
        vh = split_heads(self.w_v(v), self.num_heads)
        out = attention(qh, kh, vh)
        return self.w_o(merge_heads(out))
