import torch.nn as nn
import torch.nn.functional as F


class Attn(nn.Module):
    def __init__(self, hidden, heads, layer_idx):
        super().__init__()
        self.heads, self.layer_idx = heads, layer_idx
        self.qkv = nn.Linear(hidden, 3 * hidden)
        self.is_causal = True

    def forward(self, x, past_key_values=None):
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.heads, -1).permute(2, 0, 3, 1, 4)
        if past_key_values is not None:
            k, v = past_key_values.update(k, v, self.layer_idx)
        out = F.scaled_dot_product_attention(q, k, v, is_causal=self.is_causal and T > 1)
        return out.transpose(1, 2).reshape(B, T, C)
