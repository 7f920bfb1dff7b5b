import json
from pathlib import Path

import numpy as np
import torch

SLOTS = ("binding_mode", "pathway", "selectivity", "resistance")


def load_family_profiles(cache_file: Path, n_families: int, encoder, device="cpu"):
    """Reads cached per-family mechanism summaries and encodes them.

    Returns profiles (F, 4, text_dim) and coverage (F, 4): 1.0 where the slot has a summary,
    0.0 where the cache said "None" (the profile row is zeroed there as well).
    """
    data = json.loads(Path(cache_file).read_text(encoding="utf-8"))
    if int(data.get("nFamilies", -1)) != n_families:
        raise SystemExit(f"{cache_file.name}: family count differs from the current split")
    coverage = np.zeros((n_families, len(SLOTS)), dtype=np.float32)
    texts = []
    for fam in range(n_families):
        record = data["families"].get(str(fam))
        if not record:
            raise SystemExit(f"{cache_file.name}: family {fam} missing")
        accepted = (record.get("qc") or {}).get("acceptedProfiles", {})
        row = []
        for slot_idx, slot in enumerate(SLOTS):
            text = str((accepted.get(slot) or {}).get("summary", "None"))
            row.append(text)
            if text.strip().lower() not in ("", "none"):
                coverage[fam, slot_idx] = 1.0
        texts.append(row)
    flat = [t for row in texts for t in row]
    enc = encoder.encode(flat).reshape(n_families, len(SLOTS), -1).astype(np.float32)
    enc = enc * coverage[:, :, None]
    return (
        torch.from_numpy(enc).to(device),
        torch.from_numpy(coverage).to(device),
    )
