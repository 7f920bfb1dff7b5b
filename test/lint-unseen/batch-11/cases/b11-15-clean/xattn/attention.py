from math import sqrt

import torch
import torch.nn as nn


class Attention(nn.Module):
    def forward(self, Q, K, V):
        # Q: (B, H, Sq, W), K and V: (B, H, Sk, W)
        attention = torch.matmul(Q, torch.transpose(K, -1, -2))
        attention = torch.softmax(attention / sqrt(Q.size(-1)), dim=-1)
        return torch.matmul(attention, V)
