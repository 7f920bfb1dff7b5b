import math
import torch
import torch.nn as nn


def softmax_kernel(data, projection, is_query, eps=1e-4):
    # data: (B, H, N, d); projection: (m, d)
    normalizer = data.shape[-1] ** -0.25
    ratio = projection.shape[0] ** -0.5
    dash = torch.einsum("bhnd,md->bhnm", data * normalizer, projection)
    diag = (data ** 2).sum(-1, keepdim=True) / 2.0 * normalizer ** 2
    if is_query:
        return ratio * (torch.exp(dash - diag - dash.amax(dim=-1, keepdim=True)) + eps)
    return ratio * (torch.exp(dash - diag - dash.amax()) + eps)


class FAVOR(nn.Module):
    def __init__(self, dim, heads, nb_features=256):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.register_buffer("proj", torch.randn(nb_features, dim // heads))

    def forward(self, x):
        B, N, D = x.shape
        q, k, v = self.qkv(x).view(B, N, 3, self.heads, D // self.heads).permute(2, 0, 3, 1, 4)
        qp = softmax_kernel(q, self.proj, True)
        kp = softmax_kernel(k, self.proj, False)
        kv = torch.einsum("bhnm,bhnd->bhmd", kp, v)
        den = 1.0 / torch.einsum("bhnm,bhm->bhn", qp, kp.sum(2))
        out = torch.einsum("bhnm,bhmd,bhn->bhnd", qp, kv, den)
        return out.transpose(1, 2).reshape(B, N, D)
