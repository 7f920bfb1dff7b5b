# case: scale-flash-softmax-scale-passed
# modelled-on: mosaicml/examples https://github.com/mosaicml/examples/pull/209
# label: correct
# pattern: a configurable softmax scale (muP's 1/head_dim when set) stored on the module and handed to flash_attn_func as softmax_scale=, with the queries left unscaled
# why: the kernel uses exactly the configured scale; the default 1/sqrt(head_dim) only applies when the config leaves it unset (softmax_scale=None)
# looks-like: ATT004, ATT003
import torch.nn as nn
from flash_attn import flash_attn_func


class FlashSelfAttention(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.d_model = cfg.d_model
        self.n_heads = cfg.n_heads
        self.head_dim = self.d_model // self.n_heads
        self.softmax_scale = cfg.get("softmax_scale")
        self.Wqkv = nn.Linear(self.d_model, 3 * self.d_model)
        self.out_proj = nn.Linear(self.d_model, self.d_model)

    def forward(self, x):
        B, S, _ = x.shape
        qkv = self.Wqkv(x).view(B, S, 3, self.n_heads, self.head_dim)
        q, k, v = qkv.unbind(dim=2)  # (B, S, H, hd)
        out = flash_attn_func(q, k, v, softmax_scale=self.softmax_scale, causal=True)
        return self.out_proj(out.reshape(B, S, self.d_model))
