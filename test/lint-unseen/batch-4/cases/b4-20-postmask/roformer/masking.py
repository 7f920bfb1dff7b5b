import torch


def unilm_mask(attention_mask, token_type_ids):
    """(b, s) 0/1 padding mask and segment ids -> (b, 1, s, s) bool, True where attention is NOT allowed."""
    # (b, s, s): 1 only where both positions are real tokens
    pad = attention_mask.unsqueeze(1) * attention_mask.unsqueeze(2)
    pad = pad < 0.5
    # the second segment is generated left to right: it may not see later positions of itself
    idx = torch.cumsum(token_type_ids, dim=1)
    causal = idx[:, None, :] > idx[:, :, None]
    return torch.logical_or(causal, pad).unsqueeze(1)
