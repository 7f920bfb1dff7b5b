import torch
import torch.nn as nn


def build_causal_mask(context_length: int) -> torch.Tensor:
    """CLIP's text mask: additive, -inf strictly above the diagonal, 0 on and below it."""
    mask = torch.empty(context_length, context_length)
    mask.fill_(float("-inf"))
    mask.triu_(1)
    return mask


class ResidualAttentionBlock(nn.Module):
    def __init__(self, width: int, heads: int):
        super().__init__()
        self.ln_1 = nn.LayerNorm(width)
        self.attn = nn.MultiheadAttention(width, heads, batch_first=True)
        self.ln_2 = nn.LayerNorm(width)
        self.mlp = nn.Sequential(nn.Linear(width, 4 * width), nn.GELU(), nn.Linear(4 * width, width))

    def forward(self, x, attn_mask=None):
        h = self.ln_1(x)
        x = x + self.attn(h, h, h, need_weights=False, attn_mask=attn_mask)[0]
        return x + self.mlp(self.ln_2(x))


class TextTower(nn.Module):
    def __init__(self, vocab: int, context_length: int, width: int, layers: int, heads: int):
        super().__init__()
        self.tok = nn.Embedding(vocab, width)
        self.pos = nn.Parameter(torch.zeros(context_length, width))
        self.blocks = nn.ModuleList([ResidualAttentionBlock(width, heads) for _ in range(layers)])
        self.register_buffer("attn_mask", build_causal_mask(context_length), persistent=False)
        self.ln_final = nn.LayerNorm(width)

    def forward(self, text):
        x = self.tok(text) + self.pos
        for block in self.blocks:
            x = block(x, attn_mask=self.attn_mask)
        x = self.ln_final(x)
        return x[torch.arange(x.shape[0]), text.argmax(dim=-1)]  # the end-of-text token
