import torch


def attend(q, k, v, attention_mask):
    # attention_mask: (B, S) long, 1 = token
    pad = (1 - attention_mask).bool()[:, None, None, :]
    s = q @ k.transpose(-1, -2) / q.size(-1) ** 0.5
    s = s.masked_fill(pad, torch.finfo(s.dtype).min)
    return s.softmax(-1) @ v


def run(tok, texts, q, k, v):
    return attend(q, k, v, tok(texts, return_tensors="pt", padding=True)["attention_mask"])
