import torch
import torch.nn.functional as F


def nt_xent(z1, z2, T=0.5):
    # z1, z2: (N, D) embeddings of two views; T is the temperature
    z = F.normalize(torch.cat([z1, z2], dim=0), dim=1)  # (2N, D)
    sim = z @ z.t() / T
    n = z1.shape[0]
    sim.fill_diagonal_(float("-inf"))
    targets = torch.cat([torch.arange(n, 2 * n), torch.arange(0, n)]).to(z.device)
    return F.cross_entropy(sim, targets), sim.softmax(dim=-1)
