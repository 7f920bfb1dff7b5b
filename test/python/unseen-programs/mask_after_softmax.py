# label: buggy
# why: the padding mask zeroes weights after the softmax, so rows with padding no longer sum to 1
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

PAD = 0


class AttentionPooling(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.q = nn.Linear(dim, dim)
        self.k = nn.Linear(dim, dim)
        self.v = nn.Linear(dim, dim)

    def forward(self, x, mask):
        # x: [B, T, D], mask: [B, T] with 1 for tokens, 0 for padding
        scores = self.q(x) @ self.k(x).transpose(1, 2) / math.sqrt(x.size(-1))
        attn = F.softmax(scores, dim=-1)
        attn = attn * mask.unsqueeze(1)  # expect: ATT006
        return attn @ self.v(x)


if __name__ == "__main__":
    torch.manual_seed(10)
    ids = torch.tensor([
        [12, 7, 33, 2, PAD, PAD],
        [4, 18, 9, 26, 31, PAD],
        [8, 3, PAD, PAD, PAD, PAD],
    ])
    emb = nn.Embedding(40, 24, padding_idx=PAD)
    pool = AttentionPooling(24)
    mask = (ids != PAD).float()
    out = pool(emb(ids), mask)
    sentence = out.sum(1) / mask.sum(1, keepdim=True)
    print(sentence.shape)
