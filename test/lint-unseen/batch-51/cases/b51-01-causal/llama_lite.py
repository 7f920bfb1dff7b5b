# case: b51-01-causal
# modelled-on: chaitanyamanem/TinyStories https://github.com/chaitanyamanem/TinyStories/commit/b44121581c21bedc4244d219003e680af461e282
# label: buggy
# class: real-bug
# pattern: a small Llama-style story model (a folder: the model, whose attention keeps a per-module key/value store switched on by a config flag, rotates the new queries and keys from the cached length, joins the new keys after the stored ones and, whenever the flag is on, calls SDPA with an all-True boolean mask and is_causal=False, the flag-off path using is_causal=True; and the sampling script that turns the flag on, resets the stores, feeds the whole prompt in the first call and one token per call after it)
# why: buggy: with the flag on, the first call pushes the whole prompt (T > 1 queries over T keys, the store still empty) through the branch whose mask keeps every key, so each prompt position also attends to the prompt tokens after it; those non-causal hidden states are written into the store and every later step reads them. The model is trained causally (the flag-off path passes is_causal=True, and the repository's sampler without a cache re-runs the cropped prompt through that path), so cached and uncached sampling disagree; the all-True mask is only right for the one-token steps. No fix exists in the repository's history (the branch's last commit still has it).
# source: https://github.com/chaitanyamanem/TinyStories https://github.com/chaitanyamanem/TinyStories/commit/b44121581c21bedc4244d219003e680af461e282 model.py
import torch
from torch import nn
import torch.nn.functional as F


class Rotary(nn.Module):
    """Rotary position codes, precomputed up to the context length."""

    def __init__(self, cfg):
        super().__init__()
        half = cfg.head_size // 2
        freqs = 10000 ** (-torch.arange(half).float().repeat(2) * 2 / cfg.head_size)
        angles = torch.arange(cfg.seq_len).float()[:, None] * freqs[None, :]
        self.register_buffer("cos_tab", angles.cos(), persistent=False)
        self.register_buffer("sin_tab", angles.sin(), persistent=False)
        self.half = half

    def forward(self, x, offset):
        # x: (batch, heads, steps, head_size); offset > 0 means a single cached step
        steps = x.shape[-2]
        if offset > 0:
            cos, sin = self.cos_tab[offset], self.sin_tab[offset]
        else:
            cos, sin = self.cos_tab[:steps], self.sin_tab[:steps]
        turned = torch.cat([-x[..., self.half:], x[..., : self.half]], dim=-1)
        return cos * x + sin * turned


class CachedAttention(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        self.use_cache = cfg.enable_kv_cache
        inner = cfg.n_heads * cfg.head_size
        self.to_q = nn.Linear(cfg.dim, inner, bias=False)
        self.to_k = nn.Linear(cfg.dim, inner, bias=False)
        self.to_v = nn.Linear(cfg.dim, inner, bias=False)
        self.out = nn.Linear(inner, inner, bias=False)
        self.rotary = Rotary(cfg)
        self.store = {"k": None, "v": None}

    def split(self, t, b, n):
        return t.view(b, n, self.cfg.n_heads, self.cfg.head_size).permute(0, 2, 1, 3)

    def forward(self, x):
        b, n, _ = x.shape
        offset = 0 if self.store["k"] is None else self.store["k"].shape[-2]

        q = self.rotary(self.split(self.to_q(x), b, n), offset)
        k = self.rotary(self.split(self.to_k(x), b, n), offset)
        v = self.split(self.to_v(x), b, n)

        if self.store["k"] is not None:
            k = torch.cat((self.store["k"], k), dim=-2)
            v = torch.cat((self.store["v"], v), dim=-2)
        if self.use_cache:
            keep = self.cfg.seq_len - 1
            self.store["k"] = k[:, :, -keep:].detach().clone()
            self.store["v"] = v[:, :, -keep:].detach().clone()

        if self.use_cache:
            visible = torch.ones(q.shape[-2], k.shape[-2], dtype=torch.bool, device=k.device)
            y = F.scaled_dot_product_attention(q, k, v, is_causal=False, attn_mask=visible)  # expect: ATT008
        else:
            y = F.scaled_dot_product_attention(q, k, v, is_causal=True)

        y = y.transpose(1, 2).contiguous().view(b, n, -1)
        return self.out(y)

    def clear(self):
        self.store = {"k": None, "v": None}


class Block(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.attn = CachedAttention(cfg)
        self.norm1 = nn.RMSNorm(cfg.dim)
        self.norm2 = nn.RMSNorm(cfg.dim)
        hidden = 4 * cfg.dim
        self.up = nn.Linear(cfg.dim, hidden)
        self.gate = nn.Linear(cfg.dim, hidden)
        self.down = nn.Linear(hidden, cfg.dim)

    def forward(self, x):
        x = x + self.attn(self.norm1(x))
        h = self.norm2(x)
        return x + self.down(F.silu(self.up(h)) * self.gate(h))


class StoryLM(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.embed = nn.Embedding(cfg.vocab_size, cfg.dim)
        self.blocks = nn.Sequential(*[Block(cfg) for _ in range(cfg.n_layers)])
        self.norm = nn.RMSNorm(cfg.dim)
        self.head = nn.Linear(cfg.dim, cfg.vocab_size)

    def forward(self, ids):
        assert ids.dim() == 2
        return self.head(self.norm(self.blocks(self.embed(ids))))

    def clear_cache(self):
        for block in self.blocks:
            block.attn.clear()
