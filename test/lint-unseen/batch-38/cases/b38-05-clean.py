# case: b38-05-clean
# modelled-on: lucidrains/TimeSformer-pytorch https://github.com/lucidrains/TimeSformer-pytorch/commit/9a20466bf6524cbbdee256c376bba6c88e4edb68
# label: correct
# class: clean
# pattern: divided space-time attention for video (TimeSformer): one attention layer attends over the frames of each patch position ('b (f n) d -> (b n) f d'), the next over the patches of each frame ('(b f) n d'); the classification token is spliced out, attends to every patch of every frame, and is prepended again to the keys/values of each group; a plain helper attend(q, k, v, mask) computes the dot products, fills masked keys with -finfo.max and takes the softmax over the keys; queries are multiplied by dim_head ** -0.5 before the split; a per-frame validity mask (variable-length videos) is padded with True for the class token and repeated per head and per patch
# why: correct: the helper has no scale because the queries were pre-scaled by dim_head ** -0.5; the masks are True on valid frames and are inverted before masked_fill; the class token column is padded True so it is never masked
# looks-like: ATT001, ATT002, ATT003
# source: https://github.com/lucidrains/TimeSformer-pytorch https://github.com/lucidrains/TimeSformer-pytorch/commit/9a20466bf6524cbbdee256c376bba6c88e4edb68 timesformer_pytorch/timesformer_pytorch.py
import torch
import torch.nn.functional as F
from torch import nn, einsum
from einops import rearrange, repeat


def attend(q, k, v, mask=None):
    sim = einsum('b i d, b j d -> b i j', q, k)
    if mask is not None:
        sim = sim.masked_fill(~mask, -torch.finfo(sim.dtype).max)
    return einsum('b i j, b j d -> b i d', sim.softmax(dim=-1), v)


class DividedAttention(nn.Module):
    def __init__(self, dim, heads=8, dim_head=64, dropout=0.):
        super().__init__()
        self.heads = heads
        self.scale = dim_head ** -0.5
        inner = heads * dim_head
        self.to_qkv = nn.Linear(dim, inner * 3, bias=False)
        self.to_out = nn.Sequential(nn.Linear(inner, dim), nn.Dropout(dropout))

    def forward(self, x, pattern_from, pattern_to, mask=None, cls_mask=None, **sizes):
        h = self.heads
        q, k, v = (rearrange(t, 'b n (h d) -> (b h) n d', h=h) for t in self.to_qkv(x).chunk(3, dim=-1))
        q = q * self.scale

        cls_q, q_rest = q[:, :1], q[:, 1:]
        cls_k, k_rest = k[:, :1], k[:, 1:]
        cls_v, v_rest = v[:, :1], v[:, 1:]

        cls_out = attend(cls_q, k, v, mask=cls_mask)

        q_rest, k_rest, v_rest = (rearrange(t, f'{pattern_from} -> {pattern_to}', **sizes) for t in (q_rest, k_rest, v_rest))
        groups = q_rest.shape[0] // cls_k.shape[0]
        cls_k = repeat(cls_k, 'b () d -> (b r) () d', r=groups)
        cls_v = repeat(cls_v, 'b () d -> (b r) () d', r=groups)
        k_rest = torch.cat((cls_k, k_rest), dim=1)
        v_rest = torch.cat((cls_v, v_rest), dim=1)

        out = attend(q_rest, k_rest, v_rest, mask=mask)
        out = rearrange(out, f'{pattern_to} -> {pattern_from}', **sizes)
        out = torch.cat((cls_out, out), dim=1)
        return self.to_out(rearrange(out, '(b h) n d -> b n (h d)', h=h))


class VideoClassifier(nn.Module):
    def __init__(self, *, dim, num_frames, num_classes, image_size=224, patch=16, channels=3, depth=4, heads=8, dim_head=64):
        super().__init__()
        self.heads, self.patch = heads, patch
        self.embed = nn.Linear(channels * patch ** 2, dim)
        self.cls = nn.Parameter(torch.randn(1, dim))
        self.pos = nn.Embedding(num_frames * (image_size // patch) ** 2 + 1, dim)
        self.blocks = nn.ModuleList(
            nn.ModuleList([DividedAttention(dim, heads, dim_head), DividedAttention(dim, heads, dim_head), nn.Linear(dim, dim)])
            for _ in range(depth)
        )
        self.head = nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, num_classes))

    def forward(self, video, frame_valid=None):
        b, f, _, height, width = video.shape
        p = self.patch
        n = (height // p) * (width // p)
        tokens = self.embed(rearrange(video, 'b f c (h p1) (w p2) -> b (f h w) (p1 p2 c)', p1=p, p2=p))
        x = torch.cat((repeat(self.cls, 'n d -> b n d', b=b), tokens), dim=1)
        x = x + self.pos(torch.arange(x.shape[1], device=x.device))

        time_mask = cls_mask = None
        if frame_valid is not None:
            with_cls = F.pad(frame_valid, (1, 0), value=True)
            time_mask = repeat(with_cls, 'b f -> (b h n) () f', n=n, h=self.heads)
            cls_mask = repeat(frame_valid, 'b f -> (b h) () (f n)', n=n, h=self.heads)
            cls_mask = F.pad(cls_mask, (1, 0), value=True)

        for over_time, over_space, ff in self.blocks:
            x = over_time(x, 'b (f n) d', '(b n) f d', n=n, mask=time_mask, cls_mask=cls_mask) + x
            x = over_space(x, 'b (f n) d', '(b f) n d', f=f, cls_mask=cls_mask) + x
            x = ff(x) + x
        return self.head(x[:, 0])
