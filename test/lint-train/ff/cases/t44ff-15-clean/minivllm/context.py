from dataclasses import dataclass

import torch


@dataclass
class StepContext:
    is_prefill: bool = False
    cu_seqlens_q: torch.Tensor | None = None
    cu_seqlens_k: torch.Tensor | None = None
    max_seqlen_q: int = 0
    max_seqlen_k: int = 0
    slot_mapping: torch.Tensor | None = None
    context_lens: torch.Tensor | None = None
    block_tables: torch.Tensor | None = None
    sliding_window: int | None = None


_CTX = StepContext()


def current():
    return _CTX


def install(**fields):
    global _CTX
    _CTX = StepContext(**fields)


def clear():
    global _CTX
    _CTX = StepContext()
