# case: b11-02-clean
# modelled-on: MenghaoGuo/EANet https://github.com/MenghaoGuo/EANet/commit/59c03cb0a286d3a29a797f8ea07fb89d7af56b60
# label: correct
# class: clean
# pattern: external attention ("double normalisation"): tokens against a small learned memory (two linear layers, no keys, no scale); in the multi-head token form the (B, H, N, S) memory scores are softmaxed over the token axis (dim=-2) and then l1-normalised over the memory slots (dim=-1); the convolutional form in another module softmaxes (b, S, n) over the pixels (dim=-1) and l1-normalises over the slots (dim=1)
# why: correct: the paper's double normalisation softmaxes over the tokens / pixels first and then normalises each token's weights over the memory slots; neither form is query-key attention, so there is no scale to apply and no key transpose; what a naive linter could misread: ATT001 (softmax over dim=-2 of a 4-D attention tensor, and over dim=-1 where the slots are on dim 1), ATT003 (no scale before the softmax)
# looks-like: ATT001, ATT003
# source: https://github.com/MenghaoGuo/EANet https://github.com/MenghaoGuo/EANet/commit/59c03cb0a286d3a29a797f8ea07fb89d7af56b60 multi_head_attention_torch.py
import torch
import torch.nn as nn

from external import MemoryAttention2d


class MemoryAttention(nn.Module):
    def __init__(self, dim, heads=8, expand=4, memory=256, drop=0.0):
        super().__init__()
        assert dim % heads == 0
        self.expand = expand
        self.widen = nn.Linear(dim, dim * expand)
        self.heads = heads * expand
        self.slots = memory // expand
        self.mem_k = nn.Linear(dim * expand // self.heads, self.slots)
        self.mem_v = nn.Linear(self.slots, dim * expand // self.heads)
        self.drop = nn.Dropout(drop)
        self.proj = nn.Linear(dim * expand, dim)

    def forward(self, x):
        B, N, C = x.shape
        x = self.widen(x)
        x = x.view(B, N, self.heads, -1).permute(0, 2, 1, 3)  # (B, H, N, d)
        att = self.mem_k(x)  # (B, H, N, S)
        att = att.softmax(dim=-2)  # over the N tokens
        att = att / (1e-9 + att.sum(dim=-1, keepdim=True))  # each token's weights over the S slots
        att = self.drop(att)
        x = self.mem_v(att).permute(0, 2, 1, 3).reshape(B, N, -1)
        return self.proj(x)


class HybridStage(nn.Module):
    def __init__(self, channels, dim):
        super().__init__()
        self.conv_att = MemoryAttention2d(channels)
        self.embed = nn.Conv2d(channels, dim, 1)
        self.token_att = MemoryAttention(dim)
        self.norm = nn.LayerNorm(dim)

    def forward(self, img):
        y = self.conv_att(img)
        tokens = self.embed(y).flatten(2).transpose(1, 2)  # (B, N, dim)
        return tokens + self.token_att(self.norm(tokens))


if __name__ == "__main__":
    stage = HybridStage(32, 64)
    print(stage(torch.randn(2, 32, 8, 8)).shape)
