# case: b29-03-causal
# modelled-on: diixo/build-gpt-steps https://github.com/diixo/build-gpt-steps/commit/a3acaf39e6db383e8dcaecdf8f12861825401362
# label: buggy
# class: real-bug
# pattern: a spelling-correction GPT fine-tuned on padded pairs: a nanoGPT-style CausalSelfAttention (fused c_attn split into q, k, v, heads moved to dim 1) that turns a (B, T) padding attention_mask into a (B, 1, 1, T) bool mask and calls F.scaled_dot_product_attention(q, k, v, attn_mask=attn_mask, is_causal=True); the training loop passes the batch's attention mask to every forward
# why: buggy: scaled_dot_product_attention does not accept an explicit attn_mask together with is_causal=True (PyTorch documents that an error is thrown when both are set), so every call that passes the padding mask fails instead of combining causal and padding masking; the causal mask has to be folded into attn_mask (tril & padding) with is_causal=False. The bool mask polarity (True = attend on real tokens) and SDPA's own scaling are right. No fixed version exists in the repository
# source: https://github.com/diixo/build-gpt-steps https://github.com/diixo/build-gpt-steps/commit/a3acaf39e6db383e8dcaecdf8f12861825401362 gpt_spell_corrector.py
from dataclasses import dataclass

import torch
import torch.nn as nn
from torch.nn import functional as F


@dataclass
class GPTConfig:
    block_size: int = 64
    n_layer: int = 4
    n_head: int = 4
    n_embd: int = 128
    vocab_size: int = 72


class CausalSelfAttention(nn.Module):
    def __init__(self, config):
        super().__init__()
        assert config.n_embd % config.n_head == 0
        self.c_attn = nn.Linear(config.n_embd, 3 * config.n_embd)
        self.c_proj = nn.Linear(config.n_embd, config.n_embd)
        self.n_head = config.n_head
        self.n_embd = config.n_embd

    def forward(self, x, attention_mask=None):
        B, T, C = x.size()
        qkv = self.c_attn(x)
        q, k, v = qkv.split(self.n_embd, dim=2)
        k = k.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        q = q.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        v = v.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)

        if attention_mask is not None:
            attn_mask = attention_mask[:, None, None, :].to(dtype=torch.bool)
        else:
            attn_mask = None

        y = F.scaled_dot_product_attention(q, k, v, attn_mask=attn_mask, is_causal=True)  # expect: ATT008
        y = y.transpose(1, 2).contiguous().view(B, T, C)
        return self.c_proj(y)


class Block(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.ln_1 = nn.LayerNorm(config.n_embd)
        self.attn = CausalSelfAttention(config)
        self.ln_2 = nn.LayerNorm(config.n_embd)
        self.mlp = nn.Sequential(
            nn.Linear(config.n_embd, 4 * config.n_embd),
            nn.GELU(approximate="tanh"),
            nn.Linear(4 * config.n_embd, config.n_embd),
        )

    def forward(self, x, attention_mask=None):
        x = x + self.attn(self.ln_1(x), attention_mask=attention_mask)
        x = x + self.mlp(self.ln_2(x))
        return x


class GPT(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.config = config
        self.wte = nn.Embedding(config.vocab_size, config.n_embd)
        self.wpe = nn.Embedding(config.block_size, config.n_embd)
        self.h = nn.ModuleList([Block(config) for _ in range(config.n_layer)])
        self.ln_f = nn.LayerNorm(config.n_embd)
        self.lm_head = nn.Linear(config.n_embd, config.vocab_size, bias=False)

    def forward(self, idx, targets=None, attention_mask=None):
        B, T = idx.size()
        pos = torch.arange(0, T, dtype=torch.long, device=idx.device)
        x = self.wte(idx) + self.wpe(pos)
        for block in self.h:
            x = block(x, attention_mask=attention_mask)
        logits = self.lm_head(self.ln_f(x))
        loss = None
        if targets is not None:
            loss = F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1), ignore_index=-100)
        return logits, loss


def train_step(model, optimizer, xb, yb, attn_mask):
    logits, loss = model(xb, yb, attn_mask)
    optimizer.zero_grad(set_to_none=True)
    loss.backward()
    optimizer.step()
    return loss.item()
