# case: b39-08-clean
# modelled-on: lucidrains/gateloop-transformer https://github.com/lucidrains/gateloop-transformer/commit/1ded1cb95af3677411103e8fd2cbf662287507bc
# label: correct
# class: clean
# pattern: the quadratic ("attention") form of GateLoop as a causal full-attention layer: q is multiplied by dim_head ** -0.5 up front, optionally rotated, and with data-dependent relative positions q and k are multiplied by the cumulative product of learned complex decay gates and its inverse; sim = einsum(q, k), the causal mask is ones(i, j).triu(j - i + 1) (True = future, aligned to the last key), and then either masked_fill(causal, -finfo.max) followed by softmax(dim=-1), or, when softmax normalisation is off (the default with data-dependent positions), masked_fill(causal, 0.) and the raw similarities are used as weights directly
# why: correct: GateLoop's attention form is linear attention with a data-controlled decay, A = (Q K^T) * causal mask, so with softmax_normalize off the future entries must be zero, and filling them with 0 and not normalising is the paper's operator, not a fill value that fails to mask or a mask applied after a softmax; on the softmax path the fill is -finfo.max before the softmax; the query is scaled once before the similarity; triu(j - i + 1) is the bottom-right aligned causal mask, right even when there are more keys than queries
# looks-like: ATT002, ATT003, ATT006, ATT007, ATT008
# source: https://github.com/lucidrains/gateloop-transformer https://github.com/lucidrains/gateloop-transformer/commit/1ded1cb95af3677411103e8fd2cbf662287507bc gateloop_transformer/gateloop_transformer.py
import torch
from einops.layers.torch import Rearrange
from rotary_embedding_torch import RotaryEmbedding
from torch import einsum, nn


class DecayedCausalAttention(nn.Module):
    def __init__(self, dim, *, dim_head=64, heads=8, use_rotary=False, gated_positions=False,
                 slow_grad=0.5, use_softmax=None, swish_gate=False):
        super().__init__()
        inner = dim_head * heads
        self.use_softmax = (not gated_positions) if use_softmax is None else use_softmax
        self.scale = dim_head ** -0.5
        self.rotary = RotaryEmbedding(dim_head) if use_rotary else None

        self.qkv = nn.Sequential(
            nn.Linear(dim, inner * 3, bias=False),
            Rearrange("b n (three h d) -> three b h n d", three=3, h=heads),
        )
        self.gated_positions, self.slow_grad = gated_positions, slow_grad
        if gated_positions:
            self.to_decay = nn.Sequential(
                nn.Linear(dim, inner, bias=False),
                Rearrange("b n (h d c) -> b h n d c", h=heads, c=2),
            )
        self.gate = None
        if swish_gate:
            self.gate = nn.Sequential(nn.Linear(dim, inner, bias=False), nn.SiLU(),
                                      Rearrange("b n (h d) -> b h n d", h=heads))
        self.out = nn.Sequential(Rearrange("b h n d -> b n (h d)"), nn.Linear(inner, dim))

    def forward(self, x):
        q, k, v = self.qkv(x)
        if self.rotary is not None:
            q = self.rotary.rotate_queries_or_keys(q)
            k = self.rotary.rotate_queries_or_keys(k)
        q = q * self.scale

        if self.gated_positions:
            raw = self.to_decay(x)
            raw = raw * self.slow_grad + raw.detach() * (1 - self.slow_grad)
            decay = torch.view_as_complex(raw)
            decay = torch.polar(decay.abs().sigmoid(), decay.angle())      # (b, h, n, d / 2)
            running = decay.cumprod(dim=-2).real.clamp(min=1e-10).unsqueeze(-1)

            q = (q.unflatten(-1, (-1, 2)) * running).flatten(-2)
            k = (k.unflatten(-1, (-1, 2)) * (1.0 / running)).flatten(-2)

        sim = einsum("b h i d, b h j d -> b h i j", q, k)
        i, j = sim.shape[-2:]
        future = torch.ones((i, j), dtype=torch.bool, device=x.device).triu(j - i + 1)

        if self.use_softmax:
            weights = sim.masked_fill(future, -torch.finfo(sim.dtype).max).softmax(dim=-1)
        else:
            weights = sim.masked_fill(future, 0.0)

        out = einsum("b h i j, b h j d -> b h i d", weights, v)
        if self.gate is not None:
            out = out * self.gate(x)
        return self.out(out)
