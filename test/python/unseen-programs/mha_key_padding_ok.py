# label: correct
# why: key_padding_mask = ids == pad (True = ignore) is what nn.MultiheadAttention expects
import torch
import torch.nn as nn


class Pooler(nn.Module):
    def __init__(self, vocab, dim, heads, pad_id):
        super().__init__()
        self.pad_id = pad_id
        self.emb = nn.Embedding(vocab, dim, padding_idx=pad_id)
        self.mha = nn.MultiheadAttention(dim, heads, dropout=0.0, batch_first=True)
        self.cls = nn.Parameter(torch.randn(1, 1, dim))

    def forward(self, ids):
        tokens = self.emb(ids)
        query = self.cls.expand(ids.size(0), -1, -1)
        pad_mask = ids.eq(self.pad_id)
        pooled, weights = self.mha(query, tokens, tokens, key_padding_mask=pad_mask, need_weights=True)
        return pooled.squeeze(1), weights


if __name__ == "__main__":
    torch.manual_seed(15)
    pad_id = 1
    ids = torch.tensor([[0, 45, 87, 2, 1, 1, 1], [0, 12, 99, 14, 63, 8, 2]])
    model = Pooler(vocab=128, dim=32, heads=4, pad_id=pad_id)
    pooled, weights = model(ids)
    print(pooled.shape, weights.shape, weights[0, 0, -3:].sum().item())
