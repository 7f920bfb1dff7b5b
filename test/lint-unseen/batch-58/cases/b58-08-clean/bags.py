"""Biopsy bags: every bag is a stack of image patches, bags differ in size."""

import torch
from PIL import Image
from torch.utils.data import Dataset


class PatchBags(Dataset):
    def __init__(self, bag_patches: dict, bag_labels: dict, bag_ids: list, transform=None):
        self.bag_patches, self.bag_labels, self.bag_ids = bag_patches, bag_labels, bag_ids
        self.transform = transform

    def __len__(self) -> int:
        return len(self.bag_ids)

    def __getitem__(self, i):
        bag_id = self.bag_ids[i]
        patches = []
        for path in self.bag_patches[bag_id]:
            img = Image.open(path).convert("RGB")
            patches.append(self.transform(img) if self.transform else img)
        return torch.stack(patches), torch.tensor(self.bag_labels[bag_id], dtype=torch.float32), bag_id


def keep_bags_apart(batch):
    """Bags of different sizes cannot be stacked: hand back a list of (N_i, 3, H, W) bags."""
    bags, labels, ids = zip(*batch)
    return list(bags), torch.stack(labels), list(ids)
