import math

import torch


class DotAttention(torch.nn.Module):
    """One attention head over an unbatched (tokens, d_model) sequence, with an optional look-ahead mask."""

    def __init__(self, d_model=512, d_k=64, d_v=64, masking=False):
        super().__init__()
        self.d_k = d_k
        self.masking = masking
        self.to_q = torch.nn.Linear(d_model, d_k)
        self.to_k = torch.nn.Linear(d_model, d_k)
        self.to_v = torch.nn.Linear(d_model, d_v)
        self.softmax_fn = torch.nn.Softmax(dim=-1)

    @staticmethod
    def is_matrix(t):
        return len(list(t.shape)) > 1

    def forward(self, embeddings):
        Q = self.to_q(embeddings)
        K = self.to_k(embeddings)
        V = self.to_v(embeddings)
        if not self.masking:
            if self.is_matrix(K):
                return torch.matmul(self.softmax_fn(torch.div(torch.matmul(Q, torch.transpose(K, -2, -1)), math.sqrt(self.d_k))), V)
            # a single token: Q and K are vectors
            return torch.mul(self.softmax_fn(torch.div(torch.matmul(Q, K), math.sqrt(self.d_k))), V)
        rows, cols = Q.size(dim=0), K.size(dim=0)
        M = torch.zeros(rows, cols)  # look-ahead mask: -inf above the diagonal
        for r in range(rows):
            for c in range(r + 1, cols):
                M[r][c] = -float("inf")
        scores = torch.div(torch.add(torch.matmul(Q, torch.transpose(K, -2, -1)), M), math.sqrt(self.d_k))
        return torch.matmul(self.softmax_fn(scores), V)
