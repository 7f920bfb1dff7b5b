import torch


class Collator:
    def __init__(self, pad_id):
        self.pad_id = pad_id

    def __call__(self, rows):
        lengths = torch.tensor([len(r) for r in rows])
        T = int(lengths.max())
        ids = torch.full((len(rows), T), self.pad_id)
        for i, r in enumerate(rows):
            ids[i, : len(r)] = torch.tensor(r)
        mask = torch.arange(T)[None, :] < lengths[:, None]
        return ids, mask
