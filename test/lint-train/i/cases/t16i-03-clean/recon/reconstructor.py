import torch
import torch.nn as nn

from .attention import StepAttention


class LocalReconstructor(nn.Module):
    def __init__(self, hidden_size, feat_size, bottleneck=256):
        super().__init__()
        self.cell = nn.LSTMCell(hidden_size, feat_size)
        self.attention = StepAttention(feat_size, hidden_size, bottleneck)

    def forward(self, decoder_hiddens, state, caption_masks):
        # decoder_hiddens: (B, T, H); caption_masks: (T, B), True on real words
        attention_masks = caption_masks.transpose(0, 1)
        context, weights = self.attention(state[0], decoder_hiddens, attention_masks)
        return self.cell(context, state), weights


class Captioner(nn.Module):
    def __init__(self, vocab, decoder, reconstructor):
        super().__init__()
        self.vocab = vocab
        self.decoder = decoder
        self.reconstructor = reconstructor

    def forward(self, feats, captions):
        # captions: (T, B) word ids, starting with <SOS>
        decoder_hiddens = self.decoder(feats, captions)
        caption_masks = (captions != self.vocab["<PAD>"]) * (captions != self.vocab["<EOS>"])
        state = (feats.new_zeros(feats.size(0), feats.size(2)), feats.new_zeros(feats.size(0), feats.size(2)))
        recon = []
        for _ in range(feats.size(1)):
            state, _ = self.reconstructor(decoder_hiddens, state, caption_masks)
            recon.append(state[0])
        return torch.stack(recon, dim=1)
