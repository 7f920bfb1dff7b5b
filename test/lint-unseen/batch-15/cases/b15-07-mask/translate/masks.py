import torch


def make_masks(src, tgt, pad_idx):
    # encoder side: hide padding keys; (batch, 1, 1, src_len)
    src_mask = (src != pad_idx).unsqueeze(1).unsqueeze(2)

    # target: hide padding and the tokens the decoder must not see yet
    tgt_len = tgt.size(1)
    tgt_padding = (tgt != pad_idx).unsqueeze(1).unsqueeze(3)  # (batch, 1, tgt_len, 1)
    look_ahead = torch.triu(torch.ones(tgt_len, tgt_len, device=tgt.device), diagonal=1).bool()
    look_ahead = look_ahead.unsqueeze(0).unsqueeze(0)  # (1, 1, tgt_len, tgt_len)
    tgt_mask = tgt_padding & look_ahead.expand(tgt_padding.size(0), -1, -1, -1)
    return src_mask, tgt_mask
