import numpy as np
import torch


def build_masks(src_ids, tgt_ids, pad_id, device):
    """Keep-masks: True / 1 where a position may be attended to.

    src_keep: (B, 1, 1, S)   padding of the source
    tgt_keep: (B, 1, T, T)   padding of the target and no look-ahead (None at inference)
    """
    src_keep = (src_ids != pad_id)[:, None, None, :].to(device)
    if tgt_ids is None:
        return src_keep, None
    t = tgt_ids.size(1)
    # entries above the diagonal are the future; == 0 turns them into "not allowed"
    no_future = torch.from_numpy(np.triu(np.ones((1, 1, t, t)), k=1) == 0).to(device)
    tgt_keep = (tgt_ids != pad_id)[:, None, None, :].to(device) & no_future
    return src_keep, tgt_keep
