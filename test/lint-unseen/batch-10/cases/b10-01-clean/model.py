# case: b10-01-clean
# modelled-on: akavi/nanoGPT https://github.com/akavi/nanoGPT/commit/280fd21
# label: correct
# class: clean
# pattern: SDPA with is_causal=True only in training and an additive cache-aware mask (zeros for the cached keys, triu of finfo.min for the new block) otherwise; training always starts from an empty state
# why: the training step builds initial_state (zero cached keys) for every batch, so is_causal=True only ever sees equal query and key lengths; generation and evaluation use the offset-aware additive mask
# looks-like: ATT002, ATT003, ATT007, ATT008
# source: https://github.com/akavi/nanoGPT https://github.com/akavi/nanoGPT/commit/280fd21 models/model.py
import torch
import torch.nn as nn
import torch.nn.functional as F

from attention import CachedSelfAttention


class Block(nn.Module):
    def __init__(self, n_embd, n_head):
        super().__init__()
        self.ln_1 = nn.LayerNorm(n_embd)
        self.attn = CachedSelfAttention(n_embd, n_head)
        self.ln_2 = nn.LayerNorm(n_embd)
        self.mlp = nn.Sequential(nn.Linear(n_embd, 4 * n_embd), nn.GELU(), nn.Linear(4 * n_embd, n_embd))

    def forward(self, x, state):
        out, state = self.attn(self.ln_1(x), state)
        x = x + out
        return x + self.mlp(self.ln_2(x)), state


class TinyGPT(nn.Module):
    def __init__(self, vocab_size=256, n_embd=128, n_head=4, n_layer=2):
        super().__init__()
        self.wte = nn.Embedding(vocab_size, n_embd)
        self.blocks = nn.ModuleList([Block(n_embd, n_head) for _ in range(n_layer)])
        self.lm_head = nn.Linear(n_embd, vocab_size, bias=False)

    def initial_state(self, batch_size):
        return [b.attn.initial_state(batch_size, self.wte.weight.device) for b in self.blocks]

    def forward(self, idx, state, targets=None):
        x = self.wte(idx)
        new_state = []
        for block, s in zip(self.blocks, state):
            x, s = block(x, s)
            new_state.append(s)
        logits = self.lm_head(x)
        loss = None if targets is None else F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1))
        return logits, new_state, loss

    @torch.no_grad()
    def generate(self, idx, max_new_tokens):
        state = self.initial_state(idx.size(0))
        logits, state, _ = self(idx, state)
        for _ in range(max_new_tokens):
            nxt = logits[:, -1].argmax(-1, keepdim=True)
            idx = torch.cat([idx, nxt], dim=1)
            logits, state, _ = self(nxt, state)
        return idx
