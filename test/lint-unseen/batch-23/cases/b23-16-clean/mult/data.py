import numpy as np


class MultiplicationBatches:
    """Right-padded token batches for a digit-multiplication task."""

    def __init__(self, tokenizer, max_length: int = 128):
        self.tokenizer = tokenizer
        self.max_length = max_length

    def encode(self, text: str) -> np.ndarray:
        ids = self.tokenizer.encode(text)[: self.max_length]
        out = np.full((self.max_length,), self.tokenizer.pad_token_id, dtype=np.int32)
        out[: len(ids)] = ids
        return out

    def collate_batch(self, batch):
        input_ids = np.stack([item["input_ids"] for item in batch])
        # 1.0 on real tokens, 0.0 on padding
        padding_mask = (input_ids != self.tokenizer.pad_token_id).astype(np.float32)
        return {"input_ids": input_ids, "padding_mask": padding_mask}
