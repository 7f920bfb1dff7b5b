# case: softmax-catalyst-pooling-channel-dim
# modelled-on: catalyst-team/catalyst https://github.com/catalyst-team/catalyst/pull/285
# label: buggy
# pattern: temporal attention pooling: a 1x1 Conv1d yields scores of shape (B, 1, T) and the Softmax in the nn.Sequential runs over dim=1, the single channel
# why: a softmax over a length-1 axis returns 1.0 everywhere, so every history step gets weight 1 and the pooling is a plain sum
import torch
import torch.nn as nn


class TemporalAttentionPooling(nn.Module):
    def __init__(self, features_in: int, kernel_size: int = 1):
        super().__init__()
        self.features_in = features_in
        self.attention_pooling = nn.Sequential(
            nn.Conv1d(in_channels=features_in, out_channels=1, kernel_size=kernel_size),
            nn.Softmax(dim=1),  # expect: ATT001
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        # x: (B, history_len, features)
        batch_size, history_len, feature_size = x.shape
        x_a = x.transpose(1, 2)  # (B, features, T)
        weights = self.attention_pooling(x_a)  # (B, 1, T)
        x_attn = (weights * x_a).transpose(1, 2)  # (B, T, features)
        return x_attn.sum(1, keepdim=True)  # (B, 1, features)


class LamaPooling(nn.Module):
    """Concatenates last, average and attention-pooled features of an observation history."""

    def __init__(self, features_in: int):
        super().__init__()
        self.attn = TemporalAttentionPooling(features_in)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        last = x[:, -1:, :]
        avg = x.mean(1, keepdim=True)
        return torch.cat([last, avg, self.attn(x)], dim=1).view(x.shape[0], -1)
