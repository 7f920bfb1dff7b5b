import torch
from torch import nn

from .attention import MultiheadAtt
from .ops import mask_lengths


class MemoryLM(nn.Module):
    def __init__(self, vocab, hidden_dim=512, n_heads=8, head_dim=64, n_layers=6, bidirectional=False):
        super().__init__()
        self.embedding = nn.Embedding(vocab, hidden_dim)
        self.layers = nn.ModuleList([MultiheadAtt(hidden_dim, n_heads, head_dim) for _ in range(n_layers)])
        self.is_bidirectional = bidirectional

    def get_mask(self, mem, inp_lens):
        inp_masks = mask_lengths(inp_lens, reverse=True).byte()  # 1 on padding
        bs, qs = inp_masks.size()
        ms = mem[0].size(1) if mem is not None else 0
        ks = qs + ms
        ones = torch.ones((qs, ks), dtype=torch.uint8, device=inp_masks.device)
        if not self.is_bidirectional:
            dec_mask = ones.triu(1 + ms)  # 1 on the future, offset by the memory length
        else:
            dec_mask = torch.zeros_like(ones)
        if ms:
            inp_masks = torch.cat([torch.zeros(bs, ms, dtype=inp_masks.dtype, device=inp_masks.device), inp_masks], 1)
        return (inp_masks.unsqueeze(1) + dec_mask.unsqueeze(0)) > 0

    def forward(self, ids, inp_lens, mem=None):
        h = self.embedding(ids)
        hide = self.get_mask(mem, inp_lens)
        new_mem = []
        for i, layer in enumerate(self.layers):
            new_mem.append(h.detach())
            h = h + layer(h, mem[i] if mem is not None else None, hide)
        return h, new_mem
