import torch


def attend(q, k, v, attention_mask):
    # attention_mask: (B, S) 1 = token (tokenizer)
    bias = torch.where(attention_mask.bool(), 0.0, float("-inf"))[:, None, None, :]  # (B, 1, 1, S)
    s = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5 + bias
    return s.softmax(-1) @ v


def run(tok, texts, q, k, v):
    return attend(q, k, v, tok(texts, padding=True, return_tensors="pt")["attention_mask"])
