# case: b4-08-mask
# modelled-on: dreamgonfly/transformer-pytorch https://github.com/dreamgonfly/transformer-pytorch/commit/c6ed0b55b8c66a4f8123624af7c0ec04f7e0ebd7
# label: correct
# class: fixed
# pattern: the same transformer package after the fix: the decoder combines the padding mask (positions >= length) and the future mask (triu, k=1), both True where a position is hidden, with `|`, and the score function fills True with -1e9 before the softmax
# why: correct: the union of two fill-where-True masks hides every padded key and every future key
# looks-like: ATT002, ATT007
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
        self_mask = (pad | future).to(device=x.device)  # (batch, t, t)
        memory_mask = lengths_to_pad(memory_lengths).unsqueeze(1).to(device=x.device)  # (batch, 1, s)
        x = self.norm(x)
        for layer in self.layers:
            x = layer(x, memories, self_mask, memory_mask)
        return x
