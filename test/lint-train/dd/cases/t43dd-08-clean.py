# case: t43dd-08-clean
# modelled-on: pfrwilson/miniGPT https://github.com/pfrwilson/miniGPT/commit/1812d733b1871f5124bbe7d47ef6d2c386619b60
# label: correct
# class: clean
# pattern: multi-head self-attention with learned relative position embeddings on keys and values (Shaw et al.): keys rearranged straight to `b h d_k n` by einops, `Q @ K_t + A_k` scaled by `1 / sqrt(d_k)`, masked in place by `scores[mask == 0] = -1e10` with the mask a causal `tril(ones(N, N))` repeated to (B, heads, N, N) by the model, `softmax(-1)`, and the value term `(attn[..., None] * A_v).sum(-2)` with A_v laid out `b h n_out n_in d`
# why: correct: `K_t` already has the tokens last, so `Q @ K_t` is (b, h, n_out, n_in) and softmax(-1) is over the keys; in the relative value term the weights broadcast as (b, h, n_out, n_in, 1) against A_v (b, h, n_out, n_in, d), so `.sum(-2)` sums over n_in, the key axis, as a product with values must; the tril mask is 1 where attention is allowed and `mask == 0` selects the future; -1e10 in fp32 gives weight 0
# looks-like: ATT001, ATT002, ATT005, ATT007
# source: https://github.com/pfrwilson/miniGPT https://github.com/pfrwilson/miniGPT/commit/1812d733b1871f5124bbe7d47ef6d2c386619b60 models/transformer.py
import einops
import torch
from torch import nn

BIG = torch.tensor(1e10)


class RelPosSelfAttention(nn.Module):
    def __init__(self, d_model, n_heads, max_distance=512):
        super().__init__()
        self.n_heads = n_heads
        self.d_k = d_model // n_heads
        self.d_v = d_model // n_heads
        self.W_q = nn.Linear(d_model, d_model)
        self.W_k = nn.Linear(d_model, d_model)
        self.W_v = nn.Linear(d_model, d_model)
        self.W_o = nn.Linear(d_model, d_model)
        self.scale = 1 / torch.sqrt(torch.tensor(self.d_k).float())
        self.max_distance = max_distance
        self.n_rel = 2 * max_distance - 1
        self.P_k = nn.Parameter(torch.randn(self.n_rel, n_heads))
        self.P_v = nn.Parameter(torch.randn(self.n_rel, n_heads, self.d_v))

    def rel_tables(self, n):
        mid = self.n_rel // 2
        rows_k = [self.P_k[mid - i : mid + n - i] for i in range(n)]
        rows_v = [self.P_v[mid - i : mid + n - i] for i in range(n)]
        return torch.stack(rows_k), torch.stack(rows_v)

    def forward(self, X, mask=None):
        B, n, _ = X.shape
        Q = einops.rearrange(self.W_q(X), "b n (h d_k) -> b h n d_k", d_k=self.d_k)
        K_t = einops.rearrange(self.W_k(X), "b n (h d_k) -> b h d_k n", d_k=self.d_k)
        V = einops.rearrange(self.W_v(X), "b n (h d_v) -> b h n d_v", d_v=self.d_v)

        A_k, A_v = self.rel_tables(n)
        A_k = einops.rearrange(einops.repeat(A_k, "n_out n_in h -> b n_out n_in h", b=B), "b n_out n_in h -> b h n_out n_in")
        scores = (Q @ K_t + A_k) * self.scale
        if mask is not None:
            scores[mask == 0] = -BIG.type(scores.dtype)
        attn = scores.softmax(-1)

        out = attn @ V
        A_v = einops.rearrange(einops.repeat(A_v, "n_out n_in h d -> b n_out n_in h d", b=B), "b n_out n_in h d -> b h n_out n_in d")
        w = einops.repeat(attn, "b h n_out n_in -> b h n_out n_in 1")
        out = out + (w * A_v).sum(-2)
        return self.W_o(einops.rearrange(out, "b h n d_v -> b n (h d_v)"))


class CharGenerator(nn.Module):
    def __init__(self, vocab, n_layers, n_heads, d_model, max_len=500):
        super().__init__()
        self.n_heads = n_heads
        self.emb = nn.Embedding(vocab, d_model)
        self.layers = nn.ModuleList(RelPosSelfAttention(d_model, n_heads, max_len) for _ in range(n_layers))
        self.norms = nn.ModuleList(nn.LayerNorm(d_model) for _ in range(n_layers))
        self.out = nn.Linear(d_model, vocab)

    def forward(self, tokens):
        B, N = tokens.shape
        mask = torch.tril(torch.ones(N, N)).repeat(B, self.n_heads, 1, 1)
        X = self.emb(tokens)
        for attn, norm in zip(self.layers, self.norms):
            X = norm(X + attn(X, mask))
        return self.out(X)
