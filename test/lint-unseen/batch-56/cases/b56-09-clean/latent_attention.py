# case: b56-09-clean
# modelled-on: lpkphd/mosaic-gpt https://github.com/lpkphd/mosaic-gpt/commit/34f322b88eb969946579326d1e3bba049aa5da37
# label: correct
# class: clean
# pattern: DeepSeek-style multi-head latent attention in a small modular GPT, a folder: queries and keys/values go through low-rank latents, each head's query and key are the concatenation of a content part (head_width = width / heads) and a separately rotated rotary part (rope_width, from the settings module), the scores are scaled by 1/sqrt(head_width + rope_width), a square causal -inf triangle is added only when no cache is passed, and the joined keys and values are returned to the caller as the new cache
# why: correct: q and k are head_width + rope_width wide after the concatenation, so 1/sqrt(head_width + rope_width) is exactly 1/sqrt(d_k) for this dot product (the settings make it 64 + 64); without a cache the T x T triangle over T queries and T keys is the causal mask; with a cache the function returns the joined keys to its caller, and the repository never passes a cache with more than one new token (the model's forward passes none unless asked), so a single new query sees every cached key and needs no mask; the softmax runs over the last (key) axis; values keep head_width, which is what the output reshape expects
# looks-like: ATT003, ATT004, ATT008
# source: https://github.com/lpkphd/mosaic-gpt https://github.com/lpkphd/mosaic-gpt/commit/34f322b88eb969946579326d1e3bba049aa5da37 mosaic/attention/mla.py
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

from settings import ModelSettings


def rotary_tables(width: int, length: int, offset: int, device) -> tuple:
    inv = 1.0 / (10000.0 ** (torch.arange(0, width, 2, device=device).float() / width))
    ang = torch.outer(torch.arange(offset, offset + length, device=device).float(), inv)
    ang = torch.cat((ang, ang), dim=-1)
    return ang.cos()[None, None], ang.sin()[None, None]


def rotate(x, cos, sin):
    a, b = x.chunk(2, dim=-1)
    return x * cos + torch.cat((-b, a), dim=-1) * sin


class LatentAttention(nn.Module):
    def __init__(self, cfg: ModelSettings):
        super().__init__()
        a = cfg.attention
        self.h, self.dh, self.dr = a.n_heads, cfg.head_width, a.rope_width
        self.width = cfg.width
        self.q_down = nn.Linear(cfg.width, a.q_latent, bias=False)
        self.q_up = nn.Linear(a.q_latent, self.h * self.dh, bias=False)
        self.q_rot = nn.Linear(a.q_latent, self.h * self.dr, bias=False)
        self.kv_down = nn.Linear(cfg.width, a.kv_latent, bias=False)
        self.k_up = nn.Linear(a.kv_latent, self.h * self.dh, bias=False)
        self.v_up = nn.Linear(a.kv_latent, self.h * self.dh, bias=False)
        self.k_rot = nn.Linear(a.kv_latent, self.h * self.dr, bias=False)
        self.out = nn.Linear(cfg.width, cfg.width, bias=False)
        self.drop = nn.Dropout(a.dropout)

    def split(self, t, d):
        b, n, _ = t.shape
        return t.view(b, n, self.h, d).transpose(1, 2)

    def forward(self, x: torch.Tensor, kv_cache=None):
        b, n, _ = x.shape
        past = 0 if kv_cache is None else kv_cache[0].shape[2]

        cq = self.q_down(x)
        ckv = self.kv_down(x)  # the latent a full implementation would cache
        q_body, q_pos = self.split(self.q_up(cq), self.dh), self.split(self.q_rot(cq), self.dr)
        k_body, k_pos = self.split(self.k_up(ckv), self.dh), self.split(self.k_rot(ckv), self.dr)
        v = self.split(self.v_up(ckv), self.dh)

        cos, sin = rotary_tables(self.dr, n, past, x.device)
        q_pos, k_pos = rotate(q_pos, cos, sin), rotate(k_pos, cos, sin)

        q = torch.cat([q_body, q_pos], dim=-1)  # (b, h, n, dh + dr)
        k = torch.cat([k_body, k_pos], dim=-1)
        if kv_cache is not None:
            k = torch.cat([kv_cache[0], k], dim=2)
            v = torch.cat([kv_cache[1], v], dim=2)
        present = (k, v)

        scores = (q @ k.transpose(-2, -1)) / math.sqrt(self.dh + self.dr)
        if kv_cache is None:
            scores = scores + torch.triu(torch.full((n, n), float("-inf"), device=x.device), diagonal=1)
        weights = self.drop(F.softmax(scores, dim=-1))

        y = (weights @ v).transpose(1, 2).contiguous().view(b, n, self.width)
        return self.out(y), present
