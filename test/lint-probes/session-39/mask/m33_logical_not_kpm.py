import torch
import torch.nn as nn


class Reader(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.attn = nn.MultiheadAttention(d, 4, batch_first=True)

    def forward(self, query, memory, memory_lengths):
        # query: (B, L, d); memory: (B, S, d)
        S = memory.size(1)
        present = torch.arange(S, device=memory.device).expand(len(memory_lengths), S) < memory_lengths.unsqueeze(1)
        out, w = self.attn(query, memory, memory, key_padding_mask=torch.logical_not(present))
        return out
