import torch.nn as nn

from layers.attention import MultiHead


class EncoderLayer(nn.Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        self.attn = MultiHead(d_model, n_heads)
        self.ff = nn.Sequential(nn.Linear(d_model, 4 * d_model), nn.ReLU(), nn.Linear(4 * d_model, d_model))
        self.n1 = nn.LayerNorm(d_model)
        self.n2 = nn.LayerNorm(d_model)

    def forward(self, x, src_mask):
        x = self.n1(x + self.attn(x, x, src_mask))
        return self.n2(x + self.ff(x))


def encode(embed, layers, batch):
    x = embed(batch["source_ids"])
    for layer in layers:
        x = layer(x, batch["source_mask"])
    return x
