import numpy as np
import torch
from torch.nn.utils.rnn import pad_sequence


def collate_padded(batch):
    renders = torch.stack([item["gt_render"] for item in batch])
    Ks = torch.stack([item["Ks"] for item in batch])
    w2cs = torch.stack([item["w2cs"] for item in batch])
    labels = np.stack([item["ano"] for item in batch])
    fields = tuple(zip(*[item["gs"] for item in batch]))
    padded = [pad_sequence(f, batch_first=True, padding_value=0.0) for f in fields]
    B, G, _ = padded[-1].shape
    mask = torch.zeros([B, G], dtype=torch.bool)
    for i, n in enumerate(len(t) for t in fields[0]):
        mask[i, :n] = 1                          # True on the real Gaussians of each scene
    pos = padded[0].view(B, G, -1, 3)[..., ::4].reshape(B, G, -1)
    return {"gt_render": renders, "gs": torch.cat(padded, dim=-1), "mask": mask, "pe": pos,
            "Ks": Ks, "w2cs": w2cs, "ano": labels}
