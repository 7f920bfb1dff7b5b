import torch
import torch.nn as nn


def iterative_inv(mat, n_iter=6):
    # Newton-Schulz pseudo-inverse of a (B, H, m, m) softmax kernel: the constants are the iteration's, not a scale.
    I = torch.eye(mat.size(-1), device=mat.device)
    K = mat
    V = 1 / (torch.max(torch.sum(K, dim=-2)) * torch.max(torch.sum(K, dim=-1))) * K.transpose(-1, -2)
    for _ in range(n_iter):
        KV = torch.matmul(K, V)
        V = torch.matmul(0.25 * V, 13 * I - torch.matmul(KV, 15 * I - torch.matmul(KV, 7 * I - KV)))
    return V


class NystromAttention(nn.Module):
    def __init__(self, dim, heads, num_landmarks=64):
        super().__init__()
        self.heads = heads
        self.m = num_landmarks
        self.head_dim = dim // heads
        self.qkv = nn.Linear(dim, 3 * dim)

    def forward(self, x):
        B, N, D = x.shape
        q, k, v = self.qkv(x).view(B, N, 3, self.heads, self.head_dim).permute(2, 0, 3, 1, 4)
        q = q / self.head_dim ** 0.5
        q_l = q.reshape(B, self.heads, self.m, N // self.m, self.head_dim).mean(dim=-2)
        k_l = k.reshape(B, self.heads, self.m, N // self.m, self.head_dim).mean(dim=-2)
        kernel_1 = torch.softmax(q @ k_l.transpose(-1, -2), dim=-1)  # (B, H, N, m)
        kernel_2 = torch.softmax(q_l @ k_l.transpose(-1, -2), dim=-1)  # (B, H, m, m)
        kernel_3 = torch.softmax(q_l @ k.transpose(-1, -2), dim=-1)  # (B, H, m, N)
        out = (kernel_1 @ iterative_inv(kernel_2)) @ (kernel_3 @ v)
        return out.transpose(1, 2).reshape(B, N, D)
