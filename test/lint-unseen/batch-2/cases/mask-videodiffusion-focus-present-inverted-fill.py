# case: mask-videodiffusion-focus-present-inverted-fill
# modelled-on: lucidrains/video-diffusion-pytorch https://github.com/lucidrains/video-diffusion-pytorch/issues/6
# label: correct
# class: fixed
# pattern: temporal attention over video frames (... h i j scores via einsum, queries pre-scaled); a per-sample "focus on the present" flag picks, with torch.where, between an identity mask and an all-True mask, both built in the keep convention (True = may attend), and the result goes to masked_fill
# why: the fix of commit fbb0ef5: masked_fill(~mask, ...) fills the positions a sample may not attend to, so focusing samples see only their own frame and the others see every frame; the fill is the dtype's most negative finite value and the row maximum is subtracted before the softmax
# looks-like: ATT002, ATT003, ATT007
# source: https://github.com/lucidrains/video-diffusion-pytorch https://github.com/lucidrains/video-diffusion-pytorch/commit/fbb0ef5ee73d6b2ce6908892eb548db790c579dd video_diffusion_pytorch/video_diffusion_pytorch.py
import torch
from einops import rearrange
from torch import einsum, nn


def exists(val):
    return val is not None


class TemporalAttention(nn.Module):
    def __init__(self, dim, heads=4, dim_head=32):
        super().__init__()
        self.scale = dim_head ** -0.5
        self.heads = heads
        hidden_dim = dim_head * heads
        self.to_qkv = nn.Linear(dim, hidden_dim * 3, bias=False)
        self.to_out = nn.Linear(hidden_dim, dim, bias=False)

    def forward(self, x, pos_bias=None, focus_present_mask=None):
        # x: (b, ..., n frames, dim); focus_present_mask: (b,) bool
        n, device = x.shape[-2], x.device
        qkv = self.to_qkv(x).chunk(3, dim=-1)

        if exists(focus_present_mask) and focus_present_mask.all():
            # every sample attends only to its own frame: the values pass through
            return self.to_out(qkv[-1])

        q, k, v = (rearrange(t, "... n (h d) -> ... h n d", h=self.heads) for t in qkv)
        q = q * self.scale
        sim = einsum("... h i d, ... h j d -> ... h i j", q, k)  # (b, ..., h, n, n)

        if exists(pos_bias):
            sim = sim + pos_bias

        if exists(focus_present_mask) and not (~focus_present_mask).all():
            attend_all_mask = torch.ones((n, n), device=device, dtype=torch.bool)
            attend_self_mask = torch.eye(n, device=device, dtype=torch.bool)
            mask = torch.where(
                rearrange(focus_present_mask, "b -> b 1 1 1 1"),
                rearrange(attend_self_mask, "i j -> 1 1 1 i j"),
                rearrange(attend_all_mask, "i j -> 1 1 1 i j"),
            )
            sim = sim.masked_fill(~mask, -torch.finfo(sim.dtype).max)

        sim = sim - sim.amax(dim=-1, keepdim=True).detach()
        attn = sim.softmax(dim=-1)
        out = einsum("... h i j, ... h j d -> ... h i d", attn, v)
        out = rearrange(out, "... h n d -> ... n (h d)")
        return self.to_out(out)
