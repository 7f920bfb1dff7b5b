import torch
import torch.nn as nn
import torch.nn.functional as F

from model import CausalSelfAttention


class Block(nn.Module):
    def __init__(self, n_embd, n_head, block_size):
        super().__init__()
        self.ln = nn.LayerNorm(n_embd)
        self.attn = CausalSelfAttention(n_embd, n_head, block_size)

    def forward(self, x, use_cache=False, past_kv=None):
        a, present = self.attn(self.ln(x), use_cache=use_cache, past_kv=past_kv)
        return x + a, present


class GPT(nn.Module):
    def __init__(self, vocab=50304, n_embd=384, n_head=6, n_layer=6, block_size=256):
        super().__init__()
        self.wte = nn.Embedding(vocab, n_embd)
        self.wpe = nn.Embedding(block_size, n_embd)
        self.blocks = nn.ModuleList([Block(n_embd, n_head, block_size) for _ in range(n_layer)])
        self.lm_head = nn.Linear(n_embd, vocab, bias=False)

    def forward(self, idx, use_cache=False, past_kv=None):
        past_kv = past_kv or [None] * len(self.blocks)
        t_past = 0 if past_kv[0] is None else past_kv[0][0].size(2)
        pos = torch.arange(t_past, t_past + idx.size(1), device=idx.device)
        x = self.wte(idx) + self.wpe(pos)
        present = []
        for blk, pkv in zip(self.blocks, past_kv):
            x, p = blk(x, use_cache=use_cache, past_kv=pkv)
            present.append(p)
        return self.lm_head(x[:, [-1], :]), present


@torch.no_grad()
def sample(model: GPT, idx, max_new_tokens=100, temperature=0.8, chunk=None):
    logits, kv = model(idx, use_cache=True)  # prefill
    for _ in range(max_new_tokens):
        probs = F.softmax(logits[:, -1, :] / temperature, dim=-1)
        nxt = torch.multinomial(probs, 1)
        idx = torch.cat((idx, nxt), dim=1)
        logits, kv = model(nxt, use_cache=True, past_kv=kv)  # one token per step
    return idx
