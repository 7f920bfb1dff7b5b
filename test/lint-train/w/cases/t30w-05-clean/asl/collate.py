"""Batching of variable-length landmark sequences (isolated sign language clips)."""
import torch
import torch.nn.functional as F

from asl.ext_att_mask import get_extended_attention_mask


def collate_fn(items):
    # every item: xyz (frames, 543, 3) and frame_positions = [1, 2, ..., frames + 1] (1 is the CLS slot)
    max_frames = max(x["xyz"].shape[0] for x in items)
    max_pos = max(x["frame_positions"].shape[0] for x in items)
    xyz = torch.stack([F.pad(x["xyz"], (0, 0, 0, 0, 0, max_frames - x["xyz"].shape[0])) for x in items])
    positions = torch.stack([F.pad(x["frame_positions"], (0, max_pos - x["frame_positions"].shape[0]))
                             for x in items])  # 0 = padding
    return {
        "xyz": xyz,
        "frame_positions": positions,
        # (B, S) additive: 0 on the CLS slot and real frames, float32 min on padding
        "frame_att_mask": get_extended_attention_mask(positions != 0, dtype=xyz.dtype).squeeze(1).squeeze(1),
        "target": torch.cat([x["target"] for x in items]),
    }
