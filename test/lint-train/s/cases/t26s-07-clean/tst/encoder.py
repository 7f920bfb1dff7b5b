# case: t26s-07-clean
# modelled-on: oliviashen953/patchtst-replication https://github.com/oliviashen953/patchtst-replication/commit/8abe414fc970161735ba10792feac7b8458d22c2
# label: correct
# class: clean
# pattern: a PatchTST replication: the patching module folds channels into the batch ([B * C, n_patches, patch_len]); the encoder's attention keeps self.scale = d_head ** -0.5, views q, k, v as (batch, n, heads, d_head), transposes q and v to (batch, heads, n, d_head) but permutes k (0, 2, 3, 1) to (batch, heads, d_head, n), multiplies torch.matmul(q, k) by self.scale, adds the previous layer's pre-softmax scores when residual attention is on (RealFormer), softmax(dim=-1), and returns the scores for the next layer; no mask (patches are never padded)
# why: correct: k is already (batch, heads, d_head, n), so q @ k is the (n, n) score matrix without a further transpose; the scale is 1/sqrt of the per-head width; the residual term adds the earlier layer's scaled logits before this layer's softmax, by design (He et al. 2020), not a mask or a second scale; dim=-1 is the key-patch axis
# looks-like: ATT001, ATT003, ATT004, ATT005
# source: https://github.com/oliviashen953/patchtst-replication https://github.com/oliviashen953/patchtst-replication/commit/8abe414fc970161735ba10792feac7b8458d22c2 patchtst/encoder.py
import torch
import torch.nn as nn


class ResidualMultiheadAttention(nn.Module):
    def __init__(self, d_model: int, n_heads: int, attn_dropout: float = 0.0, proj_dropout: float = 0.0, res_attention: bool = False):
        super().__init__()
        if d_model % n_heads:
            raise ValueError("d_model must be divisible by n_heads")
        self.n_heads = n_heads
        self.d_head = d_model // n_heads
        self.res_attention = res_attention
        self.scale = self.d_head**-0.5
        self.W_Q = nn.Linear(d_model, d_model)
        self.W_K = nn.Linear(d_model, d_model)
        self.W_V = nn.Linear(d_model, d_model)
        self.attn_dropout = nn.Dropout(attn_dropout)
        self.to_out = nn.Sequential(nn.Linear(d_model, d_model), nn.Dropout(proj_dropout))

    def forward(self, x: torch.Tensor, prev=None):
        batch, n, _ = x.shape
        shape = (batch, n, self.n_heads, self.d_head)
        q = self.W_Q(x).view(shape).transpose(1, 2)
        k = self.W_K(x).view(shape).permute(0, 2, 3, 1)
        v = self.W_V(x).view(shape).transpose(1, 2)
        scores = torch.matmul(q, k) * self.scale
        if prev is not None:
            scores = scores + prev
        weights = self.attn_dropout(torch.softmax(scores, dim=-1))
        out = torch.matmul(weights, v).transpose(1, 2).contiguous().view(batch, n, -1)
        out = self.to_out(out)
        return (out, scores) if self.res_attention else (out, None)


class EncoderLayer(nn.Module):
    def __init__(self, d_model: int, n_heads: int, d_ff: int, dropout: float = 0.2, res_attention: bool = True):
        super().__init__()
        self.attn = ResidualMultiheadAttention(d_model, n_heads, proj_dropout=dropout, res_attention=res_attention)
        self.norm1 = nn.LayerNorm(d_model)
        self.norm2 = nn.LayerNorm(d_model)
        self.ff = nn.Sequential(nn.Linear(d_model, d_ff), nn.GELU(), nn.Dropout(dropout), nn.Linear(d_ff, d_model))
        self.drop = nn.Dropout(dropout)

    def forward(self, src, prev=None):
        attended, scores = self.attn(self.norm1(src), prev)
        src = src + self.drop(attended)
        src = src + self.drop(self.ff(self.norm2(src)))
        return src, scores


class Encoder(nn.Module):
    def __init__(self, n_layers: int, **kw):
        super().__init__()
        self.layers = nn.ModuleList([EncoderLayer(**kw) for _ in range(n_layers)])

    def forward(self, x):
        scores = None
        for layer in self.layers:
            x, scores = layer(x, scores)
        return x
