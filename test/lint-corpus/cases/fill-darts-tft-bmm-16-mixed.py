# case: fill-darts-tft-bmm-16-mixed
# modelled-on: unit8co/darts https://github.com/unit8co/darts/pull/3087
# label: buggy
# pattern: a single-head scaled dot-product module over (B, L, D) tensors with bmm and k.permute(0, 2, 1), a hard-coded -1e9 fill, and the half precision coming only from the Lightning trainer's precision="16-mixed" set elsewhere in the file
# why: under 16-mixed autocast bmm returns float16 scores and masked_fill(-1e9) raises "value cannot be converted to type at::Half without overflow" (fixed in the PR with torch.finfo(attn.dtype).min)
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
            dimension = torch.sqrt(torch.tensor(k.shape[-1]).to(torch.float32))
            attn = attn / dimension
        if mask is not None:
            attn = attn.masked_fill(mask, -1e9)  # expect: ATT007
        attn = self.softmax(attn)
        attn = self.dropout(attn)
        return torch.bmm(attn, v), attn


def fit(model: pl.LightningModule, train_loader, epochs: int = 10):
    trainer = pl.Trainer(max_epochs=epochs, precision="16-mixed", accelerator="gpu")
    trainer.fit(model, train_loader)
    return model
