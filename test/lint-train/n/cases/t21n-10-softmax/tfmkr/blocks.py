import torch.nn as nn

from tfmkr.sublayers import QKVProjectionSublayer, SelfAttentionSubLayer


class ResidualConnectionSubLayer(nn.Module):
    def __init__(self, args):
        super().__init__()
        self.norm_layer = nn.LayerNorm(args.model_dim)
        self.dropout_layer = nn.Dropout(args.model_dropout_ratio)

    def forward(self, transformed, original):
        return self.norm_layer(original + self.dropout_layer(transformed))


class EncoderBlock(nn.Module):
    def __init__(self, args):
        super().__init__()
        self.projection = QKVProjectionSublayer(args)
        self.self_attention = SelfAttentionSubLayer(args)
        self.residual_1 = ResidualConnectionSubLayer(args)
        self.ffnn = nn.Sequential(nn.Linear(args.model_dim, args.ffnn_dim), nn.ReLU(), nn.Linear(args.ffnn_dim, args.embed_dim))
        self.residual_2 = ResidualConnectionSubLayer(args)

    def forward(self, input_seq):  # input_seq : (batch, seq_len, embed_dim)
        Q, K, V = self.projection(input_seq)  # (batch, seq_len, model_dim)
        attended = self.residual_1(self.self_attention(Q, K, V), input_seq)
        return self.residual_2(self.ffnn(attended), attended)
