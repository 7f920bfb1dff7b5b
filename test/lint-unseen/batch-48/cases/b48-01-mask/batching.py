from typing import Dict, List

import torch


def pad_token_batch(samples: List[Dict[str, torch.Tensor]]) -> Dict[str, torch.Tensor]:
    """Pads per-stream codebook indices of a batch of clips to the longest clip."""
    streams = [name for name in samples[0] if name not in ("count", "gloss")]
    counts = torch.stack([s["count"] for s in samples])
    longest = int(counts.max())

    out = {name: torch.zeros(len(samples), longest, dtype=torch.long) for name in streams}
    for row, s in enumerate(samples):
        n = int(s["count"])
        for name in streams:
            out[name][row, :n] = s[name]

    # True where a position holds a real token, False on the padding
    valid = torch.arange(longest)[None, :] < counts[:, None]
    out["valid"] = valid
    out["count"] = counts
    if "gloss" in samples[0]:
        out["gloss"] = torch.stack([s["gloss"] for s in samples])
    return out
