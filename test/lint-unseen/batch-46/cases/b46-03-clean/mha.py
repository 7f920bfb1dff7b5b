# case: b46-03-clean
# modelled-on: cscribano/DCT-Former-Public https://github.com/cscribano/DCT-Former-Public/commit/f6b804af270922289fef2fa5e273759da9814638
# label: correct
# class: clean
# pattern: DCT-Former multi-head attention (a folder: the settings dataclass with head_dim, the two attention heads, and the multi-head wrapper that picks one by name): the dense head divides q @ k^T by sqrt(head_dim) and subtracts 1e6 * (1 - mask) for a (batch, seq) mask of 1 at real tokens before softmax(dim=-1); the spectral head divides q and k each by head_dim ** 0.25, zeroes padded keys and values with the mask, projects the sequence axis onto the first maxM DCT coefficients, takes softmax(dim=-1) over the m coefficient keys and maps the result back with the transposed basis; the wrapper runs the heads in float32 with autocast disabled
# why: correct: 1 - mask is 1 only at padding, so subtracting 1e6 there masks padded keys (in float32, where 1e6 does not overflow); the two fourth-root divisions multiply to the 1/sqrt(head_dim) scale of the scores; in the spectral head padding is removed by zeroing keys and values before the transform, as the paper does, since masked positions do not exist in the frequency domain; the softmax runs over the key axis in both heads
# looks-like: ATT002, ATT003, ATT004, ATT007
# source: https://github.com/cscribano/DCT-Former-Public https://github.com/cscribano/DCT-Former-Public/commit/f6b804af270922289fef2fa5e273759da9814638 models/attention/multihead_attention.py
import torch
from torch import nn

from heads import DenseHead, SpectralHead
from settings import AttnSettings

HEADS = {"DenseHead": DenseHead, "SpectralHead": SpectralHead}


class MultiHeadAttention(nn.Module):
    def __init__(self, cfg: AttnSettings, kv_dim: int = None):
        super().__init__()
        self.n_heads = cfg.n_heads
        self.head_dim = cfg.head_dim
        self.inner = cfg.n_heads * cfg.head_dim
        kv_dim = kv_dim or cfg.emb_dim
        self.to_q = nn.Linear(cfg.emb_dim, self.inner)
        self.to_k = nn.Linear(kv_dim, self.inner)
        self.to_v = nn.Linear(kv_dim, self.inner)
        self.to_out = nn.Linear(self.inner, self.inner)
        self.head = HEADS[cfg.kind](cfg)

    def _split(self, t, bs):
        return t.reshape(bs, -1, self.n_heads, self.head_dim).transpose(1, 2)

    def forward(self, x, mask=None, memory=None):
        bs, dtype = x.shape[0], x.dtype
        src = x if memory is None else memory
        q = self._split(self.to_q(x), bs)
        k = self._split(self.to_k(src), bs)
        v = self._split(self.to_v(src), bs)
        with torch.autocast(device_type="cuda", enabled=False):
            out = self.head(q.float(), k.float(), v.float(), None if mask is None else mask.float())
        out = out.to(dtype).transpose(1, 2).reshape(bs, -1, self.inner)
        return self.to_out(out)
