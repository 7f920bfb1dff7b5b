from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class HeadCache:
    """Keys and values of one head so far, each (batch, past_steps, head_size)."""

    key: np.ndarray
    value: np.ndarray

    @property
    def length(self) -> int:
        return int(self.key.shape[1])
