# case: b23-09-clean
# modelled-on: matiimonti/chess-transformer-ablation https://github.com/matiimonti/chess-transformer-ablation/commit/a86ff9e371186236574998121e6170340a92fd4c
# label: correct
# class: clean
# pattern: a chess-move GPT with a hand-written KV cache: the attention module in another file concatenates the cached keys and values before the new ones and calls a shared scaled-dot-product helper whose mask convention is True = blocked (masked_fill(mask == 1, -inf)); the causal mask is triu(ones, diagonal=1).bool(); the model passes that mask at prefill and mask=None when past_key_values are given, and generate() decodes one new token per step after the prefill
# why: correct: triu(diagonal=1) is True exactly on the future keys and the helper fills the True entries, so the polarity matches its convention; with a cache the only query is the newest token, whose keys (cache plus itself) are all in the past, so no mask is needed; the scale is 1/sqrt(head_dim) and the softmax is over the keys
# looks-like: ATT002, ATT004, ATT007, ATT008
# source: https://github.com/matiimonti/chess-transformer-ablation https://github.com/matiimonti/chess-transformer-ablation/commit/a86ff9e371186236574998121e6170340a92fd4c src/model.py
import torch
import torch.nn as nn
import torch.nn.functional as F

from chessabl.attention import MultiHeadAttention, causal_mask


class Block(nn.Module):
    def __init__(self, d_model, n_heads, dropout=0.1):
        super().__init__()
        self.ln1 = nn.LayerNorm(d_model)
        self.ln2 = nn.LayerNorm(d_model)
        self.attn = MultiHeadAttention(d_model, n_heads, dropout)
        self.ff = nn.Sequential(nn.Linear(d_model, 4 * d_model), nn.GELU(), nn.Linear(4 * d_model, d_model))

    def forward(self, x, mask=None, past_kv=None, use_cache=False):
        a, present = self.attn(self.ln1(x), mask=mask, past_kv=past_kv, use_cache=use_cache)
        x = x + a
        return x + self.ff(self.ln2(x)), present


class ChessGPT(nn.Module):
    def __init__(self, vocab_size, d_model=256, n_heads=8, n_layers=6, max_seq_len=512):
        super().__init__()
        self.max_seq_len = max_seq_len
        self.tok = nn.Embedding(vocab_size, d_model)
        self.pos = nn.Embedding(max_seq_len, d_model)
        self.blocks = nn.ModuleList([Block(d_model, n_heads) for _ in range(n_layers)])
        self.ln_f = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, vocab_size, bias=False)

    def forward(self, idx, past_key_values=None, use_cache=False):
        b, t = idx.shape
        past_len = past_key_values[0][0].size(2) if past_key_values is not None else 0
        # at decode time every cached token is in the past of the new one: no mask
        mask = None if past_key_values is not None else causal_mask(t, idx.device)
        pos = torch.arange(past_len, past_len + t, device=idx.device)
        x = self.tok(idx) + self.pos(pos)
        presents = []
        for i, block in enumerate(self.blocks):
            past = past_key_values[i] if past_key_values is not None else None
            x, present = block(x, mask=mask, past_kv=past, use_cache=use_cache)
            presents.append(present)
        return self.head(self.ln_f(x)), (presents if use_cache else None)

    @torch.no_grad()
    def generate(self, idx, max_new_tokens, temperature=1.0):
        past = None
        for _ in range(max_new_tokens):
            if past is None:
                logits, past = self(idx[:, -self.max_seq_len :], use_cache=True)  # prefill
            else:
                logits, past = self(idx[:, -1:], past_key_values=past, use_cache=True)  # one new token
            probs = F.softmax(logits[:, -1, :] / temperature, dim=-1)
            idx = torch.cat([idx, torch.multinomial(probs, num_samples=1)], dim=1)
        return idx
