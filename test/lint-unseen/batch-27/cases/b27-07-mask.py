# case: b27-07-mask
# modelled-on: guglielmocamporese/visual-transformer-pytorch https://github.com/guglielmocamporese/visual-transformer-pytorch/commit/e439ef2ab3e01150ce583be307e9e4f4d413a475
# label: buggy
# class: real-bug
# pattern: a from-scratch Lightning ViT / Transformer package: a module-level attention(q, k, v, mask) helper on 3-D tensors (bmm(q, k.transpose(1, 2)) / sqrt(d_k), mask repeated over the batch and applied as torch.where(mask > 0, att, -inf * ones_like(att)), softmax over axis 2); one Head module per head with bias-free Linears of width h_dim // num_heads, concatenated and projected; the decoder layer builds its causal mask with a helper that returns torch.triu(torch.ones(n, n), diagonal=0) and passes it to the masked self-attention (and, as in the original, to the cross-attention)
# why: buggy: torch.where(mask > 0, att, -inf) keeps the scores where the mask is 1, so the mask must be 1 on allowed positions, i.e. the lower triangle; triu(ones, diagonal=0) is 1 on and above the diagonal, so every query attends to itself and the future and never to the past, the reverse of causal attention (it should be torch.tril(ones)); the scale, the transpose and the softmax axis are right
# source: https://github.com/guglielmocamporese/visual-transformer-pytorch https://github.com/guglielmocamporese/visual-transformer-pytorch/commit/e439ef2ab3e01150ce583be307e9e4f4d413a475 models/transformer.py
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def attention(q, k, v, mask=None):
    """q: [B, T_Q, D_K], k: [B, T_V, D_K], v: [B, T_V, D_V] -> [B, T_Q, D_V]"""
    B = q.shape[0]
    scale = math.sqrt(k.shape[2])
    att = torch.bmm(q, k.transpose(1, 2)) / scale  # [B, T_Q, T_V]
    if mask is not None:
        mask = mask.unsqueeze(0).repeat(B, 1, 1)
        att = torch.where(mask > 0.0, att, -math.inf * torch.ones_like(att))  # expect: ATT002
    att = F.softmax(att, 2)
    return torch.bmm(att, v)


def create_causal_mask(size1, size2):
    mask = torch.ones(size1, size2)
    mask = torch.triu(mask, diagonal=0)
    return mask


class Head(nn.Module):
    def __init__(self, h_dim, head_out_dim):
        super().__init__()
        self.q_lin = nn.Linear(h_dim, head_out_dim, bias=False)
        self.k_lin = nn.Linear(h_dim, head_out_dim, bias=False)
        self.v_lin = nn.Linear(h_dim, head_out_dim, bias=False)

    def forward(self, q, k=None, v=None, mask=None):
        k = q if k is None else k
        v = k if v is None else v
        return attention(self.q_lin(q), self.k_lin(k), self.v_lin(v), mask=mask)


class MultiHeadAttention(nn.Module):
    def __init__(self, h_dim, num_heads):
        super().__init__()
        self.heads = nn.ModuleList([Head(h_dim, h_dim // num_heads) for _ in range(num_heads)])
        self.linear = nn.Linear((h_dim // num_heads) * num_heads, h_dim)

    def forward(self, q, k=None, v=None, mask=None):
        x = torch.cat([head(q, k, v, mask=mask) for head in self.heads], -1)
        return self.linear(x)


class TransformerDecoderLayer(nn.Module):
    def __init__(self, h_dim, num_heads, d_ff=2048):
        super().__init__()
        self.mask_mha = MultiHeadAttention(h_dim, num_heads)
        self.norm1 = nn.LayerNorm(h_dim)
        self.mha = MultiHeadAttention(h_dim, num_heads)
        self.norm2 = nn.LayerNorm(h_dim)
        self.ffn = nn.Sequential(nn.Linear(h_dim, d_ff), nn.ReLU(), nn.Linear(d_ff, h_dim))
        self.norm3 = nn.LayerNorm(h_dim)

    def forward(self, x, x_enc):
        mask = create_causal_mask(x.shape[1], x.shape[1]).to(x.device)
        x = self.norm1(self.mask_mha(x, x, x, mask=mask) + x)
        x = self.norm2(self.mha(x, x_enc, x_enc, mask=mask) + x)
        return self.norm3(self.ffn(x) + x)


class TransformerDecoder(nn.Module):
    def __init__(self, num_layers, h_dim, num_heads, d_ff=2048):
        super().__init__()
        self.layers = nn.ModuleList([TransformerDecoderLayer(h_dim, num_heads, d_ff) for _ in range(num_layers)])

    def forward(self, x, x_enc):
        for layer in self.layers:
            x = layer(x, x_enc)
        return x
