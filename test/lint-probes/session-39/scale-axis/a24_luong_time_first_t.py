import torch
import torch.nn as nn
import torch.nn.functional as F


class Attn(nn.Module):
    """Luong 'dot' with time-first encoder outputs (the classic chatbot tutorial layout)."""

    def forward(self, hidden, encoder_outputs):
        # hidden: (1, B, H); encoder_outputs: (T, B, H)
        energies = torch.sum(hidden * encoder_outputs, dim=2)  # (T, B)
        energies = energies.t()  # (B, T)
        return F.softmax(energies, dim=1).unsqueeze(1)  # (B, 1, T)


class Decoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.attn = Attn()

    def forward(self, rnn_output, encoder_outputs):
        w = self.attn(rnn_output, encoder_outputs)  # (B, 1, T)
        return w.bmm(encoder_outputs.transpose(0, 1))  # (B, 1, H)
