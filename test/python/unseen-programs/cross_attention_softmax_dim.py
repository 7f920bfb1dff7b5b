# label: buggy
# why: decoder cross-attention scores are [B, heads, T_tgt, S_src]; softmax over dim 2 normalises the target queries
import torch
import torch.nn as nn
import torch.nn.functional as F


class CrossAttention(nn.Module):
    def __init__(self, d_model=32, n_heads=2):
        super().__init__()
        self.n_heads = n_heads
        self.d_head = d_model // n_heads
        self.q = nn.Linear(d_model, d_model)
        self.kv = nn.Linear(d_model, 2 * d_model)
        self.o = nn.Linear(d_model, d_model)

    def forward(self, tgt, memory):
        B, T, D = tgt.shape
        S = memory.size(1)
        q = self.q(tgt).view(B, T, self.n_heads, self.d_head).transpose(1, 2)
        k, v = self.kv(memory).view(B, S, 2, self.n_heads, self.d_head).permute(2, 0, 3, 1, 4)
        logits = torch.matmul(q, k.transpose(2, 3)) * self.d_head ** -0.5
        weights = F.softmax(logits, dim=2)  # expect: ATT001
        ctx = torch.matmul(weights, v)
        return self.o(ctx.transpose(1, 2).reshape(B, T, D))


if __name__ == "__main__":
    torch.manual_seed(28)
    src_encoder = nn.GRU(32, 32, batch_first=True)
    memory, _ = src_encoder(torch.randn(2, 13, 32))
    tgt = torch.randn(2, 5, 32)
    xattn = CrossAttention()
    print(xattn(tgt, memory).shape)
