import torch


class KVCache:
    def __init__(self, n_layers, max_batch, max_len, n_kv_heads, head_dim, device):
        shape = (n_layers, max_batch, n_kv_heads, max_len, head_dim)
        self.k = torch.zeros(shape, dtype=torch.float, device=device)
        self.v = torch.zeros(shape, dtype=torch.float, device=device)

    def update(self, layer, start, xk, xv):
        # xk, xv: (bs, n_kv_heads, n, head_dim) written at [start, start + n)
        bs, _, n, _ = xk.shape
        self.k[layer, :bs, :, start : start + n, :] = xk
        self.v[layer, :bs, :, start : start + n, :] = xv
        return self.k[layer, :bs, :, : start + n, :], self.v[layer, :bs, :, : start + n, :]
