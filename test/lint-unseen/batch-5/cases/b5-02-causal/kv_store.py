import torch


class LayerKVStore:
    """Keys and values of every layer seen so far, (batch, kv_heads, positions, head_dim)."""

    def __init__(self) -> None:
        self._layers: dict[int, tuple[torch.Tensor, torch.Tensor]] = {}

    @property
    def length(self) -> int:
        if not self._layers:
            return 0
        keys, _ = next(iter(self._layers.values()))
        return keys.shape[2]

    def append(self, layer: int, k: torch.Tensor, v: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        if layer in self._layers:
            old_k, old_v = self._layers[layer]
            k = torch.cat([old_k, k], dim=2)
            v = torch.cat([old_v, v], dim=2)
        self._layers[layer] = (k, v)
        return k, v
