import torch
from torch import Tensor, nn

from decoder_layer import DecoderLayer


class Transformer(nn.Module):
    def __init__(self, vocab, d_model=512, h=8, d_ff=2048, n_layers=6, pad_idx=0):
        super().__init__()
        self.pad_idx = pad_idx
        self.emb = nn.Embedding(vocab, d_model)
        self.layers = nn.ModuleList([DecoderLayer(d_model, h, d_ff) for _ in range(n_layers)])
        self.classifier = nn.Linear(d_model, vocab)

    def create_pad_mask(self, x: Tensor) -> Tensor:
        return x != self.pad_idx  # (B, len), True at real tokens

    def create_autoregressive_mask(self, x: Tensor) -> Tensor:
        seq_len = x.size(1)
        return torch.ones(seq_len, seq_len, dtype=torch.bool, device=x.device).tril(diagonal=0)

    def forward(self, memory: Tensor, src: Tensor, tgt: Tensor):
        src_pad_mask, tgt_pad_mask = self.create_pad_mask(src), self.create_pad_mask(tgt)
        tgt_autoregressive_mask = self.create_autoregressive_mask(tgt)
        out = self.emb(tgt)
        for layer in self.layers:
            out = layer(out, memory, tgt_pad_mask, tgt_autoregressive_mask, src_pad_mask)
        return self.classifier(out)
