import torch
import torch.nn as nn
import torch.nn.functional as F


class DotScore(nn.Module):
    def __init__(self, hidden_size):
        super().__init__()
        self.hidden_size = hidden_size

    @staticmethod
    def score(step_out, enc_out):
        # step_out: (1, B, H), enc_out: (T, B, H) -> (T, B)
        return torch.sum(step_out * enc_out, dim=2)

    def forward(self, step_out, enc_out):
        energies = self.score(step_out, enc_out)
        energies = energies.t()  # (B, T)
        return F.softmax(energies, dim=1).unsqueeze(1)  # (B, 1, T)
