import torch
from torch.nn.functional import pad


def square_subsequent_mask(size):
    """Additive causal mask: 0.0 where a query may look, -inf above the diagonal."""
    allowed = (torch.triu(torch.ones((size, size))) == 1).transpose(0, 1)
    return allowed.float().masked_fill(allowed == 0, float("-inf")).masked_fill(allowed == 1, float(0.0))


def collate_pairs(batch, max_pad=64):
    src_list, tgt_list, src_masks, tgt_masks = [], [], [], []
    for src, tgt in batch:
        src_padded = pad(src, (0, max_pad - len(src)))
        tgt_padded = pad(tgt, (0, max_pad - len(tgt)))
        src_list.append(src_padded)
        tgt_list.append(tgt_padded)
        src_masks.append(torch.zeros((src_padded.shape[0], src_padded.shape[0])).type(torch.bool))
        tgt_masks.append(square_subsequent_mask(tgt_padded.shape[0]))
    return torch.stack(src_list), torch.stack(tgt_list), torch.stack(src_masks), torch.stack(tgt_masks)
