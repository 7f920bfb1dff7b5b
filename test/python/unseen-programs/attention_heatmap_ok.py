# label: correct
# why: the weights are rescaled after the softmax only to draw a heatmap; the output uses the normalised weights
import torch
import torch.nn as nn


class Attn(nn.Module):
    def __init__(self, d=16):
        super().__init__()
        self.q = nn.Linear(d, d)
        self.k = nn.Linear(d, d)
        self.v = nn.Linear(d, d)

    def forward(self, x):
        s = self.q(x) @ self.k(x).transpose(-1, -2) / x.size(-1) ** 0.5
        p = torch.softmax(s, dim=-1)
        return p @ self.v(x), p


def to_heatmap(weights):
    # scale every row to [0, 1] for display
    w = weights / weights.amax(dim=-1, keepdim=True)
    return (w * 255).round().to(torch.uint8)


if __name__ == "__main__":
    torch.manual_seed(50)
    words = "the cat sat on the mat".split()
    vocab = {w: i for i, w in enumerate(sorted(set(words)))}
    ids = torch.tensor([[vocab[w] for w in words]])
    emb = nn.Embedding(len(vocab), 16)
    out, probs = Attn()(emb(ids))
    img = to_heatmap(probs[0])
    for w, row in zip(words, img.tolist()):
        print(f"{w:>4}", " ".join(f"{c:3d}" for c in row))
