import torch.nn.functional as F

from .masks import create_mask


def training_step(model, src_pos, tgt_pos, pad_idx, to_features):
    tgt_input = tgt_pos[:-1, :]
    src_mask, tgt_mask, src_padding_mask, tgt_padding_mask = create_mask(src_pos, tgt_input, pad_idx)
    logits = model(
        to_features(src_pos), to_features(tgt_input), src_mask, tgt_mask, src_padding_mask, tgt_padding_mask, src_padding_mask
    )
    tgt_out = tgt_pos[1:, :]
    return F.cross_entropy(logits.reshape(-1, logits.shape[-1]), tgt_out.reshape(-1).long(), ignore_index=pad_idx)
