import torch


def segments_to_positions(segments: torch.Tensor) -> torch.Tensor:
    """Position of every token inside its own segment; PAD (segment 0) gets position 0."""
    starts = torch.ones_like(segments, dtype=torch.bool)
    starts[:, 1:] = segments[:, 1:] != segments[:, :-1]
    idx = torch.arange(segments.size(1), device=segments.device).expand_as(segments)
    seg_start = torch.where(starts, idx, torch.zeros_like(idx))
    seg_start = torch.cummax(seg_start, dim=1).values
    positions = idx - seg_start
    return positions.masked_fill(segments == 0, 0)


def train_positions_and_mask(segs, L_q, *, device):
    """segs: None or [B, L] long, 0 = PAD, 1/2/... = text id (packed documents).

    mask [B, L, L] bool: True only where query and key are both non-PAD and in the same
    document; a PAD query's whole row is False.
    """
    if segs is None:
        positions = torch.arange(0, L_q, dtype=torch.long, device=device).unsqueeze(0)
        return None, positions, None
    positions = segments_to_positions(segs)
    not_pad = segs != 0                                          # [B, L]
    pad_mask = not_pad.unsqueeze(-1) * not_pad.unsqueeze(-2)     # [B, L, L]
    same_doc = segs.unsqueeze(-1) == segs.unsqueeze(-2)          # [B, L, L]
    return segs, positions, pad_mask * same_doc


def prefill_positions_and_mask(segs, L_q, *, device):
    """Left-padded prompts: True where query and key are both non-PAD."""
    if segs is None:
        positions = torch.arange(0, L_q, dtype=torch.long, device=device).unsqueeze(0)
        return None, positions, None
    not_pad = segs != 0
    positions = segments_to_positions(not_pad.to(torch.long))
    return segs, positions, not_pad.unsqueeze(-1) * not_pad.unsqueeze(-2)
