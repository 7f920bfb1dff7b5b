import torch
import torch.nn as nn


class IncrementalDecoder(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.attn = nn.MultiheadAttention(d, h, batch_first=True)

    @torch.no_grad()
    def step(self, x_t, history):
        # x_t: (B, 1, d) the newest token; history: (B, P, d) earlier tokens (inputs, not projected)
        keys = torch.cat([history, x_t], dim=1)
        out, _ = self.attn(x_t, keys, keys, need_weights=False)  # one query: every earlier key is in its past
        return out, keys
