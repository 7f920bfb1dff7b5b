import torch

from bench.dense import DenseSoftmax


def encode_pairs(tokenizer, firsts, seconds, max_len=256):
    enc = tokenizer(firsts, seconds, padding=True, truncation=True, max_length=max_len, return_tensors="pt")
    return enc["input_ids"], enc["attention_mask"]


def split_heads(x, heads):
    b, n, w = x.shape
    return x.view(b, n, heads, w // heads).transpose(1, 2)


@torch.no_grad()
def compare_layer(hidden, wq, wk, wv, keep, heads, approx):
    q, k, v = (split_heads(hidden @ w, heads) for w in (wq, wk, wv))
    exact = DenseSoftmax()(q, k, v, keep=keep)
    estimate = approx(q, k, v, keep)
    real = keep[:, None, :, None].to(exact.dtype)
    return ((exact - estimate).pow(2) * real).sum() / real.sum()
