import torch
import torch.nn as nn

from modality_attention import CrossModalityAttention


class ModalityFusion(nn.Module):
    """Lets the visual token of every frame look at the other modalities of that frame."""

    def __init__(self, feat_dim, heads=8):
        super().__init__()
        self.attn = CrossModalityAttention(dim=feat_dim, num_heads=heads, qkv_bias=True, attn_drop=0.2, proj_drop=0.2)
        self.balance = nn.Parameter(torch.tensor([0.5]))
        self.temperature = 1.0

    def _squash(self, p):
        return torch.sigmoid(p / self.temperature)

    def forward(self, visual, others):
        # visual: (B, T, F); others: (B, T, M-1, F) after reshaping each modality to F
        others = others.reshape(others.shape[0], others.shape[1], -1, visual.shape[-1])
        stacked = torch.cat([visual.unsqueeze(2), others], dim=2)  # (B, T, M, F)
        mixed = self.attn(stacked)
        return self._squash(self.balance) * mixed[:, :, 0, :] + visual
