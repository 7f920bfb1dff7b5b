# case: b60-05-clean
# modelled-on: AD6767/mnist-vit-from-scratch https://github.com/AD6767/mnist-vit-from-scratch/commit/988defc91bd436852df4d33e1d2d72c68e4fe99a
# label: correct
# class: clean
# pattern: a tiny MNIST Vision Transformer whose sizes all come from a settings module in another file (a folder: width 20 and 4 heads, so 5 per head, 16 patches plus a class token); each pre-norm encoder block calls nn.MultiheadAttention(batch_first=True) on (x, x, x) with no mask and keeps only the output, and the class token goes to a linear head
# why: correct: nn.MultiheadAttention splits the width into heads and scales by the per-head width itself, so no explicit 1/sqrt(d) is missing; the inputs are (B, tokens, width) as batch_first expects; an image encoder needs no mask; the settings give a width divisible by the head count
# looks-like: ATT003, ATT004
# source: https://github.com/AD6767/mnist-vit-from-scratch https://github.com/AD6767/mnist-vit-from-scratch/commit/988defc91bd436852df4d33e1d2d72c68e4fe99a models/vit.py
import torch
import torch.nn as nn

from settings import CHANNELS, CLASSES, DEPTH, HEADS, MLP_HIDDEN, N_PATCHES, PATCH, WIDTH


class PatchTokens(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(CHANNELS, WIDTH, kernel_size=PATCH, stride=PATCH)

    def forward(self, images):
        grid = self.conv(images)                 # (B, WIDTH, 4, 4)
        return grid.flatten(2).transpose(1, 2)   # (B, 16, WIDTH)


class EncoderBlock(nn.Module):
    def __init__(self):
        super().__init__()
        self.pre_attn = nn.LayerNorm(WIDTH)
        self.mha = nn.MultiheadAttention(embed_dim=WIDTH, num_heads=HEADS, batch_first=True)
        self.pre_mlp = nn.LayerNorm(WIDTH)
        self.mlp = nn.Sequential(nn.Linear(WIDTH, MLP_HIDDEN), nn.GELU(), nn.Linear(MLP_HIDDEN, WIDTH))

    def forward(self, x):
        h = self.pre_attn(x)
        attended, _ = self.mha(h, h, h)
        x = x + attended
        return x + self.mlp(self.pre_mlp(x))


class DigitViT(nn.Module):
    def __init__(self):
        super().__init__()
        self.tokens = PatchTokens()
        self.cls = nn.Parameter(torch.randn(1, 1, WIDTH))
        self.pos = nn.Parameter(torch.randn(1, N_PATCHES + 1, WIDTH))
        self.blocks = nn.Sequential(*[EncoderBlock() for _ in range(DEPTH)])
        self.head = nn.Sequential(nn.LayerNorm(WIDTH), nn.Linear(WIDTH, CLASSES))

    def forward(self, images):
        x = self.tokens(images)
        # batch size from the tensor: the last batch may be smaller than BATCH
        cls = self.cls.expand(x.shape[0], -1, -1)
        x = torch.cat((cls, x), dim=1) + self.pos
        x = self.blocks(x)
        return self.head(x[:, 0])
