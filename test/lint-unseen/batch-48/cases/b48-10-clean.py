# case: b48-10-clean
# modelled-on: OswaldHe/HMT-pytorch https://github.com/OswaldHe/HMT-pytorch/commit/177da4b7787557dd8475f9be62f09b5d19516cb7
# label: correct
# class: clean
# pattern: memory recall of a hierarchical memory transformer: one summary query per segment attends over the cached memory embeddings of earlier segments (single head, keys projected, the memories themselves used as values); the logits are divided by sqrt(hidden) for small models and by hidden itself when both widths are at least 4096 and the model is training, then normalised with a float32 softmax over the memory axis; an optional target distribution over the memories gives an auxiliary loss
# why: correct: for one query of width `hidden` against keys of width `hidden` the usual factor is 1/sqrt(hidden), and the code uses it in every small configuration; the 1/hidden branch is an explicit, width-gated choice for the large backbones (a colder softmax over a long list of memories, as in width-scaled parameterisations), not a slip; the softmax is over mem_len, the axis the product with the memories sums over
# looks-like: ATT004
# source: https://github.com/OswaldHe/HMT-pytorch https://github.com/OswaldHe/HMT-pytorch/commit/177da4b7787557dd8475f9be62f09b5d19516cb7 modeling_rmt/long_mem_cross_attn.py
import math
from typing import Optional

import torch
import torch.nn as nn
import torch.nn.functional as F


class MemoryRecall(nn.Module):
    """Retrieves a mixture of earlier segment memories for the current segment."""

    def __init__(self, dim: int, hidden: int, recent: int = 4):
        super().__init__()
        self.dim, self.hidden, self.recent = dim, hidden, recent
        self.to_query = nn.Linear(dim, hidden, bias=False, dtype=torch.bfloat16)
        self.to_key = nn.Linear(dim, hidden, bias=False, dtype=torch.bfloat16)

    def logits(self, summary: torch.Tensor, memories: torch.Tensor, generating: bool) -> torch.Tensor:
        q = self.to_query(summary)                  # (batch, 1, hidden)
        k = self.to_key(memories)                   # (batch, mem_len, hidden)
        raw = torch.bmm(q, k.transpose(1, 2))       # (batch, 1, mem_len)
        wide = self.dim >= 4096 and self.hidden >= 4096
        if wide and not generating:
            return raw / self.hidden
        return raw / math.sqrt(self.hidden)

    def forward(self, memories: Optional[torch.Tensor], summary: torch.Tensor, segment: int = 0,
                target: Optional[torch.Tensor] = None, generating: bool = False):
        if memories is None:
            return None, False, torch.zeros(())
        summary, memories = summary.bfloat16(), memories.bfloat16()
        weights = F.softmax(self.logits(summary, memories, generating).float(), dim=-1).type_as(summary)

        aux = torch.zeros((), device=summary.device)
        if target is not None:
            target = F.normalize(target[:, None, :].float(), p=1, dim=-1)
            aux = F.cross_entropy(weights.squeeze(1).float(), target.squeeze(1))

        distance = segment - weights.argmax(dim=-1).squeeze(-1)
        browse = bool((distance < self.recent).all())
        recalled = torch.bmm(weights, memories)     # (batch, 1, dim)
        return recalled, browse, aux
