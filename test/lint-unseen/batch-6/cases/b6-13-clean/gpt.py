import torch
from torch import nn

from attention import MultiHeadAttention


class DecoderBlock(nn.Module):
    def __init__(self, d_model, num_heads, num_kv_heads):
        super().__init__()
        self.norm1 = nn.LayerNorm(d_model)
        self.attn = MultiHeadAttention(d_model, num_heads, num_kv_heads)
        self.norm2 = nn.LayerNorm(d_model)
        self.ff = nn.Sequential(nn.Linear(d_model, 4 * d_model), nn.GELU(), nn.Linear(4 * d_model, d_model))

    def forward(self, x, past_kv=None, cache_len=0, use_cache=False):
        out = self.attn(self.norm1(x), is_causal=True, past_kv=past_kv, cache_len=cache_len, use_cache=use_cache)
        if use_cache:
            out, kv = out
        x = x + out
        x = x + self.ff(self.norm2(x))
        return (x, kv) if use_cache else x


@torch.no_grad()
def generate(embed, blocks, head, prompt, steps):
    past = [None] * len(blocks)
    x, cache_len, out = embed(prompt), 0, prompt
    for _ in range(steps):
        for i, block in enumerate(blocks):
            x, past[i] = block(x, past_kv=past[i], cache_len=cache_len, use_cache=True)
        cache_len = past[0][0].shape[2]
        nxt = head(x[:, -1:]).argmax(-1)
        out = torch.cat([out, nxt], dim=1)
        x = embed(nxt)
    return out
