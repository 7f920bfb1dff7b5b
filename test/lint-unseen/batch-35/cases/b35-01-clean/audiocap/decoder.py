import math
from typing import Optional

from torch import Tensor, nn

from .masks import causal_float_mask, tokens_to_padding


class CaptionDecoder(nn.TransformerDecoder):
    """Caption decoder over audio frame embeddings; sequence-first tensors (batch_first=False)."""

    def __init__(self, vocab_size: int, pad_id: int, d_model: int = 256, nhead: int = 8, num_layers: int = 6,
                 dim_feedforward: int = 2048, dropout: float = 0.2) -> None:
        layer = nn.TransformerDecoderLayer(
            d_model=d_model,
            nhead=nhead,
            dim_feedforward=dim_feedforward,
            dropout=dropout,
            activation="gelu",
            batch_first=False,
        )
        super().__init__(layer, num_layers)
        self.pad_id = pad_id
        self.embed = nn.Embedding(vocab_size, d_model, padding_idx=pad_id)
        self.pos = nn.Dropout(dropout)
        self.to_vocab = nn.Linear(d_model, vocab_size)

    def forward(self, frames: Tensor, frames_padding: Optional[Tensor], tokens: Tensor,
                tokens_padding: Optional[Tensor], causal: Optional[Tensor]) -> Tensor:
        """
        frames: (n_frames, bsize, d_model); frames_padding: (bsize, n_frames), True on padded frames
        tokens: (n_tokens, bsize) ids; tokens_padding: (bsize, n_tokens); causal: (n_tokens, n_tokens) additive
        returns logits (n_tokens, bsize, vocab_size)
        """
        x = self.embed(tokens)
        width = x.shape[-1]
        x = self.pos(x * math.sqrt(width))
        hidden = super().forward(
            tgt=x,
            memory=frames,
            tgt_mask=causal,
            memory_mask=None,
            tgt_key_padding_mask=tokens_padding,
            memory_key_padding_mask=frames_padding,
        )
        return self.to_vocab(hidden)


def teacher_forcing(decoder: CaptionDecoder, frames: Tensor, frames_padding: Tensor, captions_in: Tensor) -> Tensor:
    """frames: (bsize, d_model, n_frames); captions_in: (bsize, n_tokens) -> logits (bsize, vocab, n_tokens)."""
    frames = frames.permute(2, 0, 1)
    tokens_padding = tokens_to_padding(captions_in, decoder.pad_id)
    causal = causal_float_mask(captions_in.shape[1], device=captions_in.device)
    logits = decoder(frames, frames_padding, captions_in.permute(1, 0), tokens_padding, causal)
    return logits.permute(1, 2, 0)
