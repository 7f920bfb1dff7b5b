import torch
import torch.nn as nn

from .attention import CausalMHA
from .segments import train_positions_and_mask, prefill_positions_and_mask


class Block(nn.Module):
    def __init__(self, embd_size, num_head, max_context_size, p_drop):
        super().__init__()
        self.ln1 = nn.LayerNorm(embd_size)
        self.attn = CausalMHA(embd_size, num_head, True, max_context_size, p_drop, p_drop, True)
        self.ln2 = nn.LayerNorm(embd_size)
        self.mlp = nn.Sequential(nn.Linear(embd_size, 4 * embd_size), nn.GELU(), nn.Linear(4 * embd_size, embd_size))

    def forward(self, x, kv_cache=None, return_cache=False, attention_mask=None):
        a, new_cache = self.attn(self.ln1(x), kv_cache, return_cache, attention_mask)
        x = x + a
        return x + self.mlp(self.ln2(x)), new_cache


class TinyGPT(nn.Module):
    def __init__(self, vocab_size, embd_size=256, num_head=8, num_block=4, max_context_size=512, p_drop=0.1):
        super().__init__()
        self.tok = nn.Embedding(vocab_size, embd_size)
        self.pos = nn.Embedding(max_context_size, embd_size)
        self.blocks = nn.ModuleList(Block(embd_size, num_head, max_context_size, p_drop) for _ in range(num_block))
        self.ln_f = nn.LayerNorm(embd_size)
        self.head = nn.Linear(embd_size, vocab_size, bias=False)

    def forward(self, input_seqs, input_segs=None, prefill=False):
        L_q = input_seqs.size(1)
        build = prefill_positions_and_mask if prefill else train_positions_and_mask
        _, positions, attention_mask = build(input_segs, L_q, device=input_seqs.device)
        x = self.tok(input_seqs) + self.pos(positions)
        caches = []
        for block in self.blocks:
            x, cache = block(x, None, prefill, attention_mask)
            caches.append(cache)
        return self.head(self.ln_f(x)), caches
