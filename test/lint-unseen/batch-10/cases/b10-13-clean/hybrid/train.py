import pytorch_lightning as pl
import torch
from torch import nn

from hybrid.encoder import EncoderBlock


class LineEncoder(pl.LightningModule):
    def __init__(self, criterion, dim=256, heads=8, layers=4, num_labels=120):
        super().__init__()
        self.criterion = criterion  # a CTC loss over the per-position label scores
        self.conv = nn.Conv2d(1, dim, kernel_size=(32, 4), stride=(32, 4))
        self.blocks = nn.ModuleList([EncoderBlock(dim, heads, 4 * dim) for _ in range(layers)])
        self.head = nn.Linear(dim, num_labels)

    def forward(self, images, mask=None):
        x = self.conv(images).squeeze(2).transpose(1, 2)  # [Batch, SeqLen, Dim]
        for block in self.blocks:
            x = block(x, mask=mask)
        return self.head(x)

    def training_step(self, batch, batch_idx):
        images, labels, attn_images = batch
        logits = self(images, mask=attn_images)
        return self.criterion(logits.log_softmax(-1), labels, attn_images.sum(-1))

    def configure_optimizers(self):
        return torch.optim.AdamW(self.parameters(), lr=3e-4)


def make_trainer(root_dir):
    return pl.Trainer(default_root_dir=root_dir, accelerator="gpu", devices=2, strategy="ddp", precision="16-mixed", max_epochs=30, gradient_clip_val=5)
