import torch


def attend(query, keys, values):
    # query: (B, d); keys, values: (S, B, d) -- sequence-major
    scores = (keys * query.unsqueeze(0)).sum(-1)  # (S, B)
    w = torch.softmax(scores, dim=0)  # over S
    return (w.unsqueeze(-1) * values).sum(0)
