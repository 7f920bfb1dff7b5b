import torch
import torch.nn as nn
import torch.nn.functional as F


class DecoderAttention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)

    def forward(self, x, layer_past=None, use_cache=False):
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.heads, -1).permute(2, 0, 3, 1, 4)
        if layer_past is not None:
            k = torch.cat((layer_past[0], k), dim=-2)
            v = torch.cat((layer_past[1], v), dim=-2)
        present = (k, v) if use_cache else None
        # first call: no past, the prompt is causal; later calls: one token sees all
        y = F.scaled_dot_product_attention(q, k, v, is_causal=layer_past is None)
        return y.transpose(1, 2).reshape(B, T, C), present
