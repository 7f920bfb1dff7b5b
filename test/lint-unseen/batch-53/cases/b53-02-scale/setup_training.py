import torch
from torch import nn

from layers import DecoderLayer


class MelodyDecoder(nn.Module):
    def __init__(self, vocab: int, n_layers: int, n_heads: int, width: int, ff_width: int, p_drop: float, qk_width=None, v_width=None):
        super().__init__()
        self.embed = nn.Embedding(vocab, width)
        self.layers = nn.ModuleList(
            [DecoderLayer(n_heads, width, ff_width, p_drop, qk_width=qk_width, v_width=v_width) for _ in range(n_layers)]
        )
        self.to_vocab = nn.Linear(width, vocab)

    def forward(self, tokens: torch.Tensor, memory=None) -> torch.Tensor:
        h = self.embed(tokens) * self.embed.embedding_dim ** 0.5
        for layer in self.layers:
            h = layer(h, memory)
        return self.to_vocab(h)


def build_for_training(vocab: int) -> MelodyDecoder:
    # the configuration the training script uses: queries and keys wider than the model
    return MelodyDecoder(
        vocab,
        n_layers=6,
        n_heads=8,
        width=384,
        ff_width=1024,
        p_drop=0.1,
        qk_width=512,
        v_width=384,
    )
