"""Architecture constants shared by the model, the trainer and the sampler."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path


@dataclass(frozen=True)
class ModelSettings:
    vocab_size: int
    context: int = 256
    layers: int = 6
    heads: int = 6
    width: int = 384
    dropout: float = 0.1

    def __post_init__(self) -> None:
        if self.width % self.heads:
            raise ValueError(f"width {self.width} is not a multiple of heads {self.heads}")

    @property
    def head_width(self) -> int:
        return self.width // self.heads

    def dump(self, path: Path) -> None:
        path.write_text(json.dumps(asdict(self), indent=2))
