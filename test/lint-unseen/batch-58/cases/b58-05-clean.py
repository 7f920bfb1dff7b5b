# case: b58-05-clean
# modelled-on: DestineG/llm_from_scratch https://github.com/DestineG/llm_from_scratch/commit/fdd1eba20a094d6ea70c4ff1c9e97f32a820d97f
# label: correct
# class: clean
# pattern: a from-scratch GPT block: one fused qkv projection reshaped to (B, T, 3, H, d) and permuted to (3, B, H, T, d), scores divided by head_dim ** 0.5, a 0/1 lower-triangular matrix built on every call for the current length and applied with masked_fill(mask == 0, -inf), softmax over the keys, dropout on the weights; pre-norm residual blocks and a small GPT around it
# why: correct: the permute (2, 0, 3, 1, 4) puts the q/k/v selector first and the heads before time, so q @ k.transpose(-2, -1) is (B, H, T, T); tril(ones) is 1 on and below the diagonal, so `mask == 0` selects exactly the future keys; the scale is sqrt of the per-head width; there is no KV cache (every call runs the whole sequence, and the trainer only scores teacher-forced logits), so the square mask always matches the keys
# looks-like: ATT002, ATT005
# source: https://github.com/DestineG/llm_from_scratch https://github.com/DestineG/llm_from_scratch/commit/fdd1eba20a094d6ea70c4ff1c9e97f32a820d97f src/model/attention.py
import torch
import torch.nn as nn
import torch.nn.functional as F


class CausalHeads(nn.Module):
    def __init__(self, width: int, n_heads: int, p_drop: float = 0.1):
        super().__init__()
        self.width, self.n_heads = width, n_heads
        self.d_head = width // n_heads
        assert self.d_head * n_heads == width, "width must be divisible by n_heads"
        self.qkv = nn.Linear(width, 3 * width)
        self.proj = nn.Linear(width, width)
        self.drop_w = nn.Dropout(p_drop)
        self.drop_o = nn.Dropout(p_drop)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        b, t, _ = x.shape
        # (b, t, 3*w) -> (b, t, 3, h, d) -> (3, b, h, t, d)
        packed = self.qkv(x).reshape(b, t, 3, self.n_heads, self.d_head).permute(2, 0, 3, 1, 4)
        q, k, v = packed[0], packed[1], packed[2]

        scores = torch.matmul(q, k.transpose(-2, -1)) / (self.d_head ** 0.5)
        lower = torch.tril(torch.ones(t, t, device=scores.device))
        scores = scores.masked_fill(lower == 0, float("-inf"))
        weights = self.drop_w(F.softmax(scores, dim=-1))

        mixed = torch.matmul(weights, v).permute(0, 2, 1, 3).reshape(b, t, self.width)
        return self.drop_o(self.proj(mixed))


class Block(nn.Module):
    def __init__(self, width: int, n_heads: int, ff_width: int):
        super().__init__()
        self.ln1, self.ln2 = nn.LayerNorm(width), nn.LayerNorm(width)
        self.attn = CausalHeads(width, n_heads)
        self.ff = nn.Sequential(nn.Linear(width, ff_width), nn.GELU(), nn.Dropout(0.1), nn.Linear(ff_width, width))
        self.drop = nn.Dropout(0.1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x + self.drop(self.attn(self.ln1(x)))
        return x + self.drop(self.ff(self.ln2(x)))


class TinyGPT(nn.Module):
    def __init__(self, vocab: int, context: int, width: int = 256, n_heads: int = 8, depth: int = 4):
        super().__init__()
        self.context = context
        self.tok = nn.Embedding(vocab, width)
        self.pos = nn.Embedding(context, width)
        self.blocks = nn.Sequential(*[Block(width, n_heads, 4 * width) for _ in range(depth)])
        self.norm = nn.LayerNorm(width)
        self.head = nn.Linear(width, vocab, bias=False)

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        pos = torch.arange(ids.size(1), device=ids.device)
        return self.head(self.norm(self.blocks(self.tok(ids) + self.pos(pos))))

