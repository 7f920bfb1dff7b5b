import torch

PAD_ID = 0


def pad_batch(rows):
    return torch.nn.utils.rnn.pad_sequence(rows, batch_first=True, padding_value=PAD_ID)


def make_batch(src_rows, tgt_rows):
    """Padded ids plus masks that are True on real tokens."""
    src_len = torch.tensor([len(r) for r in src_rows])
    tgt_len = torch.tensor([len(r) for r in tgt_rows])
    src = pad_batch(src_rows)
    tgt = pad_batch(tgt_rows)
    src_mask = torch.arange(src.size(1)).unsqueeze(0) < src_len.unsqueeze(1)
    tgt_mask = torch.arange(tgt.size(1)).unsqueeze(0) < tgt_len.unsqueeze(1)
    return src, src_mask, tgt, tgt_mask
