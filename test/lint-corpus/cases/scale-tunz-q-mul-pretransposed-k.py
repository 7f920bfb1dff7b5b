# case: scale-tunz-q-mul-pretransposed-k
# modelled-on: tunz/transformer-pytorch https://github.com/tunz/transformer-pytorch/issues/8
# label: correct
# pattern: the scale att_size ** -0.5 is applied in place with q.mul_() several lines before the matmul, and k is already transposed to (B, H, d, S) with two transposes, so the score line is a bare matmul(q, k)
# why: a reader in #8 could not find the 1/sqrt(d_k); it is there on q, and k's two transposes put d before S as the matmul needs
# looks-like: ATT003, ATT005, ATT007
import torch
import torch.nn as nn


class MultiHeadAttention(nn.Module):
    def __init__(self, hidden_size: int, dropout_rate: float, head_size: int = 8):
        super().__init__()
        self.head_size = head_size
        self.att_size = att_size = hidden_size // head_size
        self.scale = att_size ** -0.5
        self.linear_q = nn.Linear(hidden_size, head_size * att_size, bias=False)
        self.linear_k = nn.Linear(hidden_size, head_size * att_size, bias=False)
        self.linear_v = nn.Linear(hidden_size, head_size * att_size, bias=False)
        self.att_dropout = nn.Dropout(dropout_rate)
        self.output_layer = nn.Linear(head_size * att_size, hidden_size, bias=False)

    def forward(self, q, k, v, mask, cache=None):
        """mask: (B, 1 or L, S) bool, True where attention is not allowed."""
        orig_q_size = q.size()
        d_k = d_v = self.att_size
        batch_size = q.size(0)

        q = self.linear_q(q).view(batch_size, -1, self.head_size, d_k)
        if cache is not None and "encdec_k" in cache:
            k, v = cache["encdec_k"], cache["encdec_v"]
        else:
            k = self.linear_k(k).view(batch_size, -1, self.head_size, d_k)
            v = self.linear_v(v).view(batch_size, -1, self.head_size, d_v)
            if cache is not None:
                cache["encdec_k"], cache["encdec_v"] = k, v

        q = q.transpose(1, 2)  # (B, H, L, d_k)
        v = v.transpose(1, 2)  # (B, H, S, d_v)
        k = k.transpose(1, 2).transpose(2, 3)  # (B, H, d_k, S)

        q.mul_(self.scale)
        x = torch.matmul(q, k)  # (B, H, L, S)
        x.masked_fill_(mask.unsqueeze(1), -1e9)
        x = torch.softmax(x, dim=3)
        x = self.att_dropout(x)
        x = x.matmul(v)

        x = x.transpose(1, 2).contiguous().view(batch_size, -1, self.head_size * d_v)
        x = self.output_layer(x)
        assert x.size() == orig_q_size
        return x
