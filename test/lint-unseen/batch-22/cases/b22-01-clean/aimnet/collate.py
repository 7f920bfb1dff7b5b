from typing import Dict, List

import torch


def collate_ticks(batch: List[Dict[str, torch.Tensor]]) -> Dict[str, torch.Tensor]:
    """Pads variable-length tick windows into one batch.

    Returns features (B, T_max, F) and attention_mask (B, T_max): True for real ticks,
    False for padding.
    """
    lengths = [int(sample["length"]) for sample in batch]
    t_max = max(lengths)
    n_feat = batch[0]["features"].shape[-1]

    features = torch.zeros((len(batch), t_max, n_feat), dtype=torch.float32)
    attention_mask = torch.zeros((len(batch), t_max), dtype=torch.bool)
    labels = torch.zeros((len(batch), 1), dtype=torch.float32)

    for i, sample in enumerate(batch):
        n = lengths[i]
        features[i, :n] = sample["features"]
        attention_mask[i, :n] = True
        labels[i, 0] = sample["label"]

    return {"features": features, "attention_mask": attention_mask, "labels": labels}
