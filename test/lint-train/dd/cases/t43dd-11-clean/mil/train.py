import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

from .models import GatedMIL


class SlideBags(Dataset):
    def __init__(self, names, labels, loader):
        self.names = names
        self.labels = labels
        self.loader = loader

    def __len__(self):
        return len(self.names)

    def __getitem__(self, i):
        name = self.names[i]
        return self.loader(name), torch.tensor(self.labels[name], dtype=torch.long), name


def bag_collate(batch):
    # bags have different patch counts: keep them as a list
    return [b[0] for b in batch], torch.stack([b[1] for b in batch]), [b[2] for b in batch]


def epoch(model: GatedMIL, bags: DataLoader, opt, device):
    model.train()
    loss_fn = nn.BCEWithLogitsLoss()
    total = 0.0
    for feats, labels, _ in bags:
        for bag, y in zip(feats, labels.float().to(device)):
            opt.zero_grad()
            logit, _ = model(bag.to(device))
            loss = loss_fn(logit.unsqueeze(0), y.unsqueeze(0))
            loss.backward()
            opt.step()
            total += loss.item()
    return total / len(bags.dataset)


def make_loader(names, labels, loader, shuffle):
    return DataLoader(SlideBags(names, labels, loader), batch_size=1, shuffle=shuffle, collate_fn=bag_collate)
