# case: t17j-09-clean
# modelled-on: joseph-nagel/attention-mechanism https://github.com/joseph-nagel/attention-mechanism/commit/37ab0d7381be82c028782047f5f168de7be0b742
# label: correct
# class: clean
# pattern: a teaching library's attention layers: a sequence self-attention calls F.scaled_dot_product_attention with scale=None when its documented `scale` flag is set and scale=1.0 when it is not; a multi-head wrapper builds num_heads such layers with d_k = embed_dim // num_heads and concatenates them; a SAGAN-style 2-D self-attention flattens (b, c, h, w) to (b, c, h*w), computes bmm(q.transpose(1, 2), k) as (b, N, N), optionally divides by a registered sqrt(d_k) buffer (off by default, as in the SAGAN paper), softmaxes with dim=1 and contracts with bmm(v, weights)
# why: correct: in the 2-D layer the weights are normalised over their first position axis and bmm(v, weights) sums the values over that same axis, so every output position receives a convex combination of the values (the roles of the two 1x1-conv projections are swapped relative to the paper, which changes nothing since both are learned); SAGAN itself uses no scale; in the sequence layer scale=1.0 is the documented "unscaled" option of the flag, and the default path lets SDPA scale by each head's d_k
# looks-like: ATT001, ATT003, ATT004, ATT005
# source: https://github.com/joseph-nagel/attention-mechanism https://github.com/joseph-nagel/attention-mechanism/commit/37ab0d7381be82c028782047f5f168de7be0b742 att_tools/attention/layers.py
import torch
import torch.nn as nn


class SelfAttention(nn.Module):
    """Dot-product self-attention on (batch, sequence, features); `scale` decides whether scores are scaled."""

    def __init__(self, d_x, d_k=None, d_v=None, scale=True):
        super().__init__()
        d_k = d_x if d_k is None else d_k
        d_v = d_x if d_v is None else d_v
        self.q = nn.Linear(d_x, d_k, bias=False)
        self.k = nn.Linear(d_x, d_k, bias=False)
        self.v = nn.Linear(d_x, d_v, bias=False)
        self.scale = scale

    def forward(self, x, attn_mask=None, is_causal=False):
        if x.ndim == 2:
            x = x.unsqueeze(0)
        return nn.functional.scaled_dot_product_attention(
            query=self.q(x),
            key=self.k(x),
            value=self.v(x),
            attn_mask=attn_mask,
            is_causal=is_causal,
            scale=None if self.scale else 1.0,
        )


class MultiheadSelfAttention(nn.Module):
    def __init__(self, embed_dim, num_heads, scale=True):
        super().__init__()
        if embed_dim % num_heads != 0:
            raise ValueError("embedding dim must be divisible by the number of heads")
        head_dim = embed_dim // num_heads
        self.heads = nn.ModuleList(
            [SelfAttention(d_x=embed_dim, d_k=head_dim, d_v=head_dim, scale=scale) for _ in range(num_heads)]
        )

    def forward(self, x, attn_mask=None, is_causal=False):
        return torch.cat([h(x, attn_mask=attn_mask, is_causal=is_causal) for h in self.heads], dim=-1)


class SelfAttention2D(nn.Module):
    """Self-attention with a residual connection for (batch, channels, height, width) inputs."""

    def __init__(self, num_channels, num_queries_and_keys=None, scale=False):
        super().__init__()
        if num_queries_and_keys is None:
            num_queries_and_keys = num_channels // 8
        self.q = nn.Conv1d(num_channels, num_queries_and_keys, kernel_size=1, bias=False)
        self.k = nn.Conv1d(num_channels, num_queries_and_keys, kernel_size=1, bias=False)
        self.v = nn.Conv1d(num_channels, num_channels, kernel_size=1, bias=False)
        self.gamma = nn.Parameter(torch.tensor(0.0))
        if scale:
            self.register_buffer("scale", torch.tensor(num_queries_and_keys).sqrt())
        else:
            self.scale = None

    def forward(self, x):
        b, c, h, w = x.shape
        flat = x.view(b, c, h * w)
        q, k, v = self.q(flat), self.k(flat), self.v(flat)  # (b, c', N), (b, c', N), (b, c, N)
        scores = torch.bmm(q.transpose(1, 2), k)  # (b, N, N)
        if self.scale is not None:
            scores = scores / self.scale
        weights = torch.softmax(scores, dim=1)
        attended = torch.bmm(v, weights)  # (b, c, N)
        return (self.gamma * attended + flat).view(b, c, h, w)
