"""Training loop: the forward pass runs under CUDA autocast (float16) and the loss goes through a GradScaler."""
import torch
from torch import nn

DEVICE = torch.device("cuda" if torch.cuda.is_available() else "cpu")


def train_epoch(model: nn.Module, loader, optimizer, lr_scheduler, pad_id: int) -> float:
    criterion = nn.CrossEntropyLoss(ignore_index=pad_id)
    scaler = torch.cuda.amp.GradScaler()
    model.train()
    total = 0.0
    for batch in loader:
        src = batch["source"].to(DEVICE)
        tgt_in = batch["target_input"].to(DEVICE)
        tgt_out = batch["target_output"].to(DEVICE)
        src_keep = (src != pad_id).int()
        tgt_keep = (tgt_in != pad_id).int()

        optimizer.zero_grad()
        with torch.cuda.amp.autocast():
            logits = model(src, tgt_in, encoder_keep=src_keep, decoder_keep=tgt_keep)
            loss = criterion(logits.reshape(-1, logits.size(-1)), tgt_out.reshape(-1))
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()
        lr_scheduler.step()
        total += loss.item()
    return total / max(len(loader), 1)
