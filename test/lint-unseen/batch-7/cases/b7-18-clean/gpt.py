import torch
import torch.nn as nn

from multi_head_attention import MultiHeadAttention


class Block(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.ln1, self.ln2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.attn = MultiHeadAttention(dim, heads)
        self.ff = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, x, past_kv=None, position_offset=0):
        a, present = self.attn(self.ln1(x), past_kv=past_kv, position_offset=position_offset)
        x = x + a
        return x + self.ff(self.ln2(x)), present


class GPTModel(nn.Module):
    def __init__(self, vocab_size, embed_dim, num_heads, num_layers, block_size):
        super().__init__()
        self.tok = nn.Embedding(vocab_size, embed_dim)
        self.pos = nn.Embedding(block_size, embed_dim)
        self.blocks = nn.ModuleList([Block(embed_dim, num_heads) for _ in range(num_layers)])
        self.head = nn.Linear(embed_dim, vocab_size)

    def forward(self, idx, past_kv_list=None, position_offset=0, use_cache=False):
        T = idx.shape[1]
        pos = torch.arange(position_offset, position_offset + T, device=idx.device)
        x = self.tok(idx) + self.pos(pos)
        presents = []
        for i, block in enumerate(self.blocks):
            past = None if past_kv_list is None else past_kv_list[i]
            x, present = block(x, past_kv=past, position_offset=position_offset)
            presents.append(present)
        logits = self.head(x)
        return (logits, presents) if use_cache else logits
