# label: buggy
# why: the fill value is -1e-9 (a typo for -1e9): the padded positions are not masked at all
import torch
import torch.nn as nn
import torch.nn.functional as F


class BahdanauStyleSelfAttention(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.wq = nn.Linear(hidden, hidden)
        self.wk = nn.Linear(hidden, hidden)

    def forward(self, h, lengths):
        B, T, H = h.shape
        scores = torch.bmm(self.wq(h), self.wk(h).transpose(1, 2)) / H ** 0.5
        valid = torch.arange(T)[None, :] < lengths[:, None]  # [B, T]
        scores = scores.masked_fill(~valid[:, None, :], -1e-9)  # expect: ATT007
        weights = F.softmax(scores, dim=2)
        return torch.bmm(weights, h)


if __name__ == "__main__":
    torch.manual_seed(18)
    vocab, hidden = 200, 40
    embedding = nn.Embedding(vocab, hidden, padding_idx=0)
    rnn = nn.GRU(hidden, hidden, batch_first=True)
    attn = BahdanauStyleSelfAttention(hidden)
    ids = torch.tensor([[11, 45, 6, 0, 0, 0], [19, 3, 77, 120, 5, 0], [8, 2, 0, 0, 0, 0]])
    lengths = (ids != 0).sum(dim=1)
    h, _ = rnn(embedding(ids))
    ctx = attn(h, lengths)
    print(ctx.shape)
