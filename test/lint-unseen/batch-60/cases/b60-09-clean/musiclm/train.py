from dataclasses import dataclass

import torch
import torch.nn as nn
from torch.cuda.amp import GradScaler, autocast

from musiclm.model import TextLM


@dataclass
class Settings:
    n_layers: int = 6
    d_model: int = 128
    n_heads: int = 4
    max_len: int = 512
    block: int = 256
    steps_per_epoch: int = 100


def windows(data, batch, block, pad_id, device):
    starts = torch.randint(len(data) - block, (batch,))
    xs, ys = [], []
    for s in starts.tolist():
        x, y = data[s:s + block], data[s + 1:s + block + 1]
        short = block - len(y)
        if short > 0:  # only at the very end of the corpus: pad on the right
            x = torch.cat([x, x.new_full((block - len(x),), pad_id)])
            y = torch.cat([y, y.new_full((short,), pad_id)])
        xs.append(x)
        ys.append(y)
    return torch.stack(xs).to(device), torch.stack(ys).to(device)


def fit(model: TextLM, data, cfg: Settings, pad_id, vocab, device, epochs=20, batch=64):
    opt = torch.optim.Adam(model.parameters(), lr=3e-4)
    loss_fn = nn.CrossEntropyLoss(ignore_index=pad_id)
    scaler = GradScaler()
    for epoch in range(epochs):
        model.train()
        total = 0.0
        for _ in range(cfg.steps_per_epoch):
            x, y = windows(data, batch, cfg.block, pad_id, device)
            opt.zero_grad()
            with autocast():  # float16 forward pass
                loss = loss_fn(model(x).view(-1, vocab), y.view(-1))
            scaler.scale(loss).backward()
            scaler.unscale_(opt)
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            scaler.step(opt)
            scaler.update()
            total += loss.item()
        print(f"epoch {epoch + 1}: loss {total / cfg.steps_per_epoch:.4f}")


@torch.no_grad()
def sample(model, ids, cfg: Settings, n_new=50, temperature=1.0):
    model.eval()
    for _ in range(n_new):
        with autocast():
            logits = model(ids[:, -cfg.block:])
        nxt = torch.multinomial(torch.softmax(logits[:, -1, :].float() / temperature, dim=-1), 1)
        ids = torch.cat([ids, nxt], dim=1)
    return ids
