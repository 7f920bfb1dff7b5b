import torch
import torch.nn as nn


class WindowMask(nn.Module):
    """Additive mask (0 = visible, -inf = hidden) for causal sliding-window attention over a cached key window."""

    def __init__(self, sliding_window: int):
        super().__init__()
        self.sliding_window = sliding_window

    def build(self, batch, q_len, kv_len, offset, pad_bias=None, device=None, dtype=None):
        q_pos = (offset + torch.arange(q_len, device=device)).unsqueeze(-1)  # absolute query positions, (q, 1)
        oldest = q_pos - self.sliding_window + 1
        k_start = offset + q_len - kv_len  # the window holds the most recent kv_len positions
        k_pos = (k_start + torch.arange(kv_len, device=device)).unsqueeze(0)  # (1, kv)
        hidden = (k_pos < oldest) | (k_pos > q_pos)
        mask = torch.where(
            hidden,
            torch.tensor(float("-inf"), device=device, dtype=dtype),
            torch.tensor(0.0, device=device, dtype=dtype),
        )[None, None]  # (1, 1, q, kv)
        if batch > 1:
            mask = mask.expand(batch, 1, q_len, kv_len)
        if pad_bias is not None:  # additive padding bias, -inf on padded keys
            mask = mask + pad_bias[..., -kv_len:]
        return mask
