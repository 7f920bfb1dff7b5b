import torch
from accelerate import Accelerator
from attention import Attention

accelerator = Accelerator(mixed_precision="bf16")
model = Attention(512, 8)
opt = torch.optim.AdamW(model.parameters())
model, opt = accelerator.prepare(model, opt)


def step(x, pad):
    loss = model(x, pad).pow(2).mean()
    accelerator.backward(loss)
    opt.step()
