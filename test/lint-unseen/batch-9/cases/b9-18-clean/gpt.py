# case: b9-18-clean
# modelled-on: MatinKhajavi/GPT-from-scratch https://github.com/MatinKhajavi/GPT-from-scratch/commit/9bbcec1b72e4f80ddefb30d6d1785d9fdffba29e
# label: correct
# class: clean
# pattern: a GPT-2 style model split into a config dataclass, a modules file and the model: multi-head attention splits a fused qkv projection, moves heads forward and calls F.scaled_dot_product_attention(q, k, v, is_causal=True, dropout_p=...) without its own scale; generation crops the running sequence to the context length and re-runs the whole window every step (no KV cache), then samples with temperature and top-k
# why: correct: every forward pass sees the full window, queries and keys of the same length, so SDPA's top-left causal mask is the right one (no cache is ever concatenated); SDPA applies the default 1/sqrt(d_head) scale itself, the queries are not pre-scaled; dropout is switched off in eval
# looks-like: ATT003, ATT004, ATT008
# source: https://github.com/MatinKhajavi/GPT-from-scratch https://github.com/MatinKhajavi/GPT-from-scratch/commit/9bbcec1b72e4f80ddefb30d6d1785d9fdffba29e gpt_from_scratch/models/_modules.py
from typing import Optional

import torch
import torch.nn as nn

from modules import MHAttention
from utils import GPTConfig


class Block(nn.Module):
    def __init__(self, cfg: GPTConfig) -> None:
        super().__init__()
        self.att = MHAttention(cfg.emb_dim, cfg.emb_dim, cfg.n_heads, cfg.drop_rate, cfg.qkv_bias)
        self.ff = nn.Sequential(nn.Linear(cfg.emb_dim, 4 * cfg.emb_dim), nn.GELU(), nn.Linear(4 * cfg.emb_dim, cfg.emb_dim))
        self.norm1 = nn.LayerNorm(cfg.emb_dim)
        self.norm2 = nn.LayerNorm(cfg.emb_dim)

    def forward(self, x):
        x = x + self.att(self.norm1(x))
        return x + self.ff(self.norm2(x))


class GPT(nn.Module):
    def __init__(self, cfg: GPTConfig) -> None:
        super().__init__()
        self.cfg = cfg
        self.tok_emb = nn.Embedding(cfg.vocab_size, cfg.emb_dim)
        self.pos_emb = nn.Embedding(cfg.context_length, cfg.emb_dim)
        self.blocks = nn.Sequential(*[Block(cfg) for _ in range(cfg.n_layers)])
        self.final_norm = nn.LayerNorm(cfg.emb_dim)
        self.out_head = nn.Linear(cfg.emb_dim, cfg.vocab_size, bias=False)

    def forward(self, in_idx: torch.Tensor) -> torch.Tensor:
        _, n_tokens = in_idx.shape
        x = self.tok_emb(in_idx) + self.pos_emb(torch.arange(n_tokens, device=in_idx.device))
        return self.out_head(self.final_norm(self.blocks(x)))

    @torch.no_grad()
    def generate(self, idx: torch.Tensor, max_new_tokens: int, temperature: float = 1.0, top_k: Optional[int] = 50) -> torch.Tensor:
        self.eval()
        for _ in range(max_new_tokens):
            idx_cond = idx[:, -self.cfg.context_length :]
            logits = self(idx_cond)[:, -1, :]
            if top_k is not None:
                top_logits, _ = torch.topk(logits, top_k)
                logits = torch.where(logits < top_logits[:, -1:], torch.tensor(float("-inf"), device=logits.device), logits)
            if temperature > 0.0:
                probs = torch.softmax(logits / temperature, dim=-1)
                idx_next = torch.multinomial(probs, num_samples=1)
            else:
                idx_next = torch.argmax(logits, dim=-1, keepdim=True)
            idx = torch.cat((idx, idx_next), dim=1)
        return idx
