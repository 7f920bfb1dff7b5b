# label: correct
# why: the scale defaults to 1/sqrt(HEAD_DIM) and the heads are HEAD_DIM wide
# tags: parameter-default
import math

import torch
import torch.nn as nn

HEAD_DIM = 16


def attend(q, k, v, mask=None, scale=1 / math.sqrt(HEAD_DIM)):
    logits = torch.einsum("bhqd,bhkd->bhqk", q, k) * scale
    if mask is not None:
        logits = logits.masked_fill(mask, float("-inf"))
    return torch.einsum("bhqk,bhkd->bhqd", logits.softmax(dim=-1), v)


class Mixer(nn.Module):
    def __init__(self, heads=4):
        super().__init__()
        self.heads = heads
        dim = heads * HEAD_DIM
        self.qkv = nn.Linear(dim, 3 * dim)
        self.out = nn.Linear(dim, dim)

    def forward(self, x, pad):
        b, n, _ = x.shape
        q, k, v = self.qkv(x).view(b, n, 3, self.heads, HEAD_DIM).permute(2, 0, 3, 1, 4)
        y = attend(q, k, v, mask=pad[:, None, None, :])
        return self.out(y.permute(0, 2, 1, 3).reshape(b, n, -1))


if __name__ == "__main__":
    torch.manual_seed(41)
    ids = torch.tensor([[3, 1, 4, 1, 5, 0], [9, 2, 6, 5, 3, 5]])
    emb = nn.Embedding(10, 64, padding_idx=0)
    print(Mixer()(emb(ids), ids == 0).shape)
