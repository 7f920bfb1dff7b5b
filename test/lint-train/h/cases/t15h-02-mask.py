# case: t15h-02-mask
# modelled-on: ducngg/v7 https://github.com/ducngg/v7/commit/3a1329000c8b96b1ad304863fce9c7f1dbeaf90e
# label: buggy
# class: real-bug
# pattern: a nanoGPT-style word predictor for a Vietnamese input method; a commit titled "introduce attention mask to model" builds, in the GPT's forward, a pad mask (tokens != PAD).unsqueeze(1).unsqueeze(2) of shape (B, 1, 1, T), converts it to the activations' float dtype ("for scaling") and passes it through every block to F.scaled_dot_product_attention(q, k, v, attn_mask=mask, is_causal=flag), where the flag is the training switch
# why: buggy: SDPA adds a floating-point attn_mask to the scores (only a bool mask means keep/drop), so the 1.0/0.0 keep mask adds +1 to every real token and 0 to every pad: no padding key is masked, the intent of the commit (mask the PAD tokens) is not met; a bool mask (tokens != PAD) or an additive 0/-inf mask was needed; no later fix exists, the label rests on PyTorch's documented float-mask semantics
# source: https://github.com/ducngg/v7 https://github.com/ducngg/v7/commit/3a1329000c8b96b1ad304863fce9c7f1dbeaf90e ai/model.py
from dataclasses import dataclass

import torch
import torch.nn as nn
from torch.nn import functional as F

PAD_ID = 0


@dataclass
class LMConfig:
    block_size: int
    vocab_size: int
    n_layer: int
    n_head: int
    n_embd: int


class SelfAttention(nn.Module):
    def __init__(self, cfg: LMConfig):
        super().__init__()
        assert cfg.n_embd % cfg.n_head == 0
        self.qkv = nn.Linear(cfg.n_embd, 3 * cfg.n_embd)
        self.out = nn.Linear(cfg.n_embd, cfg.n_embd)
        self.n_head = cfg.n_head
        self.n_embd = cfg.n_embd

    def forward(self, x, pad_mask=None, causal=False):
        B, T, C = x.size()
        q, k, v = self.qkv(x).split(self.n_embd, dim=2)
        q = q.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)  # (B, nh, T, hs)
        k = k.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        v = v.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)

        y = F.scaled_dot_product_attention(
            q,
            k,
            v,
            attn_mask=pad_mask,  # expect: ATT002
            is_causal=bool(causal),
        )
        y = y.transpose(1, 2).contiguous().view(B, T, C)
        return self.out(y)


class Block(nn.Module):
    def __init__(self, cfg: LMConfig):
        super().__init__()
        self.ln1 = nn.LayerNorm(cfg.n_embd)
        self.attn = SelfAttention(cfg)
        self.ln2 = nn.LayerNorm(cfg.n_embd)
        self.mlp = nn.Sequential(nn.Linear(cfg.n_embd, 4 * cfg.n_embd), nn.GELU(approximate="tanh"), nn.Linear(4 * cfg.n_embd, cfg.n_embd))

    def forward(self, x, pad_mask=None, training_step=False):
        x = x + self.attn(self.ln1(x), pad_mask, causal=training_step)
        return x + self.mlp(self.ln2(x))


class WordLM(nn.Module):
    def __init__(self, cfg: LMConfig):
        super().__init__()
        self.cfg = cfg
        self.wte = nn.Embedding(cfg.vocab_size, cfg.n_embd)
        self.wpe = nn.Embedding(cfg.block_size, cfg.n_embd)
        self.blocks = nn.ModuleList([Block(cfg) for _ in range(cfg.n_layer)])
        self.ln_f = nn.LayerNorm(cfg.n_embd)
        self.head = nn.Linear(cfg.n_embd, cfg.vocab_size, bias=False)
        self.wte.weight = self.head.weight

    def forward(self, tokens, targets=None, pad_mask=None, training_step=False):
        B, T = tokens.size()
        pos = torch.arange(0, T, dtype=torch.long, device=tokens.device)
        x = self.wte(tokens) + self.wpe(pos)

        if pad_mask is None:
            pad_mask = (tokens != PAD_ID).unsqueeze(1).unsqueeze(2)  # (B, 1, 1, T)
            pad_mask = pad_mask.to(dtype=x.dtype)  # float, for scaling

        for block in self.blocks:
            x = block(x, pad_mask=pad_mask, training_step=training_step)

        logits = self.head(self.ln_f(x))
        loss = None
        if targets is not None:
            loss = F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1), ignore_index=PAD_ID)
        return logits, loss
