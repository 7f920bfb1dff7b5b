from typing import Dict, List

import torch


def pad_batch(items: List[Dict[str, torch.Tensor]], pad_id: int) -> Dict[str, torch.Tensor]:
    """Right-pads variable-length chunks to the longest one in the batch."""
    longest = max(len(it["input_ids"]) for it in items)
    ids = torch.full((len(items), longest), pad_id, dtype=torch.long)
    labels = torch.full((len(items), longest), -100, dtype=torch.long)
    keep = torch.zeros((len(items), longest), dtype=torch.long)
    for row, it in enumerate(items):
        n = len(it["input_ids"])
        ids[row, :n] = it["input_ids"]
        labels[row, :n] = it["labels"]
        keep[row, :n] = 1
    return {"input_ids": ids, "labels": labels, "attention_mask": keep}


def train_steps(model, loader, optimizer):
    model.train()
    for batch in loader:
        _, loss = model(batch["input_ids"], attention_mask=batch["attention_mask"], labels=batch["labels"])
        loss.backward()
        optimizer.step(), optimizer.zero_grad(set_to_none=True)
