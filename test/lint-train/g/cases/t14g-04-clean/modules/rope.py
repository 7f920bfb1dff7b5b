import torch
import torch.nn as nn


def rotate_half(x: torch.Tensor) -> torch.Tensor:
    half = x.size(-1) // 2
    return torch.cat([-x[..., half:], x[..., :half]], dim=-1)


class RotaryEmbedding(nn.Module):
    def __init__(self, head_dim: int, max_positions: int = 2048, base: float = 10000.0):
        super().__init__()
        half = head_dim // 2
        self.register_buffer("inv_freq", 1.0 / (base ** (torch.arange(0, half, dtype=torch.float32) / half)), persistent=False)

    def get_cos_sin(self, seq_len, device, dtype):
        pos = torch.arange(seq_len, device=device, dtype=dtype)
        freq = torch.outer(pos, self.inv_freq.to(dtype))
        emb = torch.cat([freq, freq], dim=-1)  # (seq_len, head_dim)
        return emb.cos(), emb.sin()

    def apply_rotary(self, q, k, cos, sin):
        # q, k: (B, heads, T, head_dim); cos, sin: (T, head_dim)
        return q * cos + rotate_half(q) * sin, k * cos + rotate_half(k) * sin
