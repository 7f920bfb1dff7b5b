import numpy as np
import torch


def get_attn_pad_mask(attention_mask: torch.Tensor) -> torch.Tensor:
    """attention_mask: (batch, seq), 1 on tokens and 0 on padding, as the tokenizer returns it.

    Returns (batch, seq, seq) with True on the padded keys of every query row.
    """
    batch_size, len_seq = attention_mask.size()
    pad = attention_mask.data.eq(0).unsqueeze(1)  # (batch, 1, seq)
    return pad.expand(batch_size, len_seq, len_seq)


def get_attn_subsequence_mask(seq: torch.Tensor, device) -> torch.Tensor:
    """(batch, seq, seq) uint8 upper triangle above the diagonal: 1 on the future keys."""
    attn_shape = [seq.size(0), seq.size(1), seq.size(1)]
    subsequence_mask = np.triu(np.ones(attn_shape), k=1)
    return torch.from_numpy(subsequence_mask).byte().to(device)
