# case: b24-04-clean
# modelled-on: mjub/transformer-from-scratch https://github.com/mjub/transformer-from-scratch/commit/ac3285fb3f257d87f60a333d9bd310be722a0b94
# label: correct
# class: clean
# pattern: grouped-query attention whose sizes come from a config dataclass in another module: one fused kv projection chunked in two, keys and values repeat_interleave'd from num_key_value_heads to num_attention_heads on dim=1, scores (q @ k.transpose(-2, -1)) * self.scale with self.scale = self.head_dim ** -0.5 set in __init__, a bool triu(diagonal=1) buffer of max_position_embeddings sliced [:T, :T] and filled with -torch.inf, softmax over dim=-1, and an optional callback that receives per-head weights
# why: correct: head_dim = hidden_size // num_attention_heads is the per-head width, so multiplying by head_dim ** -0.5 is 1/sqrt(d_k); the buffer is True strictly above the diagonal (future keys) and masked_fill fills True, so each query keeps itself and its past (no row fully masked, -inf is safe); repeat_interleave on the head axis makes each group of query heads share one key/value head, the GQA layout
# looks-like: ATT002, ATT004, ATT005, ATT007
# source: https://github.com/mjub/transformer-from-scratch https://github.com/mjub/transformer-from-scratch/commit/ac3285fb3f257d87f60a333d9bd310be722a0b94 src/model.py
import torch
import torch.nn as nn
import torch.nn.functional as F

from nlab.config import ModelConfig


class GQAttention(nn.Module):
    def __init__(self, config: ModelConfig):
        super().__init__()
        self.config = config
        self.head_dim = config.hidden_size // config.num_attention_heads
        self.groups = config.num_attention_heads // config.num_key_value_heads
        self.q_proj = nn.Linear(config.hidden_size, config.num_attention_heads * self.head_dim, bias=False)
        self.kv_proj = nn.Linear(config.hidden_size, 2 * config.num_key_value_heads * self.head_dim, bias=False)
        self.o_proj = nn.Linear(config.num_attention_heads * self.head_dim, config.hidden_size, bias=False)
        self.scale = self.head_dim**-0.5
        n = config.max_position_embeddings
        self.register_buffer("future", torch.triu(torch.ones(n, n, dtype=torch.bool), diagonal=1), persistent=False)
        self.attn_drop = nn.Dropout(config.dropout)
        self.resid_drop = nn.Dropout(config.dropout)

    def forward(self, x, layer=None, on_weights=None):
        B, T, _ = x.shape
        cfg = self.config
        q = self.q_proj(x).view(B, T, cfg.num_attention_heads, self.head_dim).transpose(1, 2)

        k, v = self.kv_proj(x).chunk(2, dim=-1)
        # (B, T, Hk * D) -> (B, Hk, T, D) -> (B, H, T, D)
        k = k.view(B, T, cfg.num_key_value_heads, self.head_dim).transpose(1, 2).repeat_interleave(self.groups, dim=1)
        v = v.view(B, T, cfg.num_key_value_heads, self.head_dim).transpose(1, 2).repeat_interleave(self.groups, dim=1)

        scores = (q @ k.transpose(-2, -1)) * self.scale
        scores = scores.masked_fill(self.future[:T, :T], -torch.inf)
        weights = F.softmax(scores, dim=-1)
        if layer is not None and on_weights is not None:
            snapshot = weights.detach().cpu().numpy()
            for h in range(cfg.num_attention_heads):
                on_weights(layer, h, snapshot[:, h])
        weights = self.attn_drop(weights)

        out = (weights @ v).transpose(1, 2).contiguous().view(B, T, cfg.num_attention_heads * self.head_dim)
        return self.resid_drop(self.o_proj(out))


class DecoderLayer(nn.Module):
    def __init__(self, config: ModelConfig):
        super().__init__()
        self.norm1 = nn.RMSNorm(config.hidden_size, eps=config.rms_norm_eps)
        self.attn = GQAttention(config)
        self.norm2 = nn.RMSNorm(config.hidden_size, eps=config.rms_norm_eps)
        self.mlp = nn.Sequential(
            nn.Linear(config.hidden_size, config.intermediate_size, bias=False),
            nn.SiLU(),
            nn.Linear(config.intermediate_size, config.hidden_size, bias=False),
        )

    def forward(self, x, layer=None, on_weights=None):
        x = x + self.attn(self.norm1(x), layer, on_weights)
        return x + self.mlp(self.norm2(x))
