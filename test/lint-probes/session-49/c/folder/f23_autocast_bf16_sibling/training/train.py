import torch
from model.attention import Attention


def train(loader, steps):
    net = Attention(256, 8).cuda()
    opt = torch.optim.AdamW(net.parameters(), lr=1e-4)
    for x, pad in loader:
        with torch.autocast("cuda", dtype=torch.bfloat16):
            loss = net(x.cuda(), pad.cuda()).float().pow(2).mean()
        loss.backward()
        opt.step()
        opt.zero_grad()
