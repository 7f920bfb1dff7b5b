"""Training loop with automatic mixed precision: the forward pass runs under float16 autocast."""
import torch

from rc.bidaf import AttentionFlow


def train(model: AttentionFlow, batches, optimizer, loss_fn, device="cuda"):
    scaler = torch.cuda.amp.GradScaler()
    model.to(device).train()
    for passage, question, passage_mask, question_mask, target in batches:
        optimizer.zero_grad()
        with torch.autocast(device_type="cuda", dtype=torch.float16):
            merged = model(passage.to(device), question.to(device), passage_mask.to(device), question_mask.to(device))
            loss = loss_fn(merged, target.to(device))
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()
