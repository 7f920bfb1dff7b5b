import torch.nn as nn

from chorale.utils import PAD, subsequent_mask


def train_epoch(model, loader, optimizer, device):
    criterion = nn.CrossEntropyLoss(ignore_index=PAD)
    model.train()
    total = 0.0
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        mask = subsequent_mask(x.size(1)).to(device)
        logits = model(x, attn_mask=mask)
        loss = criterion(logits.reshape(-1, logits.size(-1)), y.reshape(-1))
        optimizer.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        total += loss.item()
    return total / max(1, len(loader))
