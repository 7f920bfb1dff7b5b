# label: buggy
# why: the batch holds an empty review (all padding); its key_padding_mask masks every key and nn.MultiheadAttention returns NaN rows
import torch
import torch.nn as nn

PAD = 0
VOCAB = {"<pad>": 0, "great": 1, "movie": 2, "terrible": 3, "plot": 4, "loved": 5, "it": 6}


def encode(texts, width=5):
    rows = []
    for t in texts:
        ids = [VOCAB[w] for w in t.split()][:width]
        rows.append(ids + [PAD] * (width - len(ids)))
    return torch.tensor(rows)


class ReviewClassifier(nn.Module):
    def __init__(self, d=16):
        super().__init__()
        self.emb = nn.Embedding(len(VOCAB), d, padding_idx=PAD)
        self.attn = nn.MultiheadAttention(d, 2, batch_first=True)
        self.fc = nn.Linear(d, 2)

    def forward(self, ids):
        x = self.emb(ids)
        h, _ = self.attn(x, x, x, key_padding_mask=ids == PAD)  # expect: ATT007
        return self.fc(h.mean(1))


if __name__ == "__main__":
    torch.manual_seed(30)
    reviews = ["great movie", "terrible plot", "", "loved it"]
    model = ReviewClassifier()
    model.train()
    logits = model(encode(reviews))
    print(logits)
