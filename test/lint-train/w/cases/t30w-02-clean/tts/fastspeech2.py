# case: t30w-02-clean
# modelled-on: LuisDehlwes/conformer-tts https://github.com/LuisDehlwes/conformer-tts/commit/1d9e0874f3d92ed9308a0b797c8c6645c7734695
# label: correct
# class: clean
# pattern: a FastSpeech2-style TTS acoustic model whose Conformer encoder and decoder live in another module and wrap nn.MultiheadAttention(batch_first=True, need_weights=False); the model builds its padding masks from lengths with arange(max_len) >= lengths[:, None] (True = padding), passes the phoneme mask as key_padding_mask to the encoder, length-regulates the phoneme states by integer durations, builds a second mask of the same polarity from the mel lengths for the decoder, and elsewhere uses ~text_mask as the keep flag
# why: correct: nn.MultiheadAttention's boolean key_padding_mask is True where a key may not be attended, and arange >= length is True exactly on the padded positions, so both masks have the receiver's polarity; ~text_mask (True on real phonemes) is only used to force predicted durations of real phonemes to at least one frame, so every utterance keeps at least one mel frame and no decoder row is fully masked; no causal mask is needed (non-autoregressive)
# looks-like: ATT002
# source: https://github.com/LuisDehlwes/conformer-tts https://github.com/LuisDehlwes/conformer-tts/commit/1d9e0874f3d92ed9308a0b797c8c6645c7734695 conformer_tts/models/fastspeech2.py
from dataclasses import dataclass

import torch
from torch import nn

from tts.conformer import ConformerStack


@dataclass
class FS2Output:
    mel: torch.Tensor           # (B, T_mel, n_mels)
    log_duration: torch.Tensor  # (B, T_text)
    mel_mask: torch.Tensor      # (B, T_mel), True = padding


def length_regulate(x: torch.Tensor, durations: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Repeat each phoneme state durations[b, i] times; returns (padded frames, frame counts)."""
    frames = [torch.repeat_interleave(seq, dur.clamp(min=0).long(), dim=0) for seq, dur in zip(x, durations)]
    lengths = torch.tensor([f.size(0) for f in frames], device=x.device)
    target = max(int(lengths.max().item()), 1)
    out = x.new_zeros(len(frames), target, x.size(-1))
    for i, f in enumerate(frames):
        out[i, : f.size(0)] = f
    return out, lengths


class FastSpeech2(nn.Module):
    def __init__(self, vocab_size: int, n_mels: int = 80, dim: int = 256, n_heads: int = 2) -> None:
        super().__init__()
        self.embed = nn.Embedding(vocab_size, dim, padding_idx=0)
        self.encoder = ConformerStack(dim, n_layers=4, n_heads=n_heads)
        self.duration_predictor = nn.Sequential(nn.Linear(dim, dim), nn.ReLU(), nn.Linear(dim, 1))
        self.decoder = ConformerStack(dim, n_layers=4, n_heads=n_heads)
        self.mel_proj = nn.Linear(dim, n_mels)

    @staticmethod
    def padding_mask(lengths: torch.Tensor, max_len: int) -> torch.Tensor:
        positions = torch.arange(max_len, device=lengths.device).unsqueeze(0)
        return positions >= lengths.unsqueeze(1)  # True = padding

    def forward(self, phonemes: torch.Tensor, text_lengths: torch.Tensor,
                durations: torch.Tensor | None = None) -> FS2Output:
        text_mask = self.padding_mask(text_lengths, phonemes.size(1))
        x = self.encoder(self.embed(phonemes), key_padding_mask=text_mask)

        log_dur = self.duration_predictor(x).squeeze(-1)
        if durations is None:
            predicted = (torch.exp(log_dur) - 1.0).round().clamp(min=0).long()
            real = ~text_mask  # True on real phonemes
            durations = torch.where(real, predicted.clamp(min=1), predicted)

        frames, mel_lengths = length_regulate(x, durations)
        mel_mask = self.padding_mask(mel_lengths, frames.size(1))
        y = self.decoder(frames, key_padding_mask=mel_mask)
        return FS2Output(mel=self.mel_proj(y), log_duration=log_dur, mel_mask=mel_mask)
