# case: fill-darts-tft-finfo-16-mixed
# modelled-on: unit8co/darts https://github.com/unit8co/darts/pull/3087
# label: correct
# pattern: the fixed module of the PR: the fill is torch.finfo(attn.dtype).min, which fits float16 under the 16-mixed trainer
# why: the fill is taken from the scores' own dtype, so it is -65504 under autocast and -3.4e38 in float32; softmax still gives the masked steps zero weight
# looks-like: ATT007, ATT001
import pytorch_lightning as pl
import torch
import torch.nn as nn


class ScaledDotProductAttention(nn.Module):
    def __init__(self, dropout: float = 0.0, scale: bool = True):
        super().__init__()
        self.dropout = nn.Dropout(p=dropout)
        self.softmax = nn.Softmax(dim=2)
        self.scale = scale

    def forward(self, q, k, v, mask=None):
        # q: (B, L, D), k and v: (B, S, D); mask: (B, L, S) True where a step must not be seen
        attn = torch.bmm(q, k.permute(0, 2, 1))  # (B, L, S)
        if self.scale:
            dimension = torch.sqrt(torch.tensor(k.shape[-1], dtype=attn.dtype, device=attn.device))
            attn = attn / dimension
        if mask is not None:
            attn = attn.masked_fill(mask, torch.finfo(attn.dtype).min)
        attn = self.softmax(attn)
        attn = self.dropout(attn)
        return torch.bmm(attn, v), attn


def fit(model: pl.LightningModule, train_loader, epochs: int = 10):
    trainer = pl.Trainer(max_epochs=epochs, precision="16-mixed", accelerator="gpu")
    trainer.fit(model, train_loader)
    return model
