import torch
from attention import Attention

USE_AMP = True

model = Attention(256, 4).cuda()
scaler = torch.cuda.amp.GradScaler(enabled=USE_AMP)
opt = torch.optim.SGD(model.parameters(), lr=0.1)


def step(x, pad):
    with torch.autocast("cuda", enabled=USE_AMP):
        loss = model(x, pad).pow(2).mean()
    scaler.scale(loss).backward()
    scaler.step(opt)
    scaler.update()
