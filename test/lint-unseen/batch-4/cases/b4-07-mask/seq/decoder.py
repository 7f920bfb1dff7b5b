# case: b4-07-mask
# modelled-on: dreamgonfly/transformer-pytorch https://github.com/dreamgonfly/transformer-pytorch/commit/c6ed0b55b8c66a4f8123624af7c0ec04f7e0ebd7
# label: buggy
# class: real-bug
# pattern: a transformer package: masking.py builds a padding mask from lengths (positions >= length, True at padding) and a future mask (np.triu(full(1), k=1), True above the diagonal), both in the fill-where-True convention; the decoder combines them for its self-attention and the heads module hands the mask (with a head axis added) to a score function that fills True with -1e9 before a softmax
# why: both masks are True where a position must be hidden, so they must be combined with `|`; `&` hides only the positions that are both padding and in the future, so every real query attends to the following tokens (the decoder is no longer causal); commit c6ed0b5 ("fix: masking") changes `&` to `|`
# source: https://github.com/dreamgonfly/transformer-pytorch https://github.com/dreamgonfly/transformer-pytorch/commit/c6ed0b55b8c66a4f8123624af7c0ec04f7e0ebd7 transformer/model/decoder.py
from torch import Tensor, nn

from .attention import HeadsAttention
from .masking import future_positions, lengths_to_pad


class DecoderLayer(nn.Module):
    def __init__(self, d_model: int, n_heads: int, dropout: float):
        super().__init__()
        self.self_attention = HeadsAttention(d_model, n_heads, dropout)
        self.memory_attention = HeadsAttention(d_model, n_heads, dropout)
        self.norm1 = nn.LayerNorm(d_model, eps=1e-6)
        self.norm2 = nn.LayerNorm(d_model, eps=1e-6)

    def forward(self, x: Tensor, memories: Tensor, self_mask: Tensor, memory_mask: Tensor) -> Tensor:
        x = self.norm1(x + self.self_attention(x, x, x, self_mask))
        return self.norm2(x + self.memory_attention(x, memories, memories, memory_mask))


class Decoder(nn.Module):
    def __init__(self, n_layers: int, d_model: int, n_heads: int, dropout: float):
        super().__init__()
        self.norm = nn.LayerNorm(d_model, eps=1e-6)
        self.layers = nn.ModuleList([DecoderLayer(d_model, n_heads, dropout) for _ in range(n_layers)])

    def forward(self, x: Tensor, lengths: Tensor, memories: Tensor, memory_lengths: Tensor) -> Tensor:
        # x: (batch, t, d_model), memories: (batch, s, d_model)
        pad = lengths_to_pad(lengths).unsqueeze(1)  # (batch, 1, t)
        future = future_positions(lengths.max())  # (t, t)
        self_mask = (pad & future).to(device=x.device)  # (batch, t, t)
        memory_mask = lengths_to_pad(memory_lengths).unsqueeze(1).to(device=x.device)  # (batch, 1, s)
        x = self.norm(x)
        for layer in self.layers:
            x = layer(x, memories, self_mask, memory_mask)
        return x
