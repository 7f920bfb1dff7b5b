import torch
from torch.nn.utils.rnn import pad_sequence

PAD_ID = 0


def collate(batch):
    ids = pad_sequence([torch.tensor(b["ids"]) for b in batch], batch_first=True, padding_value=PAD_ID)
    mask = ids == PAD_ID  # (B, S) True at padding
    return {"ids": ids, "mask": mask}
