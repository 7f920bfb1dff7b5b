import torch.nn.functional as F
from torch import nn

from local_attention import WindowedGQA


class Layer(nn.Module):
    """Pre-norm decoder layer; every size comes from the model config dict."""

    def __init__(self, cfg):
        super().__init__()
        width, heads, context = cfg["d_model"], cfg["n_head"], cfg["max_seq_len"]
        p = cfg.get("dropout", 0.0)
        self.attn = WindowedGQA(
            width=width,
            heads=heads,
            kv_heads=cfg.get("n_kv_head", heads),
            window=cfg.get("window_size", context),
            context=context,
            p_drop=p,
        )
        inner = int(width * cfg.get("mlp_ratio", 2.5))
        self.gate = nn.Linear(width, inner, bias=False)
        self.up = nn.Linear(width, inner, bias=False)
        self.down = nn.Linear(inner, width, bias=False)
        self.norm_attn = nn.RMSNorm(width)
        self.norm_ffn = nn.RMSNorm(width)
        self.drop = nn.Dropout(p)

    def forward(self, x, freqs):
        x = x + self.attn(self.norm_attn(x), freqs)
        h = self.norm_ffn(x)
        return x + self.drop(self.down(F.silu(self.gate(h)) * self.up(h)))
