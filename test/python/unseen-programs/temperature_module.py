# label: correct
# why: ScaledDotProductAttention with temperature = d_k ** 0.5 divides q before the matmul: the scale is 1/sqrt(d_k)
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class ScaledDotProductAttention(nn.Module):
    def __init__(self, temperature, attn_dropout=0.1):
        super().__init__()
        self.temperature = temperature
        self.dropout = nn.Dropout(attn_dropout)

    def forward(self, q, k, v, mask=None):
        attn = torch.matmul(q / self.temperature, k.transpose(2, 3))
        if mask is not None:
            attn = attn.masked_fill(mask == 0, -1e9)
        attn = self.dropout(F.softmax(attn, dim=-1))
        output = torch.matmul(attn, v)
        return output, attn


class MultiHeadAttention(nn.Module):
    def __init__(self, n_head, d_model, d_k, d_v):
        super().__init__()
        self.n_head, self.d_k, self.d_v = n_head, d_k, d_v
        self.w_qs = nn.Linear(d_model, n_head * d_k, bias=False)
        self.w_ks = nn.Linear(d_model, n_head * d_k, bias=False)
        self.w_vs = nn.Linear(d_model, n_head * d_v, bias=False)
        self.fc = nn.Linear(n_head * d_v, d_model, bias=False)
        self.attention = ScaledDotProductAttention(temperature=np.power(d_k, 0.5))

    def forward(self, q, k, v, mask=None):
        sz_b, len_q, len_k = q.size(0), q.size(1), k.size(1)
        q = self.w_qs(q).view(sz_b, len_q, self.n_head, self.d_k).transpose(1, 2)
        k = self.w_ks(k).view(sz_b, len_k, self.n_head, self.d_k).transpose(1, 2)
        v = self.w_vs(v).view(sz_b, len_k, self.n_head, self.d_v).transpose(1, 2)
        if mask is not None:
            mask = mask.unsqueeze(1)
        out, attn = self.attention(q, k, v, mask=mask)
        out = out.transpose(1, 2).contiguous().view(sz_b, len_q, -1)
        return self.fc(out), attn


if __name__ == "__main__":
    torch.manual_seed(6)
    pad = 0
    seq = torch.tensor([[5, 8, 3, 9, 2, 0, 0], [4, 4, 7, 1, 6, 2, 3]])
    emb = nn.Embedding(10, 64, padding_idx=pad)
    x = emb(seq)
    mask = (seq != pad).unsqueeze(-2)  # [B, 1, S]
    mha = MultiHeadAttention(n_head=4, d_model=64, d_k=16, d_v=16)
    mha.eval()
    out, attn = mha(x, x, x, mask=mask)
    print(out.shape, attn.shape)
