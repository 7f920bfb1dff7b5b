import torch
import torch.nn as nn

from .decoder import DecoderLayer


class Seq2SeqTransformer(nn.Module):
    def __init__(self, vocab_size, embedding_dims=512, d_ff=2048, n_heads=8, n_layers=6, pad_id=0):
        super().__init__()
        self.pad_id = pad_id
        self.embed = nn.Embedding(vocab_size, embedding_dims, padding_idx=pad_id)
        self.layers = nn.ModuleList([DecoderLayer(embedding_dims, d_ff, n_heads) for _ in range(n_layers)])
        self.out = nn.Linear(embedding_dims, vocab_size)

    def make_pad_mask(self, token_ids: torch.Tensor) -> torch.Tensor:
        """token_ids: (B, L) -> (B, L) boolean mask, True where PAD"""
        return token_ids == self.pad_id

    def decode(self, tgt_ids, enc_out, src_pad_mask):
        x = self.embed(tgt_ids)
        tgt_pad_mask = self.make_pad_mask(tgt_ids)
        for layer in self.layers:
            x = layer(x, enc_out, src_pad_mask=src_pad_mask, tgt_pad_mask=tgt_pad_mask)
        return self.out(x)
