import timm
import torch
import torch.nn as nn


class TileEncoder(nn.Module):
    """A timm backbone without its classifier: one pooled feature vector per tile."""

    def __init__(self, model_name: str = "efficientnet_b2", pretrained: bool = True):
        super().__init__()
        self.backbone = timm.create_model(model_name, pretrained=pretrained)
        self.body = nn.Sequential(*list(self.backbone.children())[:-1])
        self.feature_dim = self.backbone.num_features

    def forward(self, images: torch.Tensor) -> torch.Tensor:
        # (N, C, H, W) -> (N, feature_dim) after the backbone's global pooling
        return self.body(images)

    def get_feature_dim(self) -> int:
        return self.feature_dim
