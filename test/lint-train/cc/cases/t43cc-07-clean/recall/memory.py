from typing import List, Optional, Tuple

import torch


class PagedExactMemory:
    """Exact key/value pages per sample; retrieval pads the batch to the longest hit list."""

    def __init__(self, heads: int, d_head: int):
        self.heads = heads
        self.d_head = d_head
        self.pages: List[List[Tuple[torch.Tensor, torch.Tensor]]] = []

    def append(self, sample_idx: int, key: torch.Tensor, value: torch.Tensor) -> None:
        while len(self.pages) <= sample_idx:
            self.pages.append([])
        self.pages[sample_idx].append((key.detach(), value.detach()))

    def _search(self, sample_idx: int, max_tokens: int) -> Tuple[Optional[torch.Tensor], Optional[torch.Tensor]]:
        if sample_idx >= len(self.pages) or not self.pages[sample_idx]:
            return None, None
        keys = torch.cat([k for k, _ in self.pages[sample_idx]], dim=1)[:, -max_tokens:]
        values = torch.cat([v for _, v in self.pages[sample_idx]], dim=1)[:, -max_tokens:]
        return keys, values

    def retrieve(self, batch_size: int, device, dtype, max_tokens: int = 64):
        results = [self._search(i, max_tokens) for i in range(batch_size)]
        longest = max([0] + [k.shape[1] for k, _ in results if k is not None])
        if longest == 0:
            return None, None, None
        k_batch = torch.zeros(batch_size, self.heads, longest, self.d_head, device=device, dtype=dtype)
        v_batch = torch.zeros_like(k_batch)
        mask_batch = torch.zeros(batch_size, longest, device=device, dtype=torch.bool)
        for i, (k_out, v_out) in enumerate(results):
            if k_out is None:
                continue
            n = k_out.shape[1]
            k_batch[i, :, :n, :] = k_out
            v_batch[i, :, :n, :] = v_out
            mask_batch[i, :n] = True
        return k_batch, v_batch, mask_batch
