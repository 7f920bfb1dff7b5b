import torch
from net import CrossAttention

model = CrossAttention(512).to(device="cuda", dtype=torch.bfloat16)
opt = torch.optim.AdamW(model.parameters())


def step(x, ctx, keep):
    with torch.autocast("cuda", dtype=torch.bfloat16):
        loss = model(x, ctx, keep).float().pow(2).mean()
    loss.backward()
    opt.step()
