import math

import torch


def chunk_attention_bias(frames: int, chunk: int, history_chunks: int, device: torch.device) -> torch.Tensor:
    """Additive (frames, frames) bias for nn.MultiheadAttention's attn_mask.

    0.0 where a frame may look, -inf where it may not. A frame in chunk c sees every frame
    of chunks c - history_chunks .. c, including the later frames of its own chunk (the
    look-ahead a chunked streaming encoder allows), and nothing after its chunk.
    """
    chunk = max(1, int(chunk))
    history_chunks = max(0, int(history_chunks))
    blocked = torch.ones(frames, frames, dtype=torch.bool, device=device)
    for t in range(frames):
        c = t // chunk
        first = max(0, (c - history_chunks) * chunk)
        stop = min(frames, (c + 1) * chunk)
        blocked[t, first:stop] = False
    bias = torch.zeros(frames, frames, device=device)
    return bias.masked_fill(blocked, float("-inf"))


def chunk_frames(chunk_seconds: float, hop_seconds: float, subsampling: int) -> int:
    raw = math.ceil(chunk_seconds / hop_seconds)
    return max(1, math.ceil(raw / subsampling))
