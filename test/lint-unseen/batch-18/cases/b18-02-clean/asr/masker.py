import torch
from torch.nn.utils.rnn import pad_sequence


class Masker:
    """Masks from lengths: 1 = real frame / token, 0 = padding."""

    @classmethod
    def from_lengths(cls, lengths):
        mask = pad_sequence([torch.ones(n) for n in lengths.tolist()], batch_first=True)
        return mask.to(lengths.device).detach()

    @classmethod
    def pair_mask(cls, query_mask, key_mask):
        # (B, Lq, 1) @ (B, 1, Lk) -> (B, Lq, Lk), 1 where both positions are real
        return query_mask.unsqueeze(-1) @ key_mask.unsqueeze(1)

    @classmethod
    def forward_mask(cls, pair):
        return torch.tril(pair)
