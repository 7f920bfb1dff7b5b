from dataclasses import dataclass

import torch


@dataclass
class LayerCache:
    keys: torch.Tensor | None = None
    values: torch.Tensor | None = None

    def extend(self, k: torch.Tensor, v: torch.Tensor):
        if self.keys is None:
            self.keys, self.values = k, v
        else:
            self.keys = torch.cat([self.keys, k], dim=2)
            self.values = torch.cat([self.values, v], dim=2)
        return self.keys, self.values


def new_caches(n_layer: int) -> list[LayerCache]:
    return [LayerCache() for _ in range(n_layer)]
