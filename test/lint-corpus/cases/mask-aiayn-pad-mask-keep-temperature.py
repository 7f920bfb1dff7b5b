# case: mask-aiayn-pad-mask-keep-temperature
# modelled-on: jadore801120/attention-is-all-you-need-pytorch https://github.com/jadore801120/attention-is-all-you-need-pytorch/issues/148
# label: correct
# pattern: get_pad_mask returns (seq != pad_idx) (a keep mask) and the subsequent mask is 1 - triu; attention divides q by a temperature of d_k ** 0.5 before the matmul and fills mask == 0 with -1e9 in float32
# why: mask == 0 turns the keep mask into the positions to hide; q / sqrt(d_k) is the usual scale folded into q; -1e9 is fine in float32
# looks-like: ATT002, ATT003, ATT007
import torch
import torch.nn as nn
import torch.nn.functional as F


def get_pad_mask(seq: torch.Tensor, pad_idx: int) -> torch.Tensor:
    return (seq != pad_idx).unsqueeze(-2)  # (B, 1, S), True = token


def get_subsequent_mask(seq: torch.Tensor) -> torch.Tensor:
    sz_b, len_s = seq.size()
    subsequent_mask = (1 - torch.triu(torch.ones((1, len_s, len_s), device=seq.device), diagonal=1)).bool()
    return subsequent_mask  # (1, T, T), True on and below the diagonal


class ScaledDotProductAttention(nn.Module):
    def __init__(self, temperature: float, attn_dropout: float = 0.1):
        super().__init__()
        self.temperature = temperature
        self.dropout = nn.Dropout(attn_dropout)

    def forward(self, q, k, v, mask=None):
        attn = torch.matmul(q / self.temperature, k.transpose(2, 3))  # (B, H, L, S)
        if mask is not None:
            attn = attn.masked_fill(mask == 0, -1e9)
        attn = self.dropout(F.softmax(attn, dim=-1))
        output = torch.matmul(attn, v)
        return output, attn


class MultiHeadAttention(nn.Module):
    def __init__(self, n_head: int, d_model: int, d_k: int, d_v: int, dropout: float = 0.1):
        super().__init__()
        self.n_head, self.d_k, self.d_v = n_head, d_k, d_v
        self.w_qs = nn.Linear(d_model, n_head * d_k, bias=False)
        self.w_ks = nn.Linear(d_model, n_head * d_k, bias=False)
        self.w_vs = nn.Linear(d_model, n_head * d_v, bias=False)
        self.fc = nn.Linear(n_head * d_v, d_model, bias=False)
        self.attention = ScaledDotProductAttention(temperature=d_k ** 0.5)

    def forward(self, q, k, v, mask=None):
        sz_b, len_q, len_k = q.size(0), q.size(1), k.size(1)
        q = self.w_qs(q).view(sz_b, len_q, self.n_head, self.d_k).transpose(1, 2)
        k = self.w_ks(k).view(sz_b, len_k, self.n_head, self.d_k).transpose(1, 2)
        v = self.w_vs(v).view(sz_b, len_k, self.n_head, self.d_v).transpose(1, 2)
        if mask is not None:
            mask = mask.unsqueeze(1)  # broadcast over heads
        q, attn = self.attention(q, k, v, mask=mask)
        q = q.transpose(1, 2).contiguous().view(sz_b, len_q, -1)
        return self.fc(q), attn
