from typing import List, Optional

import torch
from torch import Tensor, nn


class MultiModalEncoder(nn.Module):
    """Each modality gets a learned summary token in front; all modalities are concatenated in time."""

    def __init__(self, in_dims: List[int], d_model: int = 512, nhead: int = 8, layers: int = 2):
        super().__init__()
        self.project = nn.ModuleList([nn.Linear(d, d_model) for d in in_dims])
        self.summary = nn.Parameter(torch.zeros(1, 1, d_model))
        layer = nn.TransformerEncoderLayer(d_model, nhead, 4 * d_model, 0.1, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, layers, nn.LayerNorm(d_model))

    def forward(self, feats: List[Tensor], pad_masks: Optional[List[Tensor]]):
        batch = feats[0].shape[0]
        streams = []
        for proj, f in zip(self.project, feats):
            x = proj(f)
            streams.append(torch.cat([self.summary.expand(batch, -1, -1), x], dim=1))
        if pad_masks is not None:
            masks = []
            for m in pad_masks:
                # the summary token is never padding
                head = torch.ones(batch, 1, device=m.device) == 0
                masks.append(torch.cat([head, m], dim=1))
            src_pad = torch.cat(masks, dim=1)
        else:
            src_pad = None
        src = torch.cat(streams, dim=1)
        memory = self.encoder(src, None, src_pad)
        return memory, src_pad
