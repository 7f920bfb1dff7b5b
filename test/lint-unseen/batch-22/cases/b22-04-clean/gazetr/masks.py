import torch

DEVICE = torch.device("cuda" if torch.cuda.is_available() else "cpu")


def square_subsequent_mask(sz):
    allowed = (torch.triu(torch.ones((sz, sz), device=DEVICE)) == 1).transpose(0, 1)
    return allowed.float().masked_fill(allowed == 0, float("-inf")).masked_fill(allowed == 1, float(0.0))


def create_mask(src, tgt, pad_idx):
    """src: (S, B) and tgt: (T, B) fixation indices, sequence first."""
    src_len = src.shape[0]
    tgt_len = tgt.shape[0]
    tgt_mask = square_subsequent_mask(tgt_len)
    src_mask = torch.zeros((src_len, src_len), device=DEVICE).type(torch.bool)
    src_padding_mask = (src == pad_idx).transpose(0, 1)
    tgt_padding_mask = (tgt == pad_idx).transpose(0, 1)
    return src_mask, tgt_mask, src_padding_mask, tgt_padding_mask
