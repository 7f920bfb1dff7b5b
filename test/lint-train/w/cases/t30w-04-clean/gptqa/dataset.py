"""Question/answer pairs for next-token training; the tokenizer pads to max_length."""
import json

import numpy as np
import torch
from torch.utils.data import Dataset


class QADataset(Dataset):
    def __init__(self, data_path: str, tokenizer, max_length: int) -> None:
        self.tokenizer = tokenizer
        self.max_length = max_length
        with open(data_path, encoding="utf-8") as f:
            self.data = [json.loads(line) for line in f if line.strip()]

    def __getitem__(self, index):
        item = self.data[index]
        # att_mask: 1 for question/answer tokens, 0 for the padding after them
        ids, att_mask = self.tokenizer.encode(item["question"], item["answer"],
                                              max_length=self.max_length, pad_to_max_length=True)
        return {
            "input_ids": torch.LongTensor(np.array(ids[:-1])),
            "attention_mask": torch.LongTensor(np.array(att_mask[:-1])),
            "labels": torch.LongTensor(np.array(ids[1:])),
        }

    def __len__(self):
        return len(self.data)
