import torch
import torch.nn as nn


class HopfieldRetrieve(nn.Module):
    """Modern Hopfield update: xi_new = X softmax(beta X^T xi); beta is an inverse temperature, large on purpose."""

    def __init__(self, beta=8.0, steps=3):
        super().__init__()
        self.beta = beta
        self.steps = steps

    def forward(self, patterns, state):
        # patterns: (B, N, d) stored; state: (B, M, d) queries
        for _ in range(self.steps):
            p = torch.softmax(self.beta * state @ patterns.transpose(1, 2), dim=-1)  # (B, M, N)
            state = p @ patterns
        return state
