import torch


def lens_to_mask(t, length=None):
    """t: (b,) lengths -> (b, n) bool, True inside the length."""
    if length is None:
        length = t.amax()
    seq = torch.arange(length, device=t.device)
    return seq[None, :] < t[:, None]


def apply_rotary_pos_emb(x, freqs):
    # x: (b, h, n, d); freqs: (n, d)
    x1, x2 = x.chunk(2, dim=-1)
    rotated = torch.cat((-x2, x1), dim=-1)
    return x * freqs.cos() + rotated * freqs.sin()
