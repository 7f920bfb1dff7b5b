# case: b26-06-fill
# modelled-on: ak24watch/Graphormer https://github.com/ak24watch/Graphormer/commit/a7288de9e83a237aa32aeb987c123e2daaf9185f
# label: buggy
# class: real-bug
# pattern: a Graphormer for ZINC: the collate module builds attn_mask = ones(B, n + 1, n + 1) and zeroes the block of each real graph (1 = blocked); the attention module takes its head width and scale cfg.d_head ** -0.5 from a config dataclass, permutes keys to (B, H, d, n) so q @ k needs no transpose, adds the spatial bias, unsqueezes the mask on the head axis and calls scores.masked_fill(mask.to(torch.bool), float(10e-5)) before softmax(dim=-1)
# why: buggy: the fill value 10e-5 = 1e-4 is a small positive logit, not a large negative one, so the padded keys (and the padding columns of every real row) are not removed from the softmax: each gets about the weight of an average real node; the author changed 10e-15 to 10e-5 and never used a negative fill (this is the current code)
# source: https://github.com/ak24watch/Graphormer https://github.com/ak24watch/Graphormer/commit/a7288de9e83a237aa32aeb987c123e2daaf9185f encoder.py
import torch
import torch.nn as nn

from molgraph.config import Config


class Attention(nn.Module):
    def __init__(self, cfg: Config):
        super().__init__()
        self.cfg = cfg
        self.scale = cfg.d_head**-0.5
        width = cfg.n_heads * cfg.d_head
        self.linear_q = nn.Linear(cfg.d_model, width, bias=False)
        self.linear_k = nn.Linear(cfg.d_model, width, bias=False)
        self.linear_v = nn.Linear(cfg.d_model, width, bias=False)
        self.att_dropout = nn.Dropout(cfg.attention_dropout)
        self.output_layer = nn.Linear(width, cfg.d_model, bias=False)

    def forward(self, h, att_bias=None, mask=None):
        b, n = h.shape[:2]
        q = self.linear_q(h).view(b, n, self.cfg.n_heads, self.cfg.d_head).permute(0, 2, 1, 3)
        k = self.linear_k(h).view(b, n, self.cfg.n_heads, self.cfg.d_head).permute(0, 2, 3, 1)
        v = self.linear_v(h).view(b, n, self.cfg.n_heads, self.cfg.d_head).permute(0, 2, 1, 3)
        scores = torch.matmul(q, k) * self.scale
        if att_bias is not None:
            scores = scores + att_bias.permute(0, 3, 1, 2)
        if mask is not None:
            mask = mask.unsqueeze(1)
            scores = scores.masked_fill(mask.to(torch.bool), float(10e-5))  # expect: ATT007
        weights = self.att_dropout(torch.softmax(scores, dim=-1))
        out = torch.matmul(weights, v).permute(0, 2, 1, 3).contiguous()
        return self.output_layer(out.view(b, n, self.cfg.n_heads * self.cfg.d_head))


class EncoderLayer(nn.Module):
    def __init__(self, cfg: Config):
        super().__init__()
        self.norm1 = nn.LayerNorm(cfg.d_model)
        self.norm2 = nn.LayerNorm(cfg.d_model)
        self.attn = Attention(cfg)
        self.ffn = nn.Sequential(
            nn.Linear(cfg.d_model, cfg.d_ffn), cfg.ffn_activation, nn.Linear(cfg.d_ffn, cfg.d_model), nn.Dropout(cfg.ffn_dropout)
        )

    def forward(self, h, att_bias, att_mask):
        h = h + self.attn(self.norm1(h), att_bias=att_bias, mask=att_mask)
        return h + self.ffn(self.norm2(h))
