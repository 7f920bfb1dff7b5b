import torch


def get_src_pad_mask(seq: torch.Tensor, pad_idx: int) -> torch.Tensor:
    # [batch, 1, 1, seq_len], 1 = real token
    return (seq != pad_idx).view(seq.shape[0], 1, 1, -1)


def get_trg_pad_mask(seq: torch.Tensor, pad_idx: int) -> torch.Tensor:
    batch_size, seq_len = seq.shape
    target_pad_mask = (seq != pad_idx).view(batch_size, 1, 1, -1)  # [b, 1, 1, s]
    no_look_forward = torch.tril(torch.ones(size=(1, 1, seq_len, seq_len), dtype=torch.int64))
    return target_pad_mask & no_look_forward  # [b, 1, s, s]
