import torch


def build_masks(input_seqs: torch.Tensor):
    """input_seqs: [B, T] item tokens, 0 = padding (histories are left-padded).

    causal_mask: bool [T, T], True = query i may NOT attend to key j (j > i).
    key_padding_mask: bool [B, T], True = this key is padding and is excluded.
    """
    T = input_seqs.shape[1]
    causal_mask = torch.triu(torch.ones(T, T, device=input_seqs.device, dtype=torch.bool), diagonal=1)
    key_padding_mask = input_seqs == 0
    return causal_mask, key_padding_mask
