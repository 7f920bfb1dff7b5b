import math

import pandas as pd
import torch
from torch.utils.data import DataLoader, Dataset

from ranker.sasrec import SASRec


class SeqDataset(Dataset):
    """Each user's history sorted by time: the last item is the target, up to max_len before it the input."""

    def __init__(self, parquet: str, max_len: int = 50):
        df = pd.read_parquet(parquet)
        self.seqs = [g.sort_values("ts")["item"].tolist() for _, g in df.groupby("user")]
        self.max_len = max_len

    def __len__(self) -> int:
        return len(self.seqs)

    def __getitem__(self, idx):
        seq = self.seqs[idx]
        tgt = seq[-1]
        seq = seq[-(self.max_len + 1):-1]
        seq = [0] * (self.max_len - len(seq)) + seq  # left padding with id 0
        return torch.tensor(seq, dtype=torch.long), torch.tensor(tgt)


@torch.no_grad()
def hit_ndcg(model: SASRec, loader: DataLoader, device) -> tuple[float, float]:
    model.eval()
    hits = ndcg = total = 0
    for seq, tgt in loader:
        logits = model(seq.to(device))
        _, idx = logits.topk(10)
        for i in range(len(tgt)):
            total += 1
            rank = (idx[i].cpu() == tgt[i]).nonzero()
            if rank.numel():
                hits += 1
                ndcg += 1 / math.log2(rank.item() + 2)
    return hits / total, ndcg / total


def train(train_path: str, valid_path: str, epochs: int = 10):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    train_ds, val_ds = SeqDataset(train_path), SeqDataset(valid_path)
    n_items = max(max(s) for s in train_ds.seqs) + 1
    model = SASRec(n_items).to(device)
    opt = torch.optim.Adam(model.parameters(), 1e-3)
    train_ld = DataLoader(train_ds, 256, shuffle=True)
    val_ld = DataLoader(val_ds, 256)
    for _ in range(epochs):
        model.train()
        for seq, tgt in train_ld:
            loss = torch.nn.functional.cross_entropy(model(seq.to(device)), tgt.to(device))
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(hit_ndcg(model, val_ld, device))
    return model
