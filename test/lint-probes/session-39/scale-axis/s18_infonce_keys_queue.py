import torch
import torch.nn as nn
import torch.nn.functional as F


class MoCoHead(nn.Module):
    def __init__(self, dim=128, K=4096, T=0.07):
        super().__init__()
        self.T = T
        self.register_buffer("queue", F.normalize(torch.randn(dim, K), dim=0))

    def forward(self, q, k):
        # q, k: (N, dim) unit vectors from the two encoders
        l_pos = torch.einsum("nc,nc->n", q, k).unsqueeze(-1)  # (N, 1)
        l_neg = torch.einsum("nc,ck->nk", q, self.queue.clone().detach())  # (N, K)
        logits = torch.cat([l_pos, l_neg], dim=1) / self.T
        p = F.softmax(logits, dim=1)
        labels = torch.zeros(logits.shape[0], dtype=torch.long, device=q.device)
        return F.cross_entropy(logits, labels), p
