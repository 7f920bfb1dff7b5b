import torch


def collate(batch, pad_id: int, max_seq_len: int):
    """Pads captions to max_seq_len; the masks are named like HF's but are True on padding."""
    images, captions, attention_masks = [], [], []
    for image, tokens in batch:
        tokens = tokens[:max_seq_len]
        pad_starts = len(tokens)
        ids = torch.full((max_seq_len,), pad_id, dtype=torch.long)
        ids[:pad_starts] = torch.as_tensor(tokens)
        mask = torch.zeros(max_seq_len, dtype=torch.bool)
        if pad_starts < max_seq_len:
            mask[pad_starts:] = True
        images.append(image)
        captions.append(ids)
        attention_masks.append(mask)
    return {
        "images": torch.stack(images),
        "captions": torch.stack(captions),
        "attention_masks": torch.stack(attention_masks),
    }
