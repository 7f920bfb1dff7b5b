# case: b21-06-clean
# modelled-on: jeannineshiu/sequential-rec-from-sasrec-to-tiger https://github.com/jeannineshiu/sequential-rec-from-sasrec-to-tiger/commit/1d30ee2b5669dd46c91573feb8c3abbcab635458
# label: correct
# class: clean
# pattern: a generative sequential recommender (semantic-ID tokens) on nn.MultiheadAttention(batch_first=True): the masks come from another module as bool "True = blocked" tensors (triu(ones, diagonal=1) causal, tokens == 0 key padding) and go to attn_mask= and key_padding_mask=; padded query rows are zeroed with masked_fill after each layer; a cached scorer keeps each layer's history keys/values (projected with slices of in_proj_weight), then scores candidate tokens [B, C, S] against the cached history and against their own keys with two einsums scaled by (hidden // heads) ** -0.5, masks the history part with the padding mask and the new part with triu(ones, diagonal=1) (both masked_fill(..., -inf)), and softmaxes the concatenation over the last axis before splitting the weights back onto the two value sets
# why: correct: PyTorch's boolean attn_mask and key_padding_mask both mean True = not allowed, which is what build_masks returns; in the cached path the candidates come after the whole history, so they see every non-padding history key plus their own earlier tokens (triu with diagonal=1 blocks only the future, the diagonal stays, no row is all -inf); the softmax over the concatenated key axis normalises history and new keys together; the scale is per head
# looks-like: ATT001, ATT002, ATT007, ATT008
# source: https://github.com/jeannineshiu/sequential-rec-from-sasrec-to-tiger https://github.com/jeannineshiu/sequential-rec-from-sasrec-to-tiger/commit/1d30ee2b5669dd46c91573feb8c3abbcab635458 src/models/genrec.py
import torch
import torch.nn as nn

from recgen.masks import build_masks


class TokenRecommender(nn.Module):
    def __init__(self, vocab, hidden=64, heads=2, blocks=2, dropout=0.2):
        super().__init__()
        self.hidden = hidden
        self.tok = nn.Embedding(vocab, hidden, padding_idx=0)
        self.attn_norms = nn.ModuleList([nn.LayerNorm(hidden, eps=1e-8) for _ in range(blocks)])
        self.attns = nn.ModuleList(
            [nn.MultiheadAttention(hidden, heads, dropout=dropout, batch_first=True) for _ in range(blocks)]
        )
        self.ffns = nn.ModuleList([nn.Sequential(nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, hidden)) for _ in range(blocks)])
        self.last_norm = nn.LayerNorm(hidden, eps=1e-8)

    def _heads(self, x):
        *lead, T, D = x.shape
        h = self.attns[0].num_heads
        return x.reshape(*lead, T, h, D // h).transpose(-3, -2)

    def _proj(self, layer, x, part):
        D = self.hidden
        i = {"q": 0, "k": 1, "v": 2}[part]
        return nn.functional.linear(x, layer.in_proj_weight[i * D:(i + 1) * D], layer.in_proj_bias[i * D:(i + 1) * D])

    def encode(self, tokens, keep_cache=False):
        causal_mask, key_padding_mask = build_masks(tokens)
        seqs = self.tok(tokens) * (self.hidden ** 0.5)
        seqs = seqs.masked_fill(key_padding_mask.unsqueeze(-1), 0.0)
        cache = []
        for norm, attn, ffn in zip(self.attn_norms, self.attns, self.ffns):
            if keep_cache:
                cache.append((self._heads(self._proj(attn, seqs, "k")), self._heads(self._proj(attn, seqs, "v"))))
            q = norm(seqs)
            out, _ = attn(q, seqs, seqs, attn_mask=causal_mask, key_padding_mask=key_padding_mask, need_weights=False)
            seqs = ffn(q + out)
            # a query at a padding position attends to nothing; overwrite its row with zeros
            seqs = seqs.masked_fill(key_padding_mask.unsqueeze(-1), 0.0)
        return self.last_norm(seqs), cache, key_padding_mask

    @torch.no_grad()
    def score_candidates(self, history, candidates):
        """candidates: [B, C, S] tokens appended after the cached history -> [B, C, S, D]."""
        _, cache, key_padding_mask = self.encode(history, keep_cache=True)
        B, C, S = candidates.shape
        T = history.shape[1]
        seqs = self.tok(candidates) * (self.hidden ** 0.5)
        history_mask = key_padding_mask.view(B, 1, 1, 1, T)
        self_mask = torch.triu(torch.ones(S, S, device=candidates.device, dtype=torch.bool), diagonal=1)
        scale = (self.hidden // self.attns[0].num_heads) ** -0.5

        for i, (norm, attn, ffn) in enumerate(zip(self.attn_norms, self.attns, self.ffns)):
            k_hist, v_hist = cache[i]  # [B, H, T, dh]
            k_new = self._heads(self._proj(attn, seqs, "k"))  # [B, C, H, S, dh]
            v_new = self._heads(self._proj(attn, seqs, "v"))
            q = self._heads(self._proj(attn, norm(seqs), "q"))

            s_hist = torch.einsum("bchsd,bhtd->bchst", q, k_hist) * scale
            s_hist = s_hist.masked_fill(history_mask, float("-inf"))
            s_new = torch.einsum("bchsd,bchtd->bchst", q, k_new) * scale
            s_new = s_new.masked_fill(self_mask.view(1, 1, 1, S, S), float("-inf"))

            w = torch.softmax(torch.cat([s_hist, s_new], dim=-1), dim=-1)
            mixed = torch.einsum("bchst,bhtd->bchsd", w[..., :T], v_hist)
            mixed = mixed + torch.einsum("bchst,bchtd->bchsd", w[..., T:], v_new)
            mixed = attn.out_proj(mixed.transpose(-3, -2).reshape(B, C, S, self.hidden))
            seqs = ffn(norm(seqs) + mixed)
        return self.last_norm(seqs)
