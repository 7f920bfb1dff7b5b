import torch

from masks import src_allow_mask, tgt_allow_mask


def train_step(model, batch, optimizer, loss_fn, pad_id, device="cuda"):
    src, tgt = batch["src"].to(device), batch["tgt"].to(device)
    tgt_x, tgt_y = tgt[:, :-1], tgt[:, 1:]
    src_mask = src_allow_mask(src, pad_id)
    tgt_mask = tgt_allow_mask(tgt_x, pad_id)
    with torch.autocast(device_type=device, dtype=torch.bfloat16, enabled=False):
        logits = model(src, tgt_x, src_mask, tgt_mask)
        loss = loss_fn(logits.reshape(-1, logits.size(-1)), tgt_y.reshape(-1))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()
