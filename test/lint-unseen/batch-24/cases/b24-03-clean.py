# case: b24-03-clean
# modelled-on: t-ishii66/tiny-llm https://github.com/t-ishii66/tiny-llm/commit/291f8be13a2d42287f53022cfd0fbf7b52df061d
# label: correct
# class: clean
# pattern: a teaching transformer written as plain functions over raw weight tensors (no nn.Module attention): self_attention(x, Wq, Wk, Wv, Wo) splits heads with view + transpose, divides Q @ K.transpose(-2, -1) by math.sqrt(head_dim), builds torch.triu(torch.ones(T, T), diagonal=1).bool() and fills True with -inf, softmax over dim=-1
# why: correct: triu with diagonal=1 is True strictly above the diagonal, i.e. on future keys, and masked_fill fills True, so each token sees itself and its past; no row is fully masked, so -inf is safe; head_dim = D // N_HEADS is the per-head width
# looks-like: ATT002, ATT007, ATT008
# source: https://github.com/t-ishii66/tiny-llm https://github.com/t-ishii66/tiny-llm/commit/291f8be13a2d42287f53022cfd0fbf7b52df061d tiny_llm.py
import math

import torch
import torch.nn.functional as F

D_MODEL = 64
N_HEADS = 4
N_LAYERS = 2


def init(*shape):
    return (torch.randn(*shape) * 0.02).requires_grad_()


def make_layer():
    return {
        "wq": init(D_MODEL, D_MODEL),
        "wk": init(D_MODEL, D_MODEL),
        "wv": init(D_MODEL, D_MODEL),
        "wo": init(D_MODEL, D_MODEL),
        "w1": init(D_MODEL, 4 * D_MODEL),
        "w2": init(4 * D_MODEL, D_MODEL),
    }


def norm(x, eps=1e-5):
    mu = x.mean(dim=-1, keepdim=True)
    var = x.var(dim=-1, keepdim=True, unbiased=False)
    return (x - mu) / torch.sqrt(var + eps)


def causal_attention(x, wq, wk, wv, wo):
    b, t, d = x.shape
    hd = d // N_HEADS
    q = (x @ wq).view(b, t, N_HEADS, hd).transpose(1, 2)
    k = (x @ wk).view(b, t, N_HEADS, hd).transpose(1, 2)
    v = (x @ wv).view(b, t, N_HEADS, hd).transpose(1, 2)

    scores = (q @ k.transpose(-2, -1)) / math.sqrt(hd)  # (b, heads, t, t)
    # 1 above the diagonal: a later token, which this one may not see
    future = torch.triu(torch.ones(t, t), diagonal=1).bool()
    scores = scores.masked_fill(future, float("-inf"))
    weights = F.softmax(scores, dim=-1)

    out = (weights @ v).transpose(1, 2).contiguous().view(b, t, d)
    return out @ wo


def block(x, p):
    x = x + causal_attention(norm(x), p["wq"], p["wk"], p["wv"], p["wo"])
    return x + F.relu(norm(x) @ p["w1"]) @ p["w2"]


def forward(tokens, tok_emb, pos_emb, layers):
    t = tokens.shape[1]
    x = tok_emb[tokens] + pos_emb[:t]
    for p in layers:
        x = block(x, p)
    return norm(x) @ tok_emb.T
