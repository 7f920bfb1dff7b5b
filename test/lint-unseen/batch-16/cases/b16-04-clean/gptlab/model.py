import torch
import torch.nn as nn

from .layers import CachedSelfAttention


class TinyGPT(nn.Module):
    def __init__(self, vocab, n_embd=128, n_head=4, n_layer=2, block_size=256):
        super().__init__()
        self.tok = nn.Embedding(vocab, n_embd)
        self.pos = nn.Embedding(block_size, n_embd)
        self.blocks = nn.ModuleList([CachedSelfAttention(n_embd, n_head, block_size) for _ in range(n_layer)])
        self.head = nn.Linear(n_embd, vocab)

    @torch.no_grad()
    def prefill_batch(self, token_ids, prompt_lengths):
        """Right-padded prompts: every query sees earlier keys of its own prompt only."""
        b, width = token_ids.shape
        positions = torch.arange(width, device=token_ids.device)
        h = self.tok(token_ids) + self.pos(positions)
        key_pos = positions.view(1, 1, 1, width)
        query_pos = positions.view(1, 1, width, 1)
        valid_keys = key_pos < prompt_lengths.view(-1, 1, 1, 1)
        allowed = (key_pos <= query_pos) & valid_keys
        caches = []
        for block in self.blocks:
            out, cache = block(h, allowed=allowed)
            h = h + out
            caches.append(cache)
        rows = torch.arange(b, device=token_ids.device)
        return self.head(h)[rows, prompt_lengths - 1].unsqueeze(1), caches

    @torch.no_grad()
    def decode(self, token_ids, caches):
        past = caches[0][0].shape[2]
        positions = torch.arange(past, past + token_ids.shape[1], device=token_ids.device)
        h = self.tok(token_ids) + self.pos(positions)
        new = []
        for block, cache in zip(self.blocks, caches):
            out, cache = block(h, cache=cache)
            h = h + out
            new.append(cache)
        return self.head(h), new
