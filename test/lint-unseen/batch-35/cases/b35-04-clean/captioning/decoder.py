import torch
import torch.nn as nn
import torch.nn.functional as F

from .positional import SinusoidalPositions


class CaptionTransformerDecoder(nn.Module):
    """Transformer decoder over CNN grid features (batch_first)."""

    def __init__(self, vocab_size: int, d_model: int = 512, n_heads: int = 8, ff_dim: int = 2048,
                 n_layers: int = 3, dropout: float = 0.1, max_len: int = 60) -> None:
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, d_model)
        self.positions = SinusoidalPositions(d_model, max_len)
        self.dropout = nn.Dropout(dropout)
        layer = nn.TransformerDecoderLayer(d_model=d_model, nhead=n_heads, dim_feedforward=ff_dim,
                                           dropout=dropout, batch_first=True, norm_first=True)
        self.layers = nn.TransformerDecoder(layer, n_layers)
        self.to_vocab = nn.Linear(d_model, vocab_size)

    def subsequent_mask(self, size: int, device=None) -> torch.Tensor:
        """(size, size) float: 0.0 where a position may look, -inf on the positions after it."""
        lower = (torch.triu(torch.ones(size, size)) == 1).transpose(0, 1)
        lower = lower.float().masked_fill(lower == 0, float("-inf"))
        lower = lower.masked_fill(lower == 1, float(0.0))
        return lower.to(device)

    def forward(self, tokens, grid, causal=None, token_padding=None):
        """tokens: (B, T) ids; grid: (B, P, d_model) image features, never padded."""
        x = self.dropout(self.positions(self.embedding(tokens)))
        h = self.layers(x, grid, tgt_mask=causal, tgt_key_padding_mask=token_padding)
        return self.to_vocab(h.clone())

    @torch.no_grad()
    def beam_search(self, grid, sos_idx: int, pad_idx: int, beam: int = 3, max_len: int = 30):
        b = grid.size(0)
        memory = grid.repeat_interleave(beam, dim=0)
        seqs = torch.full((b, beam, max_len), pad_idx, dtype=torch.long, device=grid.device)
        seqs[:, :, 0] = sos_idx
        scores = torch.zeros(b, beam, device=grid.device)
        scores[:, 1:] = float("-inf")
        scores = scores.view(-1)
        for step in range(1, max_len):
            prefix = seqs[:, :, :step].reshape(b * beam, step)
            logits = self(prefix, memory, causal=self.subsequent_mask(step, grid.device))
            logp = F.log_softmax(logits[:, -1, :], dim=-1) + scores.unsqueeze(1)
            top, idx = logp.view(b, -1).topk(beam, dim=-1)
            vocab = logits.size(-1)
            origin, word = idx // vocab, idx % vocab
            seqs = torch.gather(seqs, 1, origin.unsqueeze(-1).expand(-1, -1, max_len)).clone()
            seqs[:, :, step] = word
            scores = top.view(-1)
        return seqs[:, 0]
