"""Turns the padded map tensors of a scene into segment tokens and padding masks."""
import torch
import torch.nn.functional as F


def agent_is_padding(tracks: torch.Tensor) -> torch.Tensor:
    """tracks: (B, A, T, F). A slot whose latest state is all zeros holds no agent."""
    latest = tracks[:, :, -1]
    return latest.abs().sum(dim=-1) == 0


def segment_tokens(points: torch.Tensor, encoded: torch.Tensor, seg: int = 10):
    """Max-pool encoded map points into segments of `seg` points.

    points:  (B, E, P, C) raw polyline points of one target's local map; zero rows are padding
    encoded: (B, E, P, D) per-point features
    Returns (B, E * P // seg, D) tokens and a (B, E * P // seg) bool tensor that is True
    where the segment contains padding, which is what nn.MultiheadAttention expects
    for key_padding_mask / src_key_padding_mask.
    """
    b, e, p, d = encoded.shape
    n_seg = p // seg
    pooled = F.max_pool2d(encoded.permute(0, 3, 1, 2), kernel_size=(1, seg))
    tokens = pooled.permute(0, 2, 3, 1).reshape(b, e * n_seg, d)
    empty_point = torch.eq(points[..., 0], 0)
    empty_segment = empty_point.reshape(b, e, n_seg, seg).any(dim=-1)
    return tokens, empty_segment.reshape(b, e * n_seg)
