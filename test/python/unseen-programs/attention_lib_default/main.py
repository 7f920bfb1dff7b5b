# label: buggy
# why: layers.dot_product_attention defaults to temperature=1.0 and MultiHead never passes one: the scores (head dim 32) are not scaled
# tags: parameter-default
import torch
import torch.nn as nn

from layers import MultiHead


class Encoder(nn.Module):
    def __init__(self, vocab=100, dim=128, heads=4, depth=2):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim, padding_idx=0)
        self.layers = nn.ModuleList(MultiHead(dim, heads) for _ in range(depth))
        self.norm = nn.LayerNorm(dim)

    def forward(self, ids):
        keep = (ids != 0)[:, None, None, :]
        x = self.embed(ids)
        for layer in self.layers:
            x = self.norm(x + layer(x, mask=keep))
        return x


if __name__ == "__main__":
    torch.manual_seed(40)
    ids = torch.randint(1, 100, (2, 9))
    ids[0, 6:] = 0
    with torch.no_grad():
        print(Encoder()(ids).shape)
