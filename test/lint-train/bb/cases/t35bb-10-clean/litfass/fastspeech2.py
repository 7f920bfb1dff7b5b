# case: t35bb-10-clean
# modelled-on: MiniXC/LightningFastSpeech2 https://github.com/MiniXC/LightningFastSpeech2/commit/23a83937c09d8cb2590d3b27212c7ac497e2a120
# label: correct
# class: clean
# pattern: a FastSpeech 2 text-to-speech model (PyTorch Lightning): phone encoder and mel decoder are `nn.TransformerEncoder`s of a Conformer-style subclass of `nn.TransformerEncoderLayer` (batch_first=True, convolutions instead of the feed-forward) defined in another module; the encoder gets `src_key_padding_mask=phones.eq(0)`, the decoder gets `src_key_padding_mask=tgt_mask` where `tgt_mask` comes from the length regulator in the other module as `~(arange(max_len) < lengths[:, None])`; the same masks zero padded positions of the duration / pitch / energy predictions with `masked_fill(mask, 0)`; the other module also keeps an unused `generate_square_subsequent_mask` (a float 0 / -inf causal mask) and `create_mask`
# why: correct: PyTorch's key_padding_mask is True where a key is ignored, and both masks are True exactly on padding (phone id 0; frames past each utterance's length); `tgt_mask` names the target (mel) padding mask, not a causal mask, and the non-autoregressive decoder needs none; `masked_fill(mask, 0)` zeroes predictions, not attention scores
# looks-like: ATT002, ATT006, ATT007
# source: https://github.com/MiniXC/LightningFastSpeech2 https://github.com/MiniXC/LightningFastSpeech2/commit/23a83937c09d8cb2590d3b27212c7ac497e2a120 litfass/fastspeech2/fastspeech2.py
import torch
import torch.nn as nn
from torch.nn import TransformerEncoder

from .layers import ConformerEncoderLayer, LengthRegulator, PositionalEncoding, VariancePredictor


class FastSpeech2(nn.Module):
    def __init__(self, n_phones, encoder_hidden=256, encoder_head=2, encoder_layers=4, decoder_hidden=256,
                 decoder_head=2, decoder_layers=6, conv_filter_size=1024, kernel_size=9, dropout=0.1,
                 n_mels=80, max_frames=2000):
        super().__init__()
        self.max_frames = max_frames
        self.phone_embedding = nn.Embedding(n_phones, encoder_hidden, padding_idx=0)
        self.encoder = TransformerEncoder(
            ConformerEncoderLayer(
                encoder_hidden, encoder_head,
                conv_in=encoder_hidden, conv_filter_size=conv_filter_size, conv_kernel=(kernel_size, 1),
                batch_first=True, dropout=dropout,
            ),
            num_layers=encoder_layers,
        )
        self.positional_encoding = PositionalEncoding(encoder_hidden, dropout=dropout)
        self.duration_predictor = VariancePredictor(encoder_hidden, 256, 3, dropout)
        self.pitch_predictor = VariancePredictor(encoder_hidden, 256, 3, dropout)
        self.pitch_embedding = nn.Linear(1, encoder_hidden)
        self.length_regulator = LengthRegulator()
        self.decoder = TransformerEncoder(
            ConformerEncoderLayer(
                decoder_hidden, decoder_head,
                conv_in=decoder_hidden, conv_filter_size=conv_filter_size, conv_kernel=(kernel_size, 1),
                batch_first=True, dropout=dropout,
            ),
            num_layers=decoder_layers,
        )
        self.linear = nn.Linear(decoder_hidden, n_mels)

    def forward(self, phones, durations=None):
        src_mask = phones.eq(0)  # True on padding phones

        output = self.positional_encoding(self.phone_embedding(phones))
        output = self.encoder(output, src_key_padding_mask=src_mask)

        log_duration = self.duration_predictor(output, src_mask)
        if durations is None:
            durations = torch.clamp(torch.round(torch.exp(log_duration) - 1), min=0).long()
            durations = durations.masked_fill(src_mask, 0)

        x, tgt_mask = self.length_regulator(output, durations, self.max_frames)  # tgt_mask: True on padded frames
        pitch = self.pitch_predictor(x, tgt_mask)
        x = x + self.pitch_embedding(pitch.unsqueeze(-1))

        x = self.positional_encoding(x)
        x = self.decoder(x, src_key_padding_mask=tgt_mask)
        mel = self.linear(x)
        return {"mel": mel, "src_mask": src_mask, "tgt_mask": tgt_mask, "log_duration": log_duration, "pitch": pitch}
