import torch
from torch.utils.data import DataLoader

from .collate import collate_ticks
from .model import AimTransformer


def evaluate(dataset, device="cpu"):
    model = AimTransformer().to(device).eval()
    loader = DataLoader(dataset, batch_size=32, collate_fn=collate_ticks)
    probs = []
    with torch.no_grad():
        for batch in loader:
            prob, _ = model(batch["features"].to(device), attention_mask=batch["attention_mask"].to(device))
            probs.append(prob.cpu())
    return torch.cat(probs)
