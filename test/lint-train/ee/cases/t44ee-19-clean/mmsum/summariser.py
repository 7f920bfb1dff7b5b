import torch
import torch.nn as nn

from mmsum.biattention import TextModalityAttention


def length_mask(x, lengths):
    lengths = torch.LongTensor(lengths)
    size = torch.Size(list(x.size())[:2])
    idx = torch.arange(x.size(1)).unsqueeze(0).expand(size)
    return idx < lengths.unsqueeze(1).expand(size)


class MultimodalSummariser(nn.Module):
    def __init__(self, text_enc, audio_enc, image_enc, hidden, max_transcript, device):
        super().__init__()
        self.text_enc, self.audio_enc, self.image_enc = text_enc, audio_enc, image_enc
        self.att_audio = TextModalityAttention(2 * hidden)
        self.att_image = TextModalityAttention(2 * hidden)
        self.max_transcript = max_transcript
        self.device = device

    def forward(self, text, text_len, audio, audio_len, frames, frame_len):
        t, _ = self.text_enc(text, text_len)
        a, _ = self.audio_enc(audio, audio_len)
        v, _ = self.image_enc(frames, frame_len)
        text_mask = length_mask(text, text_len).to(self.device)
        audio_mask = length_mask(audio, audio_len).to(self.device)
        image_mask = length_mask(frames, frame_len).to(self.device)
        pad = torch.zeros(text_mask.size(0), self.max_transcript - text_mask.size(1)).type(text_mask.type())
        decoder_mask = torch.cat((text_mask.cpu(), pad), dim=1).to(self.device)
        ta = self.att_audio(t, a, text_mask, audio_mask)
        ti = self.att_image(t, v, text_mask, image_mask)
        return ta, ti, decoder_mask
