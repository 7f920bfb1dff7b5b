"""Batches of (image, caption ids); captions are right-padded with the PAD id."""
import torch
from torch.nn.utils.rnn import pad_sequence


class ImageCaptionCollator:
    """caption_padding_mask is True at PAD positions and False at real tokens."""

    def __init__(self, pad_token_id: int) -> None:
        self.pad_token_id = pad_token_id

    def __call__(self, batch: list[dict]) -> dict:
        images = torch.stack([item["image"] for item in batch])
        sequences = [item["caption_ids"] for item in batch]  # each starts with BOS
        caption_ids = pad_sequence(sequences, batch_first=True, padding_value=self.pad_token_id)
        return {
            "images": images,
            "caption_ids": caption_ids,
            "caption_lengths": torch.tensor([s.size(0) for s in sequences], dtype=torch.long),
            "caption_padding_mask": caption_ids == self.pad_token_id,
        }


def teacher_forcing_inputs(batch: dict) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    ids = batch["caption_ids"]
    return ids[:, :-1], ids[:, 1:], batch["caption_padding_mask"][:, :-1]
