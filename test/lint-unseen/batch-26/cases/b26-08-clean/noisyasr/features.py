import torch
import torchaudio


class LogMel:
    """Batched log-mel features; frame counts follow from the padded waveform lengths."""

    def __init__(self, sample_rate=16000, n_mels=80, hop_length=160):
        self.hop_length = hop_length
        self.mel = torchaudio.transforms.MelSpectrogram(sample_rate=sample_rate, n_mels=n_mels, hop_length=hop_length)

    def __call__(self, wav: torch.Tensor, wav_lens: torch.Tensor):
        feats = torch.log(self.mel(wav) + 1e-6).transpose(1, 2)  # (B, T, n_mels)
        feat_lens = (wav_lens.float() / self.hop_length).ceil().long()
        feat_lens = torch.clamp(feat_lens, max=feats.shape[1])
        return feats, feat_lens
