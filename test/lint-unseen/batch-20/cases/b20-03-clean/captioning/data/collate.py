from __future__ import annotations

import torch
from torch.nn.utils.rnn import pad_sequence


class CaptionCollator:
    """Pads the captions of a batch; in caption_padding_mask PAD is True, real tokens False."""

    def __init__(self, pad_token_id: int):
        self.pad_token_id = pad_token_id

    def __call__(self, batch):
        images = torch.stack([item["image"] for item in batch])
        sequences = [item["caption_ids"] for item in batch]
        caption_ids = pad_sequence(sequences, batch_first=True, padding_value=self.pad_token_id)
        caption_padding_mask = caption_ids == self.pad_token_id
        return {
            "images": images,
            "caption_ids": caption_ids,
            "caption_lengths": torch.tensor([s.size(0) for s in sequences], dtype=torch.long),
            "caption_padding_mask": caption_padding_mask,
        }
