import torch

from .model import Captioner


@torch.no_grad()
def greedy_caption(model: Captioner, image_feature, bos_id: int, eos_id: int, pad_id: int, max_length: int = 40):
    caption = torch.full((1, max_length), pad_id, dtype=torch.long)
    caption[:, 0] = bos_id
    for i in range(max_length - 1):
        mask = torch.zeros((1, max_length), dtype=torch.bool)
        mask[:, i + 1 :] = True
        logits = model(image_feature, caption, mask)
        nxt = logits[:, i].argmax(-1)
        caption[:, i + 1] = nxt
        if nxt.item() == eos_id:
            break
    return caption
