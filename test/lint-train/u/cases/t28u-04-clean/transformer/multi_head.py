import torch.nn as nn

from .scaled_attention import ScaledDotProductAttention


class MultiHeadAttention(nn.Module):
    def __init__(self, config):
        super().__init__()
        assert config.d_model % config.n_heads == 0
        self.d_model = config.d_model
        self.n_heads = config.n_heads
        self.d_heads = self.d_model // self.n_heads
        self.attn = ScaledDotProductAttention(config)
        self.fc_Q = nn.Linear(config.d_model, config.d_model)
        self.fc_K = nn.Linear(config.d_model, config.d_model)
        self.fc_V = nn.Linear(config.d_model, config.d_model)
        self.fc_O = nn.Linear(config.d_model, config.d_model)

    def forward(self, x):
        # x: [batch_size, len, d_model]
        batch_size = x.shape[0]
        Q = self.fc_Q(x).view(batch_size, -1, self.n_heads, self.d_heads).permute(0, 2, 1, 3)
        K = self.fc_K(x).view(batch_size, -1, self.n_heads, self.d_heads).permute(0, 2, 1, 3)
        V = self.fc_V(x).view(batch_size, -1, self.n_heads, self.d_heads).permute(0, 2, 1, 3)
        out = self.attn(Q, K, V)  # [batch_size, n_heads, len, d_heads]
        out = out.permute(0, 2, 1, 3).contiguous().view(batch_size, -1, self.d_model)
        return self.fc_O(out)
