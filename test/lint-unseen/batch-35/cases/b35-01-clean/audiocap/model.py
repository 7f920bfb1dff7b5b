# case: b35-01-clean
# modelled-on: Labbeti/conette-audio-captioning https://github.com/Labbeti/conette-audio-captioning/commit/0068a660baf282dfe1685fc5d9288d90025af8a3
# label: correct
# class: clean
# pattern: an audio-captioning model (a pretrained audio encoder's frame embeddings, a linear projection and a caption decoder built on nn.TransformerDecoder, sequence-first): the frame padding mask comes from a helper that turns the frame lengths into a "keep" mask and negates it with logical_not, the caption padding mask is tokens.ne(pad).logical_not(), and the causal mask is a float matrix built from triu(ones) == 1 transposed and filled with -inf where it is 0 and 0.0 where it is 1; teacher forcing permutes batch-first tensors to sequence-first before calling the decoder, which scales the token embeddings by sqrt(d_model)
# why: correct: nn.TransformerDecoder's key padding masks are True on the positions to ignore, and both helpers return True on padded frames / padding tokens (the negation of a keep mask); the float causal mask is 0 on and below the diagonal and -inf above it, PyTorch's additive convention; the frame length is the max of the lengths and the time size, so the mask covers every frame; sqrt(d_model) scales the embeddings, not the attention scores (the scaled dot product is inside nn.MultiheadAttention)
# looks-like: ATT002, ATT004, ATT007
# source: https://github.com/Labbeti/conette-audio-captioning https://github.com/Labbeti/conette-audio-captioning/commit/0068a660baf282dfe1685fc5d9288d90025af8a3 src/conette/pl_modules/conette.py (with src/conette/nn/decoders/aac_tfmer.py, src/conette/nn/functional/mask.py, src/conette/nn/decoding/forcing.py)
from typing import Dict

import torch
from torch import Tensor, nn

from .decoder import CaptionDecoder, teacher_forcing
from .masks import lengths_to_padding


class AudioCaptioner(nn.Module):
    def __init__(self, vocab_size: int, pad_id: int, in_features: int = 768, d_model: int = 256) -> None:
        super().__init__()
        self.projection = nn.Sequential(nn.Dropout(0.5), nn.Linear(in_features, d_model), nn.ReLU(), nn.Dropout(0.5))
        self.decoder = CaptionDecoder(vocab_size, pad_id, d_model=d_model)
        self.criterion = nn.CrossEntropyLoss(ignore_index=pad_id, label_smoothing=0.1)

    def encode(self, frame_embs: Tensor, frame_lens: Tensor) -> Dict[str, Tensor]:
        # frame_embs: (bsize, in_features, n_frames)
        frames = self.projection(frame_embs.transpose(1, 2)).transpose(1, 2)
        n_frames = max(int(frame_lens.max()), frames.shape[-1])
        frames_padding = lengths_to_padding(frame_lens, n_frames)
        return {"frames": frames, "frames_padding": frames_padding}

    def training_loss(self, frame_embs: Tensor, frame_lens: Tensor, captions: Tensor) -> Tensor:
        captions_in, captions_out = captions[:, :-1], captions[:, 1:]
        encoded = self.encode(frame_embs, frame_lens)
        logits = teacher_forcing(self.decoder, encoded["frames"], encoded["frames_padding"], captions_in)
        return self.criterion(logits, captions_out)

    @torch.no_grad()
    def greedy(self, frame_embs: Tensor, frame_lens: Tensor, bos_id: int, max_len: int = 20) -> Tensor:
        encoded = self.encode(frame_embs, frame_lens)
        tokens = torch.full((frame_embs.shape[0], 1), bos_id, dtype=torch.long, device=frame_embs.device)
        for _ in range(max_len):
            logits = teacher_forcing(self.decoder, encoded["frames"], encoded["frames_padding"], tokens)
            tokens = torch.cat([tokens, logits[:, :, -1].argmax(dim=1, keepdim=True)], dim=1)
        return tokens
