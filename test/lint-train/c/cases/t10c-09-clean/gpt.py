# case: t10c-09-clean
# modelled-on: adarshLabs/Transformer-From-Scratch https://github.com/adarshLabs/Transformer-From-Scratch/commit/c7e2a7d
# label: correct
# class: clean
# pattern: a GPT whose forward builds the causal & padding keep mask (helper module) only for the prefill and passes mask=None on decode steps with a KV cache; the attention module concatenates the cache and fills mask == 0 with -inf
# why: after the prefill, generation feeds exactly one new token per step (context = next_token), and a single query may attend to every cached key, so no mask is needed; the prefill has no cache, so its square causal mask is aligned
# looks-like: ATT002, ATT007, ATT008
# source: https://github.com/adarshLabs/Transformer-From-Scratch https://github.com/adarshLabs/Transformer-From-Scratch/commit/c7e2a7d transformer_models/gpt2.py
import torch
import torch.nn as nn
import torch.nn.functional as F

from attention.cached import CachedSelfAttention
from attention.masking import causal_mask, combine, padding_mask


class TinyGPT2(nn.Module):
    def __init__(self, vocab_size=50257, d_model=384, n_heads=6, n_layers=4, block_size=256, pad_id=-1):
        super().__init__()
        self.block_size = block_size
        self.pad_id = pad_id
        self.tok = nn.Embedding(vocab_size, d_model)
        self.attns = nn.ModuleList([CachedSelfAttention(d_model, n_heads) for _ in range(n_layers)])
        self.norms = nn.ModuleList([nn.LayerNorm(d_model) for _ in range(n_layers)])
        self.head = nn.Linear(d_model, vocab_size, bias=False)

    def forward(self, input_ids, past_key_values=None, use_cache=False):
        x = self.tok(input_ids)
        is_decode = past_key_values is not None
        if is_decode:
            mask = None
        else:
            mask = combine(causal_mask(input_ids.size(1), input_ids.device), padding_mask(input_ids, self.pad_id))
        new_kv = []
        for i, (norm, attn) in enumerate(zip(self.norms, self.attns)):
            out, kv = attn(norm(x), mask=mask, past_kv=None if past_key_values is None else past_key_values[i])
            x = x + out
            new_kv.append(kv)
        return self.head(x), (new_kv if use_cache else None)

    @torch.no_grad()
    def generate(self, input_ids, max_new_tokens=50, use_cache=True):
        self.eval()
        past = None
        context = input_ids[:, -self.block_size :]
        for _ in range(max_new_tokens):
            step = context if use_cache else input_ids[:, -self.block_size :]
            logits, past = self(step, past_key_values=past, use_cache=use_cache)
            nxt = torch.multinomial(F.softmax(logits[:, -1], dim=-1), 1)
            input_ids = torch.cat([input_ids, nxt], dim=-1)
            context = nxt if use_cache else input_ids[:, -self.block_size :]
        return input_ids
