import numpy as np


def get_last_point_to_fit_blanks(sequence_length: int, n_blanks: int) -> int:
    return sequence_length - n_blanks


def insert_blanks_input(input_tokens, blank_ids, blank_insertion_point, n_blanks):
    return input_tokens[:blank_insertion_point] + list(blank_ids) + input_tokens[blank_insertion_point:-n_blanks]


def make_blanks_attention_mask(seq_len, blanks_insertion_point, n_blanks) -> np.ndarray:
    """Causal mask in which no token may attend to the blanks, except the blanks of the same block after them.

    Returns a boolean [seq_len, seq_len] array: which pairs take part in attention.
    """
    mask = np.tril(np.ones((seq_len, seq_len), dtype=bool))
    blanks_insertion_end = blanks_insertion_point + n_blanks
    mask[blanks_insertion_end:, blanks_insertion_point:blanks_insertion_end] = False
    return mask
