"""Hyper-parameters of the norm-free story model."""

from dataclasses import dataclass


@dataclass
class ArchConfig:
    vocab_size: int = 4096
    context: int = 128
    depth: int = 8
    heads: int = 2
    width: int = 256
    dropout: float = 0.1
    # penalty on pre-sigmoid scores outside [logit_low, logit_high]; 0 turns it off
    logit_low: float = -50.0
    logit_high: float = 10.0
    logit_penalty: float = 1.0

    @property
    def head_width(self) -> int:
        if self.width % self.heads:
            raise ValueError(f"width {self.width} must split evenly over {self.heads} heads")
        return self.width // self.heads

    @property
    def mlp_width(self) -> int:
        return 4 * self.width
