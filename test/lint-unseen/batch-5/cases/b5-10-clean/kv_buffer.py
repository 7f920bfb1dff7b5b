import torch


class GrowingKVBuffer:
    """One preallocated (layers, 2, B, H, T, D) buffer; `pos` is the number of positions written."""

    def __init__(self, batch, heads, length, head_dim, layers):
        self.shape = (layers, 2, batch, heads, length, head_dim)
        self.data = None
        self.pos = 0

    def write(self, layer, k, v):
        if self.data is None:
            self.data = torch.empty(self.shape, dtype=k.dtype, device=k.device)
        n_new = k.size(2)
        start, end = self.pos, self.pos + n_new
        if end > self.data.shape[-2]:
            grown = list(self.data.shape)
            grown[-2] = (end + 1024 + 1023) & ~1023
            self.data.resize_(grown)
        self.data[layer, 0, :, :, start:end, :] = k
        self.data[layer, 1, :, :, start:end, :] = v
        if layer == self.data.size(0) - 1:
            self.pos = end
        # every position written so far, the new ones last
        return self.data[layer, 0, :, :, :end, :], self.data[layer, 1, :, :, :end, :]
