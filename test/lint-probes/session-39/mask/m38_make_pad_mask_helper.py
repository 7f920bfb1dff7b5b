import torch


def make_pad_mask(lengths, max_len):
    """(B,) -> (B, max_len) bool, True at padded frames (ESPnet convention)."""
    seq = torch.arange(max_len, device=lengths.device)
    return seq[None, :] >= lengths[:, None]


def attention(q, k, v, lengths):
    # q, k, v: (B, H, T, D)
    T = k.size(-2)
    s = torch.matmul(q, k.transpose(-2, -1)) / q.size(-1) ** 0.5
    s = s.masked_fill(make_pad_mask(lengths, T)[:, None, None, :], float("-inf"))
    return torch.matmul(s.softmax(-1), v)
