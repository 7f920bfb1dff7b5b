import torch
from torch import nn


class LineCollator:
    """Pads line images to the batch's widest and builds the column keep mask the encoder uses."""

    def __init__(self, pool_width: int = 4):
        self.pooler = nn.MaxPool1d(pool_width, stride=pool_width)

    def __call__(self, batch):
        images, labels = zip(*batch)
        widths = [im.shape[-1] for im in images]
        max_width = max(widths)
        attn_images = [[1] * w + [0] * (max_width - w) for w in widths]
        # pooled to the encoder's sequence length (one position per pool_width columns)
        attn_images = self.pooler(torch.tensor(attn_images).float()).long()
        padded = torch.stack([nn.functional.pad(im, (0, max_width - im.shape[-1]), value=1.0) for im in images])
        return padded, list(labels), attn_images
