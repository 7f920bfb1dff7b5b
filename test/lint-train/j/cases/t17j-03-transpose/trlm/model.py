import torch
import torch.nn as nn

from trlm.self_attention import SelfAttention


def sinusoid_positions(context_length, dim, base=10000, device="cpu"):
    table = torch.zeros(context_length, dim, device=device)
    for pos in range(context_length):
        for i in range(dim // 2):
            table[pos, 2 * i] = torch.sin(torch.tensor(pos / (base ** (2 * i / dim))))
            table[pos, 2 * i + 1] = torch.cos(torch.tensor(pos / (base ** (2 * i / dim))))
    return table.unsqueeze(0)  # (1, context_length, dim): a batch axis is added


class TinyLM(nn.Module):
    def __init__(self, vocab_size, embedding_dim, device="cpu"):
        super().__init__()
        self.device = device
        self.embedding = nn.Embedding(vocab_size, embedding_dim)
        self.attention = SelfAttention(embedding_dim, embedding_dim)

    def forward(self, token_ids):
        x = self.embedding(torch.tensor(token_ids, device=self.device))
        x = x + sinusoid_positions(x.shape[0], x.shape[-1], device=self.device)
        return self.attention(x)
