import torch


def subsequent_mask(size):
    attn_shape = (1, size, size)
    upper = torch.triu(torch.ones(attn_shape), diagonal=1).type(torch.uint8)
    return upper == 0  # True where the key is not in the future


def attention(query, key, value, mask):
    d_k = query.size(-1)
    scores = torch.matmul(query, key.transpose(-2, -1)) / d_k**0.5
    scores = scores.masked_fill(mask == 0, -1e9)
    return torch.softmax(scores, dim=-1) @ value


def decode(q, k, v, tgt, pad):
    tgt_mask = (tgt != pad).unsqueeze(-2) & subsequent_mask(tgt.size(-1))
    return attention(q, k, v, tgt_mask)
