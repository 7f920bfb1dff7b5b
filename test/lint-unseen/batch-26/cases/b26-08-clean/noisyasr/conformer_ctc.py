# case: b26-08-clean
# modelled-on: A-SHOJAEI/noise-aware-conformer-asr https://github.com/A-SHOJAEI/noise-aware-conformer-asr/commit/24102a3d9b58d0e99130cab0be34a1fe32f6ce0b
# label: correct
# class: clean
# pattern: a noise-conditioned Conformer-CTC: the features module returns padded log-mels and frame counts; the model builds key_padding_mask = arange(T) >= feat_lens[:, None] and passes it to nn.MultiheadAttention(batch_first=True) in every block; a noise conditioner pools the early encoder states with a keep mask arange(T) < x_lens[:, None], x.masked_fill(~mask, 0.0) and a sum divided by the lengths (mean and std), and FiLM layers modulate each block with the pooled embedding
# why: correct: key_padding_mask is True exactly on the padded frames, the polarity nn.MultiheadAttention expects for a boolean mask; the masked_fill(~mask, 0.0) calls zero padded frames inside a mean/std pooling, not attention scores, so 0.0 is the right fill there (a -inf would poison the sums); the softmax of the attention is inside nn.MultiheadAttention with its own 1/sqrt(d_head)
# looks-like: ATT002, ATT006, ATT007
# source: https://github.com/A-SHOJAEI/noise-aware-conformer-asr https://github.com/A-SHOJAEI/noise-aware-conformer-asr/commit/24102a3d9b58d0e99130cab0be34a1fe32f6ce0b asr/models/conformer_ctc.py
from typing import Optional

import torch
import torch.nn as nn


class FiLM(nn.Module):
    def __init__(self, d_model: int, embed_dim: int):
        super().__init__()
        self.proj = nn.Linear(embed_dim, 2 * d_model)

    def forward(self, x, embed):
        gamma, beta = self.proj(embed).chunk(2, dim=-1)
        return x * (1.0 + gamma.unsqueeze(1)) + beta.unsqueeze(1)


class NoiseConditioner(nn.Module):
    def __init__(self, in_dim: int, embed_dim: int, hidden: int = 128):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2 * in_dim, hidden), nn.SiLU(), nn.Linear(hidden, embed_dim))

    def forward(self, x, x_lens):
        b, t, _ = x.shape
        mask = (torch.arange(t, device=x.device).unsqueeze(0) < x_lens.unsqueeze(1)).unsqueeze(-1)  # (B, T, 1)
        xm = x.masked_fill(~mask, 0.0)
        denom = x_lens.clamp(min=1).unsqueeze(1).to(x.dtype)
        mean = xm.sum(dim=1) / denom
        var = ((xm - mean.unsqueeze(1)) ** 2).masked_fill(~mask, 0.0).sum(dim=1) / denom
        return self.net(torch.cat([mean, torch.sqrt(var + 1e-5)], dim=-1))


class ConformerBlock(nn.Module):
    def __init__(self, d_model: int, n_heads: int, dropout: float):
        super().__init__()
        self.ff1 = nn.Sequential(nn.LayerNorm(d_model), nn.Linear(d_model, 4 * d_model), nn.SiLU(), nn.Linear(4 * d_model, d_model))
        self.mha_ln = nn.LayerNorm(d_model)
        self.mha = nn.MultiheadAttention(d_model, n_heads, dropout=dropout, batch_first=True)
        self.out_ln = nn.LayerNorm(d_model)

    def forward(self, x, key_padding_mask: Optional[torch.Tensor]):
        x = x + 0.5 * self.ff1(x)
        y = self.mha_ln(x)
        y, _ = self.mha(y, y, y, key_padding_mask=key_padding_mask, need_weights=False)
        return self.out_ln(x + y)


class ConformerCTC(nn.Module):
    def __init__(self, n_mels=80, vocab_size=32, d_model=256, n_heads=4, num_layers=8, dropout=0.1, embed_dim=64):
        super().__init__()
        self.inp = nn.Sequential(nn.LayerNorm(n_mels), nn.Linear(n_mels, d_model))
        self.blocks = nn.ModuleList([ConformerBlock(d_model, n_heads, dropout) for _ in range(num_layers)])
        self.conditioner = NoiseConditioner(d_model, embed_dim)
        self.films = nn.ModuleList([FiLM(d_model, embed_dim) for _ in range(num_layers)])
        self.ctc = nn.Linear(d_model, vocab_size)

    def forward(self, feats, feat_lens):
        b, t, _ = feats.shape
        key_padding_mask = torch.arange(t, device=feats.device).unsqueeze(0) >= feat_lens.unsqueeze(1)
        x = self.inp(feats)
        cond = self.conditioner(x, feat_lens)
        for film, blk in zip(self.films, self.blocks):
            x = blk(film(x, cond), key_padding_mask=key_padding_mask)
        return torch.log_softmax(self.ctc(x), dim=-1), feat_lens
