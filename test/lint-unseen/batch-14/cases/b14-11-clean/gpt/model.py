import torch
from torch import nn

from gpt.attention import MultiQueryAttention


class Block(nn.Module):
    def __init__(self, d: int, n_heads: int):
        super().__init__()
        self.norm1 = nn.LayerNorm(d)
        self.attention = MultiQueryAttention(d, n_heads)
        self.norm2 = nn.LayerNorm(d)
        self.ffn = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))

    def forward(self, x, kv_cache=None):
        dx, kv_cache = self.attention(self.norm1(x), kv_cache=kv_cache)
        x = x + dx
        return x + self.ffn(self.norm2(x)), kv_cache


class GPT(nn.Module):
    def __init__(self, vocab_size: int, d: int = 384, n_heads: int = 6, n_layer: int = 6, block_size: int = 256):
        super().__init__()
        self.block_size = block_size
        self.n_layer = n_layer
        self.tok = nn.Embedding(vocab_size, d)
        self.pos = nn.Embedding(block_size, d)
        self.blocks = nn.ModuleList([Block(d, n_heads) for _ in range(n_layer)])
        self.head = nn.Linear(d, vocab_size)

    def forward(self, idx, kv_cache=None, start_pos: int = 0):
        positions = torch.arange(start_pos, start_pos + idx.shape[1], device=idx.device)
        x = self.tok(idx) + self.pos(positions)
        for i, block in enumerate(self.blocks):
            x, layer_cache = block(x, kv_cache=kv_cache[i] if kv_cache else None)
            if kv_cache is not None:
                kv_cache[i] = layer_cache
        return self.head(x), kv_cache

    @torch.no_grad()
    def generate(self, idx, max_tokens: int = 64, temperature: float = 1.0, use_kv_cache: bool = False):
        kv_cache = [{"k": None, "v": None} for _ in range(self.n_layer)] if use_kv_cache else None
        self.eval()
        for step in range(max_tokens):
            if step == 0 or not use_kv_cache:
                logits, kv_cache = self(idx[:, -self.block_size :], kv_cache=kv_cache, start_pos=0)
            else:
                logits, kv_cache = self(idx[:, -1:], kv_cache=kv_cache, start_pos=idx.shape[1] - 1)
            probs = torch.softmax(logits[:, -1, :] / temperature, dim=-1)
            idx = torch.cat((idx, torch.multinomial(probs, num_samples=1)), dim=1)
        return idx
