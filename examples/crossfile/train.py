"""Mixed-precision training loop: float16 autocast with a GradScaler.

Running the model in float16 here is what makes model.py's -1e9 fill overflow (ATT007 in model.py names this
file), and the masks this loop passes from data.collate decide ATT002 at the encoder's key_padding_mask.
"""

import torch
from torch.utils.data import DataLoader

from data import collate, toy_dataset
from model import CausalSelfAttention, Encoder


def train():
    encoder = Encoder(vocab=1000)
    block = CausalSelfAttention()
    encoder.cuda()
    block.cuda()
    params = list(encoder.parameters()) + list(block.parameters())
    opt = torch.optim.AdamW(params, lr=3e-4)
    scaler = torch.cuda.amp.GradScaler()
    loader = DataLoader(toy_dataset(), batch_size=8, shuffle=True, collate_fn=collate)
    for ids, mask in loader:
        with torch.autocast("cuda", dtype=torch.float16):
            h = encoder(ids.cuda(), mask.cuda())
            loss = block(h).pow(2).mean()
        opt.zero_grad()
        scaler.scale(loss).backward()
        scaler.step(opt)
        scaler.update()


if __name__ == "__main__":
    train()
