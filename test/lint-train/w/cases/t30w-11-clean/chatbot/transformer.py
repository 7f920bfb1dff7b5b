"""Encoder-decoder model, its masks, and batch inference by re-running the decoder."""
import torch
from torch import nn

from chatbot.modules import DecoderLayer, EncoderLayer


class Transformer(nn.Module):
    def __init__(self, vocab_size: int, pad_token_id: int, hidden_dim: int = 256, ffn_dim: int = 1024,
                 num_heads: int = 8, layers: int = 4, max_len: int = 128) -> None:
        super().__init__()
        self.pad_token_id = pad_token_id
        self.tok = nn.Embedding(vocab_size, hidden_dim, padding_idx=pad_token_id)
        self.pos = nn.Embedding(max_len, hidden_dim)
        self.encoders = nn.ModuleList([EncoderLayer(hidden_dim, ffn_dim, num_heads) for _ in range(layers)])
        self.decoders = nn.ModuleList([DecoderLayer(hidden_dim, ffn_dim, num_heads) for _ in range(layers)])
        self.fc = nn.Linear(hidden_dim, vocab_size)

    def embed(self, ids: torch.Tensor) -> torch.Tensor:
        return self.tok(ids) + self.pos(torch.arange(ids.size(1), device=ids.device))

    def make_mask(self, src: torch.Tensor, trg: torch.Tensor):
        enc_mask = torch.where(src == self.pad_token_id, 0, 1).unsqueeze(1).unsqueeze(2)   # (B, 1, 1, S), 1 = real
        causal = torch.tril(torch.ones(trg.size(1), trg.size(1), device=trg.device)).unsqueeze(0).unsqueeze(1)
        dec_mask = causal + torch.where(trg == self.pad_token_id, 0, 1).unsqueeze(1).unsqueeze(2)
        dec_mask = torch.where(dec_mask < 2, 0, 1)                                         # 1 = past, real key
        return enc_mask, dec_mask, enc_mask

    def forward(self, src: torch.Tensor, trg: torch.Tensor) -> torch.Tensor:
        enc_mask, dec_mask, enc_dec_mask = self.make_mask(src, trg)
        memory = self.embed(src)
        for layer in self.encoders:
            _, memory = layer(memory, enc_mask)
        out = self.embed(trg)
        for layer in self.decoders:
            _, out = layer(out, memory, dec_mask, enc_dec_mask)
        return self.fc(out)

    @torch.no_grad()
    def batch_inference(self, src: torch.Tensor, start_tokens: torch.Tensor, max_len: int) -> torch.Tensor:
        trg = start_tokens.unsqueeze(1)
        for _ in range(max_len):
            output = self.forward(src, trg)  # the whole target prefix again, masks rebuilt
            trg = torch.cat((trg, torch.argmax(output[:, -1], dim=-1).unsqueeze(1)), dim=1)
        return trg
