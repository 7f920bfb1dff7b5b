# label: correct
# why: d_model=64 with 4 heads; the scale is head_dim ** -0.5 (1/4), which is right for d_k=16
import torch
import torch.nn as nn
import torch.nn.functional as F
from dataclasses import dataclass


@dataclass
class Config:
    d_model: int = 64
    n_heads: int = 4
    vocab: int = 100
    max_len: int = 32


class Attention(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.n_heads = cfg.n_heads
        self.head_dim = cfg.d_model // cfg.n_heads
        self.scale = self.head_dim ** -0.5
        self.wqkv = nn.Linear(cfg.d_model, 3 * cfg.d_model, bias=False)
        self.wo = nn.Linear(cfg.d_model, cfg.d_model, bias=False)

    def forward(self, x):
        b, t, _ = x.shape
        q, k, v = self.wqkv(x).chunk(3, dim=-1)
        q, k, v = (z.reshape(b, t, self.n_heads, self.head_dim).permute(0, 2, 1, 3) for z in (q, k, v))
        attn = F.softmax(torch.einsum("bhid,bhjd->bhij", q, k) * self.scale, dim=-1)
        out = torch.einsum("bhij,bhjd->bhid", attn, v)
        return self.wo(out.permute(0, 2, 1, 3).reshape(b, t, -1))


class TinyEncoder(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.tok = nn.Embedding(cfg.vocab, cfg.d_model)
        self.pos = nn.Embedding(cfg.max_len, cfg.d_model)
        self.attn = Attention(cfg)
        self.norm = nn.LayerNorm(cfg.d_model)

    def forward(self, ids):
        pos = torch.arange(ids.size(1))
        h = self.tok(ids) + self.pos(pos)
        return self.norm(h + self.attn(h))


if __name__ == "__main__":
    torch.manual_seed(8)
    cfg = Config()
    enc = TinyEncoder(cfg)
    ids = torch.randint(0, cfg.vocab, (3, 20))
    print(enc(ids).shape)
