import math
import torch


def read(query, memory):
    # query: (d,), memory: (S, d) -- one example, no batch
    scores = memory @ query / math.sqrt(query.shape[0])  # (S,)
    w = torch.softmax(scores, dim=0)
    return w @ memory  # (d,)
