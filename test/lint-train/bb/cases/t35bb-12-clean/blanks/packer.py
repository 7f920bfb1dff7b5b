import random
from dataclasses import dataclass
from typing import List

import numpy as np
import torch

from .utils import get_last_point_to_fit_blanks, insert_blanks_input, make_blanks_attention_mask


@dataclass
class BlanxExample:
    input_ids: List[int]
    target_ids: List[int]
    should_calculate_loss: List[int]
    attention_mask: np.ndarray


class BlankPacker:
    """Cuts a training sequence and inserts n_blanks blank tokens at a random point."""

    def __init__(self, sequence_length: int, n_blanks: int, blanks_ids: List[int], seed: int = 0):
        self.sequence_length = sequence_length
        self.n_blanks = n_blanks
        self.blanks_ids = blanks_ids
        self.py_rng = random.Random(seed)

    def get_sample(self, tokens: List[int]) -> BlanxExample:
        input_tokens = tokens[: self.sequence_length]
        target_tokens = tokens[1 : self.sequence_length + 1]
        seq_len = len(input_tokens)
        blank_insertion_point = self.py_rng.randint(1, get_last_point_to_fit_blanks(seq_len, self.n_blanks))
        input_tokens = insert_blanks_input(input_tokens, self.blanks_ids, blank_insertion_point, self.n_blanks)
        att_mask = make_blanks_attention_mask(seq_len, blank_insertion_point, self.n_blanks)
        return BlanxExample(input_tokens, target_tokens, [1] * seq_len, att_mask)


def collate(examples: List[BlanxExample]):
    return {
        "input_ids": torch.tensor([e.input_ids for e in examples]),
        "target_ids": torch.tensor([e.target_ids for e in examples]),
        "should_calculate_loss": torch.tensor([e.should_calculate_loss for e in examples]),
        "attention_mask": torch.from_numpy(np.stack([e.attention_mask for e in examples])),  # [B, T, T] bool
    }
