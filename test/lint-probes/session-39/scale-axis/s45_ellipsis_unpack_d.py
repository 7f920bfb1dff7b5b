import torch


def attend(q, k, v, bias=None):
    # q: (..., i, d), k, v: (..., j, d) whatever the leading axes
    *_, d = q.shape
    sim = torch.einsum("...id,...jd->...ij", q, k) / (d ** 0.5)
    if bias is not None:
        sim = sim + bias
    return torch.einsum("...ij,...jd->...id", sim.softmax(dim=-1), v)
