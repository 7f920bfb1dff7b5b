import torch


def tree_verify(q, k_cache, v_cache, k_tree, v_tree, tree_mask):
    # q: (B, H, N, D) for N tree nodes; tree_mask: (N, N) bool, ancestors of each node
    P = k_cache.shape[2]
    N = q.shape[2]
    k = torch.cat([k_cache, k_tree], dim=2)
    v = torch.cat([v_cache, v_tree], dim=2)
    full = torch.cat([torch.ones(N, P, dtype=torch.bool, device=q.device), tree_mask], dim=1)
    s = q @ k.transpose(-1, -2) * q.shape[-1] ** -0.5
    s = s.masked_fill(~full, float("-inf"))
    return s.softmax(-1) @ v
