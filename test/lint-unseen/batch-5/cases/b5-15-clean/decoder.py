# case: b5-15-clean
# modelled-on: stevebottos/transformer-from-scratch https://github.com/stevebottos/transformer-from-scratch/commit/049cee25fc3293d73bb1e969f59a0675fc767181
# label: correct
# class: clean
# pattern: a decoder-only model whose layers (another module) keep a tril(ones) buffer and pass its top-left [:S, :S] block, S being the length of the layer's input, to a multi-head attention that concatenates a per-layer (k, v) cache on the position axis before splitting the heads and fills the scores where the mask is 0; generation prefills the prompt into an empty cache and then feeds exactly one token per step
# why: correct: the prefill has no cached keys, so the square [:S, :S] block is the right causal mask; every later step has S = 1, the (1, 1) block is [[1]] and broadcasts over all cached keys, which a single new token may all see; nothing in the model feeds several tokens after a filled cache
# looks-like: ATT002, ATT007, ATT008
# source: https://github.com/stevebottos/transformer-from-scratch https://github.com/stevebottos/transformer-from-scratch/commit/049cee25fc3293d73bb1e969f59a0675fc767181 src/models/transformer.py
import math

import torch
import torch.nn as nn

from layers import DecoderLayer


class TinyDecoder(nn.Module):
    def __init__(self, d_model, n_vocab, n_layers, n_heads, max_len=2048):
        super().__init__()
        self.tok = nn.Embedding(n_vocab, d_model)
        self.pos = nn.Embedding(max_len, d_model)
        self.layers = nn.ModuleList([DecoderLayer(d_model, n_heads) for _ in range(n_layers)])
        self.norm = nn.RMSNorm(d_model)
        self.head = nn.Linear(d_model, n_vocab, bias=False)
        self.head.weight = self.tok.weight
        self.max_len = max_len

    def forward(self, tokens, cache=None, pos=0):
        x = self.tok(tokens)
        B, S, D = x.shape
        x = x / math.sqrt(D)
        if pos == 0:
            x = x + self.pos(torch.arange(0, S, device=x.device))
            pos = S
        else:
            x = x + self.pos(torch.tensor(pos, device=tokens.device))
            pos += 1
        for i, layer in enumerate(self.layers):
            if isinstance(cache, list):
                x, k, v = layer(x, cache[i])
                cache[i] = [k, v]
            else:
                x, _, _ = layer(x, None)
        return self.head(self.norm(x)), pos

    @torch.no_grad()
    def generate(self, tokens, max_new_tokens):
        cache = [None] * len(self.layers)
        pos = 0
        for _ in range(max_new_tokens):
            if tokens.size(1) == self.max_len:
                return tokens
            step_input = tokens[:, -1:] if cache[0] is not None else tokens
            logits, pos = self(step_input, cache, pos)
            nxt = torch.argmax(logits[:, -1, :], dim=-1, keepdim=True)
            tokens = torch.hstack([tokens, nxt])
        return tokens
