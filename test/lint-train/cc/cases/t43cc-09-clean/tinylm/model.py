# case: t43cc-09-clean
# modelled-on: kelomina/OrthoAttn https://github.com/kelomina/OrthoAttn/commit/d0218c4d23ca4a7cd72e66ed9b81d4c456eaac5f
# label: correct
# class: clean
# pattern: the standard-attention baseline of a research repository (a tiny LLaMA-style character LM trained next to an experimental attention): fused qkv split with `reshape(B, T, 3, H, d).permute(2, 0, 3, 1, 4)`, rotary embeddings on q and k, and `F.scaled_dot_product_attention(q, k, v, attn_mask=None, is_causal=True)`; the data module (another file) cuts one contiguous token tensor into equal slices (`drop_last=True`), defines a PAD id that the loss ignores, and never pads a batch
# why: correct: every training sequence has the same length and no padding, so a causal mask is all the attention needs; `is_causal=True` with `attn_mask=None` is SDPA's supported way to ask for it, queries and keys have the same length (no cache), and SDPA applies its default 1/sqrt(d) scale once
# looks-like: ATT002, ATT003, ATT008
# source: https://github.com/kelomina/OrthoAttn https://github.com/kelomina/OrthoAttn/commit/d0218c4d23ca4a7cd72e66ed9b81d4c456eaac5f scripts/tiny_llama_baseline.py
import torch
import torch.nn as nn
import torch.nn.functional as F

from .data import PAD_ID


class Rotary(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        inv_freq = 1.0 / (10000 ** (torch.arange(0, dim, 2).float() / dim))
        self.register_buffer("inv_freq", inv_freq, persistent=False)

    def forward(self, seq_len: int, device) -> torch.Tensor:
        t = torch.arange(seq_len, device=device, dtype=self.inv_freq.dtype)
        freqs = torch.einsum("i,j->ij", t, self.inv_freq)
        return torch.cat((freqs, freqs), dim=-1)


def rotate(x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
    half = x.size(-1) // 2
    x_rot = torch.cat((-x[..., half:], x[..., :half]), dim=-1)
    return x * cos[None, None, : x.size(2)] + x_rot * sin[None, None, : x.size(2)]


class CausalSelfAttention(nn.Module):
    def __init__(self, dim: int, heads: int):
        super().__init__()
        self.heads = heads
        self.d_head = dim // heads
        self.qkv = nn.Linear(dim, 3 * dim, bias=False)
        self.proj = nn.Linear(dim, dim, bias=False)
        self.rotary = Rotary(self.d_head)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        B, T, D = x.shape
        q, k, v = self.qkv(x).reshape(B, T, 3, self.heads, self.d_head).permute(2, 0, 3, 1, 4)
        freqs = self.rotary(T, x.device)
        cos, sin = freqs.cos().to(x.dtype), freqs.sin().to(x.dtype)
        q, k = rotate(q, cos, sin), rotate(k, cos, sin)
        out = F.scaled_dot_product_attention(q, k, v, attn_mask=None, is_causal=True)
        return self.proj(out.transpose(1, 2).reshape(B, T, D))


class Block(nn.Module):
    def __init__(self, dim: int, heads: int):
        super().__init__()
        self.ln1, self.ln2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.attn = CausalSelfAttention(dim, heads)
        self.ffn = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.ffn(self.ln2(x))


class TinyLM(nn.Module):
    def __init__(self, vocab_size: int, dim: int = 256, heads: int = 4, layers: int = 6):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, dim)
        self.blocks = nn.ModuleList([Block(dim, heads) for _ in range(layers)])
        self.ln_f = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, vocab_size)

    def forward(self, idx: torch.Tensor) -> torch.Tensor:
        h = self.embed(idx)
        for block in self.blocks:
            h = block(h)
        return self.head(self.ln_f(h))


def train_steps(model: TinyLM, loader, steps: int, lr: float = 3e-4):
    opt = torch.optim.AdamW(model.parameters(), lr=lr, betas=(0.9, 0.95))
    loss_fn = nn.CrossEntropyLoss(ignore_index=PAD_ID)
    done = 0
    while done < steps:
        for x, y in loader:
            logits = model(x)
            loss = loss_fn(logits.view(-1, logits.size(-1)), y.view(-1))
            opt.zero_grad()
            loss.backward()
            opt.step()
            done += 1
            if done >= steps:
                break
