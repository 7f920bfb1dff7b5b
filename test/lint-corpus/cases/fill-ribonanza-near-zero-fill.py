# case: fill-ribonanza-near-zero-fill
# modelled-on: Shujun-He/RibonanzaNet https://github.com/Shujun-He/RibonanzaNet/issues/5
# label: buggy
# pattern: a sequence-pairwise transformer's attention fills padded keys with -1e-9 (a typo for -1e9), in a (B, H, L, L) layout with a (B, 1, 1, L) mask built from the source mask
# why: -1e-9 is practically zero, so the padded keys keep weights like any other key after softmax (the issue shows the unmasked attention maps); the intended fill is a large negative number
import torch
import torch.nn as nn
import torch.nn.functional as F


class ScaledDotProductAttention(nn.Module):
    def __init__(self, temperature: float, attn_dropout: float = 0.1):
        super().__init__()
        self.temperature = temperature
        self.dropout = nn.Dropout(attn_dropout)

    def forward(self, q, k, v, mask=None, attn_mask=None):
        # q, k, v: (B, H, L, d_k); mask: (B, 1, 1, L) with 1 at real residues
        attn = torch.matmul(q, k.transpose(2, 3)) / self.temperature
        if mask is not None:
            attn = attn.masked_fill(mask == 0, -1e-9)  # expect: ATT007
        attn = self.dropout(F.softmax(attn, dim=-1))
        return torch.matmul(attn, v), attn


class MultiHeadAttention(nn.Module):
    def __init__(self, d_model: int, n_head: int, d_k: int, d_v: int, dropout: float = 0.1):
        super().__init__()
        self.n_head, self.d_k, self.d_v = n_head, d_k, d_v
        self.w_qs = nn.Linear(d_model, n_head * d_k, bias=False)
        self.w_ks = nn.Linear(d_model, n_head * d_k, bias=False)
        self.w_vs = nn.Linear(d_model, n_head * d_v, bias=False)
        self.fc = nn.Linear(n_head * d_v, d_model, bias=False)
        self.attention = ScaledDotProductAttention(temperature=d_k ** 0.5)

    def forward(self, q, k, v, src_mask=None):
        B, L, _ = q.shape
        q = self.w_qs(q).view(B, L, self.n_head, self.d_k).transpose(1, 2)
        k = self.w_ks(k).view(B, L, self.n_head, self.d_k).transpose(1, 2)
        v = self.w_vs(v).view(B, L, self.n_head, self.d_v).transpose(1, 2)
        mask = src_mask[:, None, None, :] if src_mask is not None else None
        out, attn = self.attention(q, k, v, mask=mask)
        return self.fc(out.transpose(1, 2).reshape(B, L, -1)), attn
