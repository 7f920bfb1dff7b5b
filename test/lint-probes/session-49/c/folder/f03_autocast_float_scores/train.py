import torch
from torch.cuda.amp import GradScaler, autocast
from attention import Attention


def fit(batches, steps=100):
    model = Attention(256, 8).cuda()
    opt = torch.optim.AdamW(model.parameters(), lr=3e-4)
    scaler = GradScaler()
    for x, pad_mask in batches:
        with autocast(dtype=torch.float16):
            loss = model(x.cuda(), pad_mask.cuda()).pow(2).mean()
        scaler.scale(loss).backward()
        scaler.step(opt)
        scaler.update()
        opt.zero_grad()
