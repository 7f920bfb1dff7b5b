import torch


class RollingKV:
    """One layer's cache: keeps the first `sink` tokens and the last `window` tokens; tensors are (B, H, T, D)."""

    def __init__(self, window: int, sink: int = 0):
        self.window = window
        self.sink = sink
        self.k = None
        self.v = None

    def step(self, k_new, v_new):
        if self.k is None:
            self.k, self.v = k_new, v_new
        else:
            self.k = torch.cat([self.k, k_new], dim=2)
            self.v = torch.cat([self.v, v_new], dim=2)
        if self.k.size(2) > self.window + self.sink:
            tail_k, tail_v = self.k[:, :, -self.window:, :], self.v[:, :, -self.window:, :]
            if self.sink > 0:
                self.k = torch.cat([self.k[:, :, :self.sink, :], tail_k], dim=2)
                self.v = torch.cat([self.v[:, :, :self.sink, :], tail_v], dim=2)
            else:
                self.k, self.v = tail_k, tail_v
        return self.k, self.v


class LayerwiseKV:
    def __init__(self, n_layer: int, window: int, sink: int = 0):
        self.layers = [RollingKV(window, sink) for _ in range(n_layer)]

    def get(self, layer_idx: int):
        kv = self.layers[layer_idx]
        if kv.k is None or kv.v is None:
            return None
        return kv.k, kv.v

    @torch.no_grad()
    def append(self, layer_idx: int, k_new, v_new):
        return self.layers[layer_idx].step(k_new, v_new)
