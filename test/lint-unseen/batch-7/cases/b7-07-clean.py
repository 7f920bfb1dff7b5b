# case: b7-07-clean
# modelled-on: webmakin/build-gpt-from-scratch https://github.com/webmakin/build-gpt-from-scratch/commit/2363c2df0deabde80f9d1ac22bc7a4d577bb6ab9
# label: correct
# class: clean
# pattern: a book chapter on inference optimisation: an uncached reference attention with a triu(diagonal=1) buffer (True = blocked) sliced [:T, :T], and a cached attention that concatenates the cached keys and values, skips the mask for one new token and, for several new tokens after a cache, blocks j > T_past + i; a check decodes one token at a time and compares with the uncached output
# why: correct: the triu buffer is True above the diagonal and masked_fill fills where True; with a cache the new queries are offset by T_past (bottom-right), and a single new query may see every cached key
# looks-like: ATT002, ATT007, ATT008
# source: https://github.com/webmakin/build-gpt-from-scratch https://github.com/webmakin/build-gpt-from-scratch/commit/2363c2df0deabde80f9d1ac22bc7a4d577bb6ab9 code/chapter11/inference.py
import torch
import torch.nn as nn
import torch.nn.functional as F


class ReferenceAttention(nn.Module):
    def __init__(self, d_model, n_head, max_len):
        super().__init__()
        self.n_head, self.d_head = n_head, d_model // n_head
        self.qkv = nn.Linear(d_model, 3 * d_model, bias=False)
        self.out = nn.Linear(d_model, d_model, bias=False)
        self.register_buffer("blocked", torch.triu(torch.ones(max_len, max_len), diagonal=1).bool())

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.n_head, self.d_head).permute(2, 0, 3, 1, 4)
        scores = q @ k.transpose(-2, -1) / (self.d_head ** 0.5)  # (B, H, T, T)
        scores = scores.masked_fill(self.blocked[:T, :T], float("-inf"))
        w = F.softmax(scores, dim=-1)
        return self.out((w @ v).transpose(1, 2).reshape(B, T, C))


class KVCachedAttention(nn.Module):
    """x: [B, T_new, d_model], cache: {'k', 'v'} of [B, H, T_past, d_head] or None."""

    def __init__(self, d_model, n_head):
        super().__init__()
        self.n_head, self.d_head = n_head, d_model // n_head
        self.qkv = nn.Linear(d_model, 3 * d_model, bias=False)
        self.out = nn.Linear(d_model, d_model, bias=False)

    def forward(self, x, cache=None):
        B, T_new, C = x.shape
        q, k_new, v_new = self.qkv(x).view(B, T_new, 3, self.n_head, self.d_head).permute(2, 0, 3, 1, 4)
        if cache is not None:
            k = torch.cat([cache["k"], k_new], dim=2)
            v = torch.cat([cache["v"], v_new], dim=2)
        else:
            k, v = k_new, v_new
        new_cache = {"k": k.detach(), "v": v.detach()}
        T_total = k.size(2)
        scores = q @ k.transpose(-2, -1) / (self.d_head ** 0.5)  # (B, H, T_new, T_total)
        if T_new > 1:
            T_past = T_total - T_new
            i = torch.arange(T_new, device=x.device).unsqueeze(1)
            j = torch.arange(T_total, device=x.device).unsqueeze(0)
            scores = scores.masked_fill(j > T_past + i, float("-inf"))
        w = F.softmax(scores, dim=-1)
        return self.out((w @ v).transpose(1, 2).reshape(B, T_new, C)), new_cache


if __name__ == "__main__":
    torch.manual_seed(0)
    D, H, T = 64, 4, 32
    x = torch.randn(1, T, D)
    cached, ref = KVCachedAttention(D, H), ReferenceAttention(D, H, T)
    ref.load_state_dict(cached.state_dict(), strict=False)
    chunks, cache = [], None
    for t in range(T):
        y, cache = cached(x[:, t : t + 1], cache)
        chunks.append(y)
    print(torch.allclose(ref(x), torch.cat(chunks, dim=1), atol=1e-5))
