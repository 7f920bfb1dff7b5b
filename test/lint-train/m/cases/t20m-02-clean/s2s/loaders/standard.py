import numpy as np
import torch


def paired_collate_fn(insts):
    src_insts, tgt_insts = list(zip(*insts))

    src_max_len = max(len(inst) for inst in src_insts)
    src_lengths = torch.tensor([len(inst) for inst in src_insts], dtype=torch.long)
    src = torch.tensor(np.array([inst + [0] * (src_max_len - len(inst)) for inst in src_insts]), dtype=torch.long)
    src_mask = torch.tensor(np.array([[1] * len(inst) + [0] * (src_max_len - len(inst)) for inst in src_insts]), dtype=torch.long)

    # sorted by length for pack_padded_sequence in the encoder
    src_lengths, perm = src_lengths.sort(0, descending=True)
    src, src_mask = src[perm], src_mask[perm]

    tgt_max_len = max(len(inst) for inst in tgt_insts)
    tgt = torch.tensor(np.array([inst + [0] * (tgt_max_len - len(inst)) for inst in tgt_insts]), dtype=torch.long)[perm]
    return (src, src_lengths, src_mask), tgt
