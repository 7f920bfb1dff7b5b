import torch


def src_allow_mask(src_ids, pad_id):
    # [B, S] -> [B, 1, 1, S], True = token, False = pad
    return (src_ids != pad_id).unsqueeze(1).unsqueeze(2)


def tgt_allow_mask(tgt_ids, pad_id):
    pad_allow = (tgt_ids != pad_id).unsqueeze(1).unsqueeze(2)  # [B, 1, 1, T]
    T = tgt_ids.size(1)
    causal = torch.tril(torch.ones((T, T), device=tgt_ids.device, dtype=torch.bool)).unsqueeze(0)  # [1, T, T]
    return pad_allow & causal  # [B, 1, T, T], True = allow
