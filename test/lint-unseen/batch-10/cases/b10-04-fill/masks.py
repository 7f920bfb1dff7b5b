import torch


def create_causal_mask(seq_len):
    """Additive causal mask, added to the scores before the softmax.

    For seq_len=4:
        [[0, -inf, -inf, -inf],
         [0,    0, -inf, -inf],
         [0,    0,    0, -inf],
         [0,    0,    0,    0]]
    """
    mask = torch.triu(torch.full((seq_len, seq_len), float("-inf")), diagonal=1)
    return mask
