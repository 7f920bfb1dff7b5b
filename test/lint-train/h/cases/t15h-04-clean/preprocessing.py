import torch


def source_mask(src_ids, pad_id):
    """Encoder mask: True where a key is a real token; (batch, 1, 1, src_len)."""
    return (src_ids != pad_id).unsqueeze(1).unsqueeze(2)


def target_mask(trg_ids, pad_id, device="cuda"):
    """Decoder mask: real tokens that are not in the future; (batch, 1, trg_len, trg_len)."""
    batch, length = trg_ids.shape[0], trg_ids.shape[1]
    padding = (trg_ids != pad_id).view(batch, 1, 1, -1).to(device)
    no_look_forward = torch.triu(torch.ones((batch, 1, length, length)) == 1).transpose(2, 3).to(device)
    # bitwise AND keeps a position only when both masks allow it
    return padding & no_look_forward
