from dataclasses import dataclass, field

from torch import Tensor


@dataclass(frozen=True)
class SilenceHead:
    layer: int
    head: int


@dataclass
class Ablations:
    """Interventions applied while inspecting a trained model: switched-off heads."""

    items: list = field(default_factory=list)
    active: bool = True

    def head_gates(self, layer: int, heads_out: Tensor) -> Tensor:
        # heads_out: (batch, heads, tokens, head_dim), the per-head attention results before merging
        gates = heads_out.new_ones(heads_out.shape[1])
        for item in self.items:
            if isinstance(item, SilenceHead) and item.layer == layer:
                gates[item.head] = 0.0
        return heads_out * gates.view(1, -1, 1, 1)
