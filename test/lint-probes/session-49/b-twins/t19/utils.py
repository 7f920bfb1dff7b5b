import torch


def lengths_to_padding_mask(lens):
    bsz, max_lens = lens.size(0), int(torch.max(lens).item())
    mask = torch.arange(max_lens, device=lens.device).type_as(lens).view(1, max_lens)
    mask = mask.expand(bsz, -1) < lens.view(bsz, 1).expand(-1, max_lens)
    return mask
