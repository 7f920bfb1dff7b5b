import torch


class KVCache:
    def __init__(self, B, H, max_len, d, device=None):
        self.k = torch.zeros(B, H, max_len, d, device=device)
        self.v = torch.zeros(B, H, max_len, d, device=device)
        self.pos = 0

    def update(self, k, v):
        T = k.size(2)
        self.k[:, :, self.pos : self.pos + T] = k
        self.v[:, :, self.pos : self.pos + T] = v
        self.pos += T
        return self.k[:, :, : self.pos], self.v[:, :, : self.pos]
