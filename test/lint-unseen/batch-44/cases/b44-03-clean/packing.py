"""Packs EOS-terminated documents into fixed-length rows and builds masks that keep attention inside a document."""
from typing import Iterator, List, Tuple

import torch


def pack(docs: List[List[int]], row_len: int, eos: int) -> Iterator[Tuple[List[int], List[int]]]:
    tokens: List[int] = []
    segments: List[int] = []
    seg = 0
    for doc in docs:
        if not doc or doc[-1] != eos:
            doc = list(doc) + [eos]
        start = 0
        while start < len(doc):
            piece = doc[start : start + row_len - len(tokens)]
            tokens += piece
            segments += [seg] * len(piece)
            start += len(piece)
            if len(tokens) == row_len:
                yield tokens, segments
                tokens, segments, seg = [], [], 0
        seg += 1


def document_causal_mask(segments: torch.Tensor) -> torch.Tensor:
    """(B, S) segment ids -> (B, 1, S, S) bool, True where query i may read key j (same document, j <= i)."""
    if segments.dim() == 1:
        segments = segments[None]
    n = segments.size(1)
    same = segments[:, :, None] == segments[:, None, :]
    lower = torch.ones(n, n, dtype=torch.bool, device=segments.device).tril()
    return (same & lower)[:, None]


def collate(rows: List[Tuple[List[int], List[int]]]):
    ids = torch.tensor([r[0] for r in rows], dtype=torch.long)
    segs = torch.tensor([r[1] for r in rows], dtype=torch.long)
    return {"input_ids": ids, "attention_mask": document_causal_mask(segs)}
