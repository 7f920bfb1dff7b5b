# case: t43dd-10-clean
# modelled-on: abubakarsiddik31/llm-from-scratch https://github.com/abubakarsiddik31/llm-from-scratch/commit/b04edcc56f85cd000bc93107e8142d281fdeec52
# label: correct
# class: clean
# pattern: a GPT-2-style model for supervised fine-tuning: fused qkv, heads split to (B, n_head, T, head_size), `F.scaled_dot_product_attention(q, k, v, dropout_p=..., is_causal=True)` with no mask and no cache; its generation loop (another module, the instruction sampler) re-runs the cropped prompt plus everything generated so far at every step and stops at <EOS>
# why: correct: there is no KV cache anywhere, so every call has as many queries as keys and the top-left causal mask of `is_causal=True` is right; SDPA's default scale is 1/sqrt(head_size); the -inf written into the logits by the top-k sampler is sampling, not attention
# looks-like: ATT003, ATT007, ATT008
# source: https://github.com/abubakarsiddik31/llm-from-scratch https://github.com/abubakarsiddik31/llm-from-scratch/commit/b04edcc56f85cd000bc93107e8142d281fdeec52 phase2_finetuning/project5_sft/model.py
from dataclasses import dataclass

import torch
import torch.nn as nn
from torch.nn import functional as F


@dataclass
class ArchConfig:
    VOCAB_SIZE: int
    N_EMBD: int
    N_HEAD: int
    N_LAYER: int
    BLOCK_SIZE: int
    DROPOUT: float = 0.0


class FusedCausalAttention(nn.Module):
    def __init__(self, config):
        super().__init__()
        assert config.N_EMBD % config.N_HEAD == 0
        self.n_head = config.N_HEAD
        self.n_embd = config.N_EMBD
        self.head_size = config.N_EMBD // config.N_HEAD
        self.c_attn = nn.Linear(config.N_EMBD, 3 * config.N_EMBD, bias=False)
        self.c_proj = nn.Linear(config.N_EMBD, config.N_EMBD, bias=False)
        self.p = config.DROPOUT
        self.resid_drop = nn.Dropout(config.DROPOUT)

    def forward(self, x):
        B, T, C = x.shape
        parts = self.c_attn(x).split(self.n_embd, dim=2)
        q, k, v = (t.view(B, T, self.n_head, self.head_size).transpose(1, 2) for t in parts)
        y = F.scaled_dot_product_attention(q, k, v, dropout_p=self.p if self.training else 0.0, is_causal=True)
        y = y.transpose(1, 2).contiguous().view(B, T, C)
        return self.resid_drop(self.c_proj(y))


class InstructGPT(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.config = config
        self.wte = nn.Embedding(config.VOCAB_SIZE, config.N_EMBD)
        self.wpe = nn.Embedding(config.BLOCK_SIZE, config.N_EMBD)
        self.blocks = nn.ModuleList(FusedCausalAttention(config) for _ in range(config.N_LAYER))
        self.ln_f = nn.LayerNorm(config.N_EMBD)
        self.lm_head = nn.Linear(config.N_EMBD, config.VOCAB_SIZE, bias=False)
        self.lm_head.weight = self.wte.weight

    def forward(self, idx, targets=None):
        B, T = idx.shape
        assert T <= self.config.BLOCK_SIZE
        x = self.wte(idx) + self.wpe(torch.arange(0, T, dtype=torch.long, device=idx.device))
        for blk in self.blocks:
            x = x + blk(x)
        logits = self.lm_head(self.ln_f(x))
        loss = None
        if targets is not None:
            loss = F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1), ignore_index=-1)
        return logits, loss
