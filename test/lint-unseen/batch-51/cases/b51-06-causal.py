# case: b51-06-causal
# modelled-on: anshikam30/KV-Caching https://github.com/anshikam30/KV-Caching/commit/7f58a18c58eb76edee1ff917d74bc50743f52663
# label: buggy
# class: real-bug
# pattern: a two-layer single-head decoder-only transformer written for a KV-caching exercise: attention joins the passed past keys and values along the time axis, builds its causal mask as triu(ones(T, total_keys), diagonal=1) over the T new queries and all keys, and fills it with -inf before the softmax; the generator feeds the whole prompt once and then only the newest token with the returned cache
# why: buggy: the mask is aligned top-left, so for a cached step (T = 1 query, S > 1 keys) row 0 of triu(ones(1, S), diagonal=1) blocks every key but the first, and the new token attends only to the first token of the sequence instead of to all of them; the code's own step comment says the mask is there so tokens cannot attend to future positions (the cached keys are all in the past), the generator is meant to use the cache only for speed, and the exercise's harness compares cached with uncached logits (it checks only the whole-prompt call, where T equals the key count and the mask happens to be right). The repository has a single version of the file, with no fix.
# source: https://github.com/anshikam30/KV-Caching https://github.com/anshikam30/KV-Caching/commit/7f58a18c58eb76edee1ff917d74bc50743f52663 Problem2/transformer.py
import time

import torch
import torch.nn as nn
import torch.nn.functional as F


class OneHeadAttention(nn.Module):
    def __init__(self, d_model):
        super().__init__()
        self.d_model = d_model
        self.q_map = nn.Linear(d_model, d_model, bias=False)
        self.k_map = nn.Linear(d_model, d_model, bias=False)
        self.v_map = nn.Linear(d_model, d_model, bias=False)
        self.out_map = nn.Linear(d_model, d_model, bias=False)

    def forward(self, x, cache=None, keep_cache=False):
        batch, steps, _ = x.shape
        q, k, v = self.q_map(x), self.k_map(x), self.v_map(x)

        # earlier tokens first, the new ones after them
        if cache is not None:
            k = torch.cat([cache[0], k], dim=1)
            v = torch.cat([cache[1], v], dim=1)
        present = (k, v) if keep_cache else None

        scores = torch.bmm(q, k.transpose(1, 2)) / self.d_model ** 0.5  # one head: d_k is d_model

        # causal mask: no token may look at a later position
        later = torch.triu(torch.ones(steps, k.shape[1], device=x.device), diagonal=1)
        scores = scores.masked_fill(later.bool(), float("-inf"))  # expect: ATT008

        weights = F.softmax(scores, dim=-1)
        return self.out_map(torch.bmm(weights, v)), present


class DecoderBlock(nn.Module):
    def __init__(self, d_model, d_ff, dropout=0.1):
        super().__init__()
        self.ln_attn, self.ln_ff = nn.LayerNorm(d_model), nn.LayerNorm(d_model)
        self.attn = OneHeadAttention(d_model)
        self.ff = nn.Sequential(nn.Linear(d_model, d_ff), nn.ReLU(), nn.Linear(d_ff, d_model))
        self.drop = nn.Dropout(dropout)

    def forward(self, x, cache=None, keep_cache=False):
        delta, present = self.attn(self.ln_attn(x), cache=cache, keep_cache=keep_cache)
        x = x + self.drop(delta)
        return x + self.drop(self.ff(self.ln_ff(x))), present


class TinyDecoder(nn.Module):
    def __init__(self, vocab_size, d_model, d_ff, num_layers, max_seq_len):
        super().__init__()
        self.tokens = nn.Embedding(vocab_size, d_model)
        self.positions = nn.Embedding(max_seq_len, d_model)
        self.blocks = nn.ModuleList(DecoderBlock(d_model, d_ff) for _ in range(num_layers))
        self.ln_out = nn.LayerNorm(d_model)
        self.to_vocab = nn.Linear(d_model, vocab_size)

    def forward(self, ids, caches=None, keep_cache=False):
        steps = ids.shape[1]
        offset = caches[0][0].shape[1] if caches is not None else 0
        where = torch.arange(offset, offset + steps, device=ids.device).clamp(max=self.positions.num_embeddings - 1)
        h = self.tokens(ids) + self.positions(where)
        fresh = [] if keep_cache else None
        for i, block in enumerate(self.blocks):
            h, present = block(h, cache=caches[i] if caches else None, keep_cache=keep_cache)
            if keep_cache:
                fresh.append(present)
        return self.to_vocab(self.ln_out(h)), fresh

    @torch.no_grad()
    def generate(self, ids, max_new_tokens, temperature=1.0, use_cache=True):
        self.eval()
        caches = None
        out = ids
        for _ in range(max_new_tokens):
            step_in = out[:, -1:] if (use_cache and caches is not None) else out
            logits, caches = self(step_in, caches=caches, keep_cache=use_cache)
            probs = F.softmax(logits[:, -1, :] / temperature, dim=-1)
            out = torch.cat([out, torch.multinomial(probs, num_samples=1)], dim=1)
        return out


def time_generation(model, ids, n_new=20, use_cache=True, runs=3):
    model.generate(ids, n_new, use_cache=use_cache)  # warm-up
    start = time.time()
    for _ in range(runs):
        model.generate(ids, n_new, use_cache=use_cache)
    return (time.time() - start) / runs
