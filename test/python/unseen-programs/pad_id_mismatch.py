# label: buggy
# why: the batch is padded with pad id 1 (the embedding's padding_idx) but the mask is built from ids != 0, so nothing is masked and real queries attend the padding
import torch
import torch.nn as nn
import torch.nn.functional as F

PAD_ID = 1


def pad_batch(seqs, pad_id=PAD_ID):
    width = max(len(s) for s in seqs)
    return torch.tensor([s + [pad_id] * (width - len(s)) for s in seqs])


class Model(nn.Module):
    def __init__(self, vocab=64, dim=32):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim, padding_idx=PAD_ID)
        self.wq = nn.Linear(dim, dim)
        self.wk = nn.Linear(dim, dim)
        self.wv = nn.Linear(dim, dim)

    def forward(self, ids):
        x = self.emb(ids)
        mask = (ids != 0).unsqueeze(1)  # [B, 1, S]
        scores = self.wq(x) @ self.wk(x).transpose(-2, -1) / x.size(-1) ** 0.5
        scores = scores.masked_fill(mask == 0, float("-inf"))  # expect: ATT002
        return F.softmax(scores, dim=-1) @ self.wv(x)


if __name__ == "__main__":
    torch.manual_seed(34)
    ids = pad_batch([[0, 23, 45, 12, 2], [0, 7, 2], [0, 31, 32, 33, 34, 35, 2]])
    out = Model()(ids)
    print(out.shape)
