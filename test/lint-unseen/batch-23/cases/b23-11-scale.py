# case: b23-11-scale
# modelled-on: Heshtin/Chess-Transformer https://github.com/Heshtin/Chess-Transformer/commit/250d66d2bb1bb1cd4599cc6ff68164e8caa1708b
# label: correct
# class: fixed
# pattern: the same chess position encoder after the authors' rewrite: a fused c_attn projection split into q, k, v, heads split with view(...).transpose(1, 2), a learnt per-position bias ("smolgen") projected by a layer shared across blocks from the board-summary token and reshaped to (B, heads, T, T), and F.scaled_dot_product_attention(q, k, v, attn_mask=bias) with no causal flag
# why: correct: a float attn_mask is added to the scaled scores by SDPA, so passing the learnt bias there gives softmax(q k^T / sqrt(head_size) + bias), the scaled logits the hand-written version lacked; nothing is causal in a board encoder (is_causal defaults to False, as the comment says); the bias is not a padding mask, so it has no polarity to get wrong
# looks-like: ATT002, ATT003, ATT004, ATT008
# source: https://github.com/Heshtin/Chess-Transformer https://github.com/Heshtin/Chess-Transformer/commit/250d66d2bb1bb1cd4599cc6ff68164e8caa1708b src/models/model0/blocks2.py
import torch
import torch.nn as nn
import torch.nn.functional as F


class SquareSelfAttention(nn.Module):
    def __init__(self, cfg, to_bias: nn.Linear):
        super().__init__()
        assert cfg.n_embd % cfg.n_head == 0
        self.c_attn = nn.Linear(cfg.n_embd, 3 * cfg.n_embd)
        self.c_proj = nn.Linear(cfg.n_embd, cfg.n_embd)
        self.n_head = cfg.n_head
        self.n_embd = cfg.n_embd
        self.to_bias = to_bias  # shared by all blocks

    def forward(self, x):
        b, t, c = x.size()
        q, k, v = self.c_attn(x).split(self.n_embd, dim=2)
        k = k.view(b, t, self.n_head, c // self.n_head).transpose(1, 2)  # (B, nh, T, hs)
        q = q.view(b, t, self.n_head, c // self.n_head).transpose(1, 2)
        v = v.view(b, t, self.n_head, c // self.n_head).transpose(1, 2)
        summary = x[:, 0:1, :].squeeze(1)  # (B, C)
        bias = self.to_bias(summary).view(b, self.n_head, t, t)
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=bias)  # no causal masking in a board encoder
        y = y.transpose(1, 2).contiguous().view(b, t, c)
        return self.c_proj(y)


class Encoder(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.to_bias = nn.Linear(cfg.n_embd, cfg.n_head * cfg.n_tokens * cfg.n_tokens)
        self.attn = nn.ModuleList([SquareSelfAttention(cfg, self.to_bias) for _ in range(cfg.n_layer)])
        self.norms = nn.ModuleList([nn.LayerNorm(cfg.n_embd) for _ in range(cfg.n_layer)])
        self.ln_f = nn.LayerNorm(cfg.n_embd)

    def forward(self, x):
        for attn, ln in zip(self.attn, self.norms):
            x = x + attn(ln(x))
        return self.ln_f(x)
