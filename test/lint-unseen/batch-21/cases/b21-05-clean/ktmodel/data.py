import torch


def pad_student(q_ids, resps, max_len):
    """Right-pads one student's interaction history; the mask is 1 for real interactions, 0 for padding."""
    length = q_ids.size(0)
    pad_len = max_len - length
    padded_q = torch.cat([q_ids, torch.zeros(pad_len, dtype=torch.long)])
    padded_r = torch.cat([resps, torch.zeros(pad_len, dtype=torch.long)])
    mask = torch.cat([torch.ones(length), torch.zeros(pad_len)])
    return padded_q, padded_r, mask


def collate(histories, max_len):
    qs, rs, ms = zip(*(pad_student(q, r, max_len) for q, r in histories))
    return torch.stack(qs), torch.stack(rs), torch.stack(ms)
