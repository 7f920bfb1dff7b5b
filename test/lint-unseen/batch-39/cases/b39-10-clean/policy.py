# case: b39-10-clean
# modelled-on: lucidrains/robotic-transformer-pytorch https://github.com/lucidrains/robotic-transformer-pytorch/commit/1512c9b460944accb2d874e4f3354a8e196f50e8
# label: correct
# class: clean
# pattern: an RT-1 style robot policy (a folder: the policy, which turns video frames into a few learned tokens per frame and builds the attention mask, and the transformer layers); the policy builds a frame-level causal mask ones(frames, frames).triu(1) (True = later frame), repeats every entry over the learned tokens of the query frame and of the key frame with einops, and hands ~mask to the transformer; each layer is multi-query attention (one shared key/value head, einsum 'b h i d, b j d -> b h i j' on pre-scaled queries) that applies masked_fill(~attn_mask, -finfo.max) and an optional key padding mask the same way, then softmax(dim=-1)
# why: correct: the mask handed over is True where a token may attend (its own frame and earlier frames), and the layer fills exactly its complement, so the double negation restores the block-causal pattern; tokens of one frame see each other by design (block causality at frame level, not a token-level triangle); keys and values have no head axis because the layer shares one key/value head across all query heads, and the queries are multiplied by dim_head ** -0.5 before the product
# looks-like: ATT002, ATT005, ATT007, ATT008
# source: https://github.com/lucidrains/robotic-transformer-pytorch https://github.com/lucidrains/robotic-transformer-pytorch/commit/1512c9b460944accb2d874e4f3354a8e196f50e8 robotic_transformer_pytorch/robotic_transformer_pytorch.py
import torch
from einops import reduce, repeat
from torch import nn

from layers import FrameTransformer


def sincos_positions(n, dim, device, dtype, temperature=10000):
    pos = torch.arange(n, device=device)
    omega = 1.0 / temperature ** (torch.arange(dim // 2, device=device) / (dim // 2 - 1))
    angles = pos[:, None] * omega[None, :]
    return torch.cat((angles.sin(), angles.cos()), dim=1).type(dtype)


class FramePolicy(nn.Module):
    def __init__(self, frame_encoder, token_learner, dim, tokens_per_frame=8, depth=6, heads=8, n_actions=11, bins=256):
        super().__init__()
        self.frame_encoder = frame_encoder
        self.token_learner = token_learner
        self.tokens_per_frame = tokens_per_frame
        self.transformer = FrameTransformer(dim, depth=depth, heads=heads)
        self.to_logits = nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, n_actions * bins))
        self.n_actions, self.bins = n_actions, bins

    def forward(self, video):
        b, _, frames = video.shape[:3]
        device = video.device

        feats = self.frame_encoder(video)                     # (b, frames, c, h, w)
        tokens = self.token_learner(feats)                     # (b, frames * tokens_per_frame, dim)

        later = torch.ones((frames, frames), dtype=torch.bool, device=device).triu(1)
        later = repeat(later, "i j -> (i ri) (j rj)", ri=self.tokens_per_frame, rj=self.tokens_per_frame)

        pos = sincos_positions(frames, tokens.shape[-1], device, tokens.dtype)
        tokens = tokens + repeat(pos, "f d -> (f r) d", r=self.tokens_per_frame)

        attended = self.transformer(tokens, attn_mask=~later)
        per_frame = reduce(attended, "b (f n) d -> b f d", "mean", f=frames)
        return self.to_logits(per_frame).view(b, frames, self.n_actions, self.bins)
