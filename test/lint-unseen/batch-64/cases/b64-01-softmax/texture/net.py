import torch.nn as nn
import torch.nn.functional as F

from texture.encoding import ResidualEncoding


class TextureHead(nn.Module):
    """Deep TEN style head: reduce the backbone channels, encode, normalise, classify."""

    def __init__(self, backbone, in_channels=2048, width=128, num_codes=32, num_classes=47):
        super().__init__()
        self.backbone = backbone
        self.reduce = nn.Sequential(
            nn.Conv2d(in_channels, width, kernel_size=1),
            nn.BatchNorm2d(width),
            nn.ReLU(inplace=True),
        )
        self.encode = ResidualEncoding(width, num_codes)
        self.classify = nn.Linear(width * num_codes, num_classes)

    def forward(self, images):
        feats = self.reduce(self.backbone(images))  # (B, width, H, W)
        codes = self.encode(feats)  # (B, K, width)
        codes = F.normalize(codes.flatten(1), dim=1)
        return self.classify(codes)
