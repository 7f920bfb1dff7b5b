import torch
from attn import StableAttention

model = StableAttention(512, 8).cuda()
scaler = torch.cuda.amp.GradScaler()
opt = torch.optim.Adam(model.parameters())


def step(x, key_pad):
    with torch.autocast("cuda", dtype=torch.float16):
        loss = model(x, key_pad).square().mean()
    scaler.scale(loss).backward()
    scaler.step(opt)
    scaler.update()
