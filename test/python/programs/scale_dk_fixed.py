import torch


def attention(q, k, v):
    d_k = q.size(-1)
    scores = torch.matmul(q, k.transpose(-2, -1))
    scores = scores / d_k ** 0.5
    return torch.matmul(torch.softmax(scores, dim=-1), v)


torch.manual_seed(0)
q, k, v = torch.randn(3, 1, 4, 5, 32).unbind(0)
print(attention(q, k, v).shape)
