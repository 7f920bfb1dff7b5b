import torch


def make_src_mask(src, pad_id):
    # [B, 1, 1, S], True means this source token can be attended to
    return (src != pad_id).unsqueeze(1).unsqueeze(2)


def make_causal_mask(seq_len, device):
    # [1, 1, T, T], True means the target position can attend to that key position
    return torch.tril(torch.ones(seq_len, seq_len, dtype=torch.bool, device=device)).unsqueeze(0).unsqueeze(0)


def make_tgt_mask(tgt_in, pad_id):
    tgt_pad_mask = (tgt_in != pad_id).unsqueeze(1).unsqueeze(2)  # [B, 1, 1, T]
    return tgt_pad_mask & make_causal_mask(tgt_in.size(1), tgt_in.device)  # [B, 1, T, T]
