import torch


def attend(q, k, v, attention_mask):
    # q, k, v: (B, H, T, D); attention_mask: (B, T) from the tokenizer
    is_pad = attention_mask.bool()[:, None, None, :]  # misnamed: True at the real tokens
    neg = torch.finfo(q.dtype).min
    s = q @ k.transpose(-1, -2) * q.size(-1) ** -0.5
    s = torch.where(is_pad, s, torch.full_like(s, neg))
    return s.softmax(-1) @ v


def run(tok, texts, q, k, v):
    enc = tok(texts, padding=True, return_tensors="pt")
    return attend(q, k, v, enc["attention_mask"])
