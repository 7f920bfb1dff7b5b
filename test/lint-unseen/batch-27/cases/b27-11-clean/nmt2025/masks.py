import torch


def generate_square_subsequent_mask(sz):
    """(sz, sz) bool: True strictly above the diagonal (future positions, to be hidden)."""
    return torch.triu(torch.ones(sz, sz, dtype=torch.bool), diagonal=1)


def create_mask(src, tgt, pad_idx):
    src_len, tgt_len = src.size(1), tgt.size(1)
    src_mask = torch.zeros((src_len, src_len), dtype=torch.bool)  # the encoder hides nothing
    tgt_mask = generate_square_subsequent_mask(tgt_len)
    src_padding_mask = src == pad_idx  # True on <pad>
    tgt_padding_mask = tgt == pad_idx
    return src_mask, tgt_mask, src_padding_mask, tgt_padding_mask
