"""Padding variable-size note sets into one batch."""

import torch


def pad_note_sets(samples: list[dict[str, torch.Tensor]]) -> dict[str, torch.Tensor]:
    """Stack note sets of different sizes; `present` marks the real notes of each set."""
    sizes = [int(s["n_notes"].item()) for s in samples]
    widest = max(sizes)
    n_feat = samples[0]["notes"].shape[-1]

    notes = torch.zeros(len(samples), widest, n_feat)
    targets = torch.zeros(len(samples), dtype=torch.long)
    present = torch.zeros(len(samples), widest, dtype=torch.bool)

    for row, (sample, size) in enumerate(zip(samples, sizes)):
        notes[row, :size] = sample["notes"]
        targets[row] = sample["target"]
        present[row, :size] = True  # True = a real note, False = padding

    return {"notes": notes, "targets": targets, "present": present, "sizes": torch.tensor(sizes)}
