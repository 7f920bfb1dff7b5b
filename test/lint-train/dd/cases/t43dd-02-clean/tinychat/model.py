# case: t43dd-02-clean
# modelled-on: Konohamaru04/Tiny-LLM https://github.com/Konohamaru04/Tiny-LLM/commit/30084ecdd302ccde1758b741336a41a70259b2d0
# label: correct
# class: clean
# pattern: a small chat LLM's grouped-query causal attention with two switchable paths: `F.scaled_dot_product_attention(..., attn_mask=None, is_causal=True, enable_gqa=...)` (retried without `enable_gqa` and with repeated kv heads on older PyTorch), and a manual path over a registered lower-triangular KEEP buffer sliced `[:, :, :T, :T]` and applied as `masked_fill(~keep, -inf)`; RoPE positions always start at 0; the generation loop in another module re-runs the whole cropped window `out[:, -block_size:]` every step (there is no KV cache anywhere)
# why: correct: without a cache the queries and keys are the same T positions, so the top-left causal mask of `is_causal=True` is the right one; the buffer is True on allowed positions and `~keep` selects the future; the scale is the per-head width in both paths (SDPA's default is 1/sqrt(head_dim)); softmax over the keys
# looks-like: ATT002, ATT008
# source: https://github.com/Konohamaru04/Tiny-LLM https://github.com/Konohamaru04/Tiny-LLM/commit/30084ecdd302ccde1758b741336a41a70259b2d0 src/model.py
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def rotate_half(x):
    h = x.size(-1) // 2
    return torch.cat((-x[..., h:], x[..., :h]), dim=-1)


class GQAttention(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.n_head = cfg.n_head
        self.n_kv = cfg.n_kv_head
        self.width = cfg.n_embd
        self.hd = cfg.n_embd // cfg.n_head
        self.kv_width = self.n_kv * self.hd
        self.rep = self.n_head // self.n_kv
        self.p = cfg.dropout
        self.fast = cfg.attention_impl != "manual" and hasattr(F, "scaled_dot_product_attention")
        self.qkv = nn.Linear(cfg.n_embd, cfg.n_embd + 2 * self.kv_width)
        self.proj = nn.Linear(cfg.n_embd, cfg.n_embd)
        self.drop = nn.Dropout(cfg.dropout)
        inv = 1.0 / (cfg.rope_theta ** (torch.arange(0, self.hd, 2).float() / self.hd))
        self.register_buffer("inv_freq", inv, persistent=False)
        if not self.fast:
            keep = torch.tril(torch.ones(cfg.block_size, cfg.block_size, dtype=torch.bool))
            self.register_buffer("keep", keep.view(1, 1, cfg.block_size, cfg.block_size), persistent=False)

    def rope(self, x):
        pos = torch.arange(x.size(-2), device=x.device, dtype=self.inv_freq.dtype)
        ang = torch.outer(pos, self.inv_freq)
        ang = torch.cat((ang, ang), dim=-1)
        return x * ang.cos()[None, None].to(x.dtype) + rotate_half(x) * ang.sin()[None, None].to(x.dtype)

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.qkv(x).split((self.width, self.kv_width, self.kv_width), dim=2)
        q = self.rope(q.view(B, T, self.n_head, self.hd).transpose(1, 2))
        k = self.rope(k.view(B, T, self.n_kv, self.hd).transpose(1, 2))
        v = v.view(B, T, self.n_kv, self.hd).transpose(1, 2)
        p = self.p if self.training else 0.0
        if self.fast:
            try:
                y = F.scaled_dot_product_attention(
                    q, k, v, attn_mask=None, dropout_p=p, is_causal=True, enable_gqa=self.rep > 1
                )
            except TypeError:
                k = k.repeat_interleave(self.rep, dim=1)
                v = v.repeat_interleave(self.rep, dim=1)
                y = F.scaled_dot_product_attention(q, k, v, attn_mask=None, dropout_p=p, is_causal=True)
        else:
            k = k.repeat_interleave(self.rep, dim=1)
            v = v.repeat_interleave(self.rep, dim=1)
            att = (q @ k.transpose(-2, -1)) / math.sqrt(self.hd)
            att = att.masked_fill(~self.keep[:, :, :T, :T], float("-inf"))
            att = self.drop(F.softmax(att, dim=-1))
            y = att @ v
        return self.proj(y.transpose(1, 2).contiguous().view(B, T, C))


class ChatLM(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.config = cfg
        self.tok = nn.Embedding(cfg.vocab_size, cfg.n_embd)
        self.layers = nn.ModuleList(GQAttention(cfg) for _ in range(cfg.n_layer))
        self.norm = nn.LayerNorm(cfg.n_embd)
        self.head = nn.Linear(cfg.n_embd, cfg.vocab_size, bias=False)

    def forward(self, ids, targets=None):
        x = self.tok(ids)
        for layer in self.layers:
            x = x + layer(x)
        logits = self.head(self.norm(x))
        loss = None
        if targets is not None:
            loss = F.cross_entropy(logits.reshape(-1, logits.size(-1)), targets.reshape(-1), ignore_index=-100)
        return logits, loss
