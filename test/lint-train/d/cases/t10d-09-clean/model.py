# case: t10d-09-clean
# modelled-on: JoaoOliveira1201/GPT-from-scratch https://github.com/JoaoOliveira1201/GPT-from-scratch/commit/e655433682953f230c432e41cf95d9091138f818
# label: correct
# class: clean
# pattern: a small character GPT whose hyperparameters live in a configs package: the attention chunks a fused qkv projection, splits heads of width C // n_head with view + transpose(1, 2), calls F.scaled_dot_product_attention(q, k, v, is_causal=True) with its default scale, and still registers an unused tril buffer from an earlier hand-written version; generation re-runs the whole cropped context every step, with no KV cache
# why: correct: queries and keys always cover the same positions (no cache, the full block is recomputed), so the top-left causal mask of is_causal=True is the right one; SDPA's default scale is 1/sqrt of the per-head width it receives; the leftover tril buffer is never applied, so it cannot mask twice; what a naive linter could misread: ATT008 (is_causal=True in a model that generates token by token), ATT003 (no explicit scale next to a fused attention call), ATT002 (a tril buffer registered next to is_causal)
# looks-like: ATT002, ATT003, ATT008
# source: https://github.com/JoaoOliveira1201/GPT-from-scratch https://github.com/JoaoOliveira1201/GPT-from-scratch/commit/e655433682953f230c432e41cf95d9091138f818 src/model.py
import torch
import torch.nn as nn
from torch.nn import functional as F

from configs import model as cfg


class CausalAttention(nn.Module):
    def __init__(self):
        super().__init__()
        self.c_attn = nn.Linear(cfg.n_embd, cfg.n_embd * 3, bias=cfg.bias)
        self.c_proj = nn.Linear(cfg.n_embd, cfg.n_embd, bias=cfg.bias)
        self.register_buffer("tril", torch.tril(torch.ones(cfg.block_size, cfg.block_size)))
        self.dropout = nn.Dropout(cfg.dropout)

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.c_attn(x).chunk(3, dim=-1)
        head_dim = C // cfg.n_head
        q = q.view(B, T, cfg.n_head, head_dim).transpose(1, 2)
        k = k.view(B, T, cfg.n_head, head_dim).transpose(1, 2)
        v = v.view(B, T, cfg.n_head, head_dim).transpose(1, 2)
        out = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        out = out.transpose(1, 2).contiguous().view(B, T, C)
        return self.dropout(self.c_proj(out))


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.sa = CausalAttention()
        self.ffwd = nn.Sequential(nn.Linear(cfg.n_embd, 4 * cfg.n_embd), nn.ReLU(), nn.Linear(4 * cfg.n_embd, cfg.n_embd), nn.Dropout(cfg.dropout))
        self.ln1 = nn.LayerNorm(cfg.n_embd)
        self.ln2 = nn.LayerNorm(cfg.n_embd)

    def forward(self, x):
        x = x + self.sa(self.ln1(x))
        return x + self.ffwd(self.ln2(x))


class TinyGPT(nn.Module):
    def __init__(self, vocab_size):
        super().__init__()
        self.tok = nn.Embedding(vocab_size, cfg.n_embd)
        self.pos = nn.Embedding(cfg.block_size, cfg.n_embd)
        self.blocks = nn.Sequential(*[Block() for _ in range(cfg.n_layer)])
        self.ln_f = nn.LayerNorm(cfg.n_embd)
        self.lm_head = nn.Linear(cfg.n_embd, vocab_size)

    def forward(self, idx):
        _, T = idx.shape
        x = self.tok(idx) + self.pos(torch.arange(T, device=idx.device))
        return self.lm_head(self.ln_f(self.blocks(x)))

    @torch.no_grad()
    def generate(self, idx, max_new_tokens):
        for _ in range(max_new_tokens):
            logits = self(idx[:, -cfg.block_size :])[:, -1, :]
            probs = F.softmax(logits, dim=-1)
            idx = torch.cat((idx, torch.multinomial(probs, num_samples=1)), dim=1)
        return idx
