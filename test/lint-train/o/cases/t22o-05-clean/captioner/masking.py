import torch


def prefix_causal_mask(num_img_patches, text_token_len):
    """1 where a position may attend, 0 where it may not: the image patches see each
    other freely, text tokens see the image and the text before them."""
    total = num_img_patches + text_token_len
    mask = torch.tril(torch.ones(total, total))
    mask[:num_img_patches, :num_img_patches] = 1
    return mask.unsqueeze(0).unsqueeze(0)
