import torch


def attention(q, k, v, seq):
    # seq: (B, T) token ids, 0 = pad
    mask = seq > 0  # True at tokens
    s = torch.matmul(q, k.transpose(-1, -2)) / q.size(-1) ** 0.5
    s = s.masked_fill(mask.unsqueeze(1) == False, float("-inf"))  # noqa: E712
    return torch.matmul(torch.softmax(s, -1), v)
