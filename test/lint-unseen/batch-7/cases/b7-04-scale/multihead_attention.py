import torch
import torch.nn as nn

from scaled_dot_product import scaled_dot_product


class MultiHeadAttentionLayer(nn.Module):
    def __init__(self, dimension: int = 512, heads: int = 8, dropout: float = 0.1):
        super().__init__()
        assert dimension % heads == 0, "Dimension must be divisible by heads"
        self.dimension, self.heads = dimension, heads
        self.QKV = nn.Linear(dimension, 3 * dimension, bias=False)
        self.layer = nn.Linear(dimension, dimension, bias=False)

    def forward(self, x: torch.Tensor, mask=None):
        B, T, _ = x.shape
        query, key, values = torch.chunk(self.QKV(x), chunks=3, dim=-1)
        query = query.view(B, T, self.heads, self.dimension // self.heads).permute(0, 2, 1, 3)
        key = key.view(B, T, self.heads, self.dimension // self.heads).permute(0, 2, 1, 3)
        values = values.view(B, T, self.heads, self.dimension // self.heads).permute(0, 2, 1, 3)
        attention = scaled_dot_product(query=query, key=key, values=values, mask=mask)
        attention = attention.permute(0, 2, 1, 3).reshape(B, T, self.dimension)
        return self.layer(attention)


if __name__ == "__main__":
    layer = MultiHeadAttentionLayer(512, 8)
    out = layer(torch.randn(40, 200, 512), torch.ones((40, 200)))
    assert out.size() == (40, 200, 512)
