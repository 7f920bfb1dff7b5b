import torch

from attention import MultiHeadedAttention


def get_config():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    return {"device": device, "use_amp": device.type == "cuda", "d_model": 512, "heads": 8}


def train_one_epoch(model, loader, criterion, optimizer, config):
    device, use_amp = config["device"], config["use_amp"]
    scaler = torch.cuda.amp.GradScaler(enabled=use_amp)
    model.train()
    for src, tgt, src_mask, tgt_mask, labels in loader:
        src, tgt, labels = src.to(device), tgt.to(device), labels.to(device)
        src_mask, tgt_mask = src_mask.to(device), tgt_mask.to(device)
        optimizer.zero_grad(set_to_none=True)
        with torch.cuda.amp.autocast(enabled=(use_amp and device.type == "cuda")):
            logits = model(src, tgt, src_mask, tgt_mask)
            loss = criterion(logits.reshape(-1, logits.size(-1)), labels.reshape(-1))
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()
