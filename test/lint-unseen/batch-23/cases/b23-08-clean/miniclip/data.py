from typing import Any, Dict, List

import torch

PAD_ID = 0


def collate_captions(batch: List[Dict[str, Any]]) -> Dict[str, Any]:
    """Right-pads the caption tokens with PAD_ID and returns each caption's true length."""
    batch = sorted(batch, key=lambda b: b["length"], reverse=True)
    images = torch.stack([b["image"] for b in batch], dim=0)
    lengths = torch.tensor([b["length"] for b in batch], dtype=torch.long)
    tokens = torch.full((len(batch), int(lengths.max())), fill_value=PAD_ID, dtype=torch.long)
    for i, b in enumerate(batch):
        tokens[i, : b["tokens"].size(0)] = b["tokens"]
    return {"images": images, "tokens": tokens, "lengths": lengths}
