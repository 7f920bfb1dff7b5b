import torch
import torch.nn as nn

from attn_head import CausalHead

block_size = 8
batch_size = 4
n_embd = 32
head_size = 16


class TinyModel(nn.Module):
    def __init__(self, vocab_size):
        super().__init__()
        self.tok = nn.Embedding(vocab_size, n_embd)
        self.pos = nn.Embedding(block_size, n_embd)
        self.sa = CausalHead(n_embd, head_size, block_size)
        self.lm_head = nn.Linear(head_size, vocab_size)

    def forward(self, idx):
        B, T = idx.shape
        x = self.tok(idx) + self.pos(torch.arange(T))
        return self.lm_head(self.sa(x))


if __name__ == "__main__":
    model = TinyModel(65)
    print(model(torch.zeros((batch_size, block_size), dtype=torch.long)).shape)
