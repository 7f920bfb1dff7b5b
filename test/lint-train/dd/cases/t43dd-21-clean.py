# case: t43dd-21-clean
# modelled-on: littlexi001/kv_cache https://github.com/littlexi001/kv_cache/commit/b0b34ca27ec06aec732da6cb2417ca395ada858b
# label: correct
# class: clean
# pattern: a research Qwen3 variant with "inverse KV" bucketed attention: a per-head router softmaxes `einsum("bhtd,hed->bhte")` logits over the experts (dim=-1) and takes the argmax bucket of every token; the attention keeps (key <= query) and (same bucket, or inside a local window, or a sink token), ANDed with `base_mask[..., :T, :T] == 0` where base_mask is the model's additive mask (0 = allowed), turns the boolean keep mask into an additive one `zeros.masked_fill(~allowed, finfo.min)`, adds it to scaled scores and softmaxes over the keys; a `past_key_value` argument exists but the forward raises when a cache is passed
# why: correct: `allowed` is a keep mask and `~allowed` selects what gets the dtype minimum; `== 0` reads the additive mask's allowed entries; the diagonal is always allowed (same bucket as itself, key_pos <= query_pos), so no row is empty; the router's softmax is over the experts axis e, the one argmax picks from, not an attention axis; with no cache ever accepted, the square causal mask is the right alignment
# looks-like: ATT001, ATT002, ATT007, ATT008
# source: https://github.com/littlexi001/kv_cache https://github.com/littlexi001/kv_cache/commit/b0b34ca27ec06aec732da6cb2417ca395ada858b fdong_inverse_kv/scripts/models/myqwen.py
from dataclasses import dataclass
from typing import Optional

import torch
import torch.nn as nn
from torch.nn import functional as F


@dataclass
class Routing:
    logits: torch.Tensor
    probs: torch.Tensor
    bucket: torch.Tensor


def repeat_kv(x, n):
    if n == 1:
        return x
    b, h, t, d = x.shape
    return x[:, :, None].expand(b, h, n, t, d).reshape(b, h * n, t, d)


class BucketRouter(nn.Module):
    def __init__(self, heads, width, experts):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(heads, experts, width) * width**-0.5)

    def forward(self, states):
        # states: [B, H, T, D]
        logits = torch.einsum("bhtd,hed->bhte", states, self.weight)
        probs = logits.float().softmax(dim=-1).to(logits.dtype)
        return Routing(logits, probs, probs.argmax(dim=-1))


class BucketAttention(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.heads = cfg.num_attention_heads
        self.kv_heads = cfg.num_key_value_heads
        self.head_dim = cfg.hidden_size // cfg.num_attention_heads
        self.groups = self.heads // self.kv_heads
        self.scaling = self.head_dim**-0.5
        self.local_window = cfg.local_window
        self.sink_tokens = cfg.sink_tokens
        self.q_proj = nn.Linear(cfg.hidden_size, self.heads * self.head_dim, bias=False)
        self.k_proj = nn.Linear(cfg.hidden_size, self.kv_heads * self.head_dim, bias=False)
        self.v_proj = nn.Linear(cfg.hidden_size, self.kv_heads * self.head_dim, bias=False)
        self.o_proj = nn.Linear(self.heads * self.head_dim, cfg.hidden_size, bias=False)
        self.router = BucketRouter(self.heads, self.head_dim, cfg.num_experts)

    def allowed_mask(self, bucket, base_mask):
        B, _, T = bucket.shape
        qpos = torch.arange(T, device=bucket.device).view(1, 1, T, 1)
        kpos = torch.arange(T, device=bucket.device).view(1, 1, 1, T)
        causal = kpos <= qpos
        allowed = bucket.unsqueeze(-1) == bucket.unsqueeze(-2)
        if self.local_window > 0:
            allowed = allowed | ((qpos - kpos >= 0) & (qpos - kpos < self.local_window))
        if self.sink_tokens > 0:
            allowed = allowed | (kpos < self.sink_tokens)
        allowed = allowed & causal
        if base_mask is not None:
            finite = base_mask[..., :T, :T] == 0
            allowed = allowed & finite
        return allowed

    def forward(self, hidden, attention_mask: Optional[torch.Tensor], past_key_value=None):
        if past_key_value is not None:
            raise NotImplementedError("bucketed decoding with a KV cache is not implemented; call with use_cache=False")
        B, T, _ = hidden.shape
        q = self.q_proj(hidden).view(B, T, self.heads, self.head_dim).transpose(1, 2)
        k = self.k_proj(hidden).view(B, T, self.kv_heads, self.head_dim).transpose(1, 2)
        v = self.v_proj(hidden).view(B, T, self.kv_heads, self.head_dim).transpose(1, 2)
        routing = self.router(q)
        k = repeat_kv(k, self.groups)
        v = repeat_kv(v, self.groups)

        allowed = self.allowed_mask(routing.bucket, attention_mask)
        bias = torch.zeros_like(allowed, dtype=q.dtype).masked_fill(~allowed, torch.finfo(q.dtype).min)
        logits = torch.matmul(q, k.transpose(-2, -1)) * self.scaling + bias
        weights = F.softmax(logits, dim=-1, dtype=torch.float32).to(q.dtype)
        out = torch.matmul(weights, v).transpose(1, 2).reshape(B, T, -1)
        return self.o_proj(out), weights, routing
