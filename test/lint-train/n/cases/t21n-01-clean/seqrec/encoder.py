import torch.nn as nn

from seqrec.attention import AttentionConf, HeadedSelfAttention


class EncoderLayer(nn.Module):
    def __init__(self, conf: AttentionConf, d_inner: int = 2048):
        super().__init__()
        self.attn = HeadedSelfAttention(conf)
        self.norm_attn = nn.LayerNorm(conf.d_model)
        self.ff = nn.Sequential(nn.Linear(conf.d_model, d_inner), nn.GELU(), nn.Linear(d_inner, conf.d_model))
        self.norm_ff = nn.LayerNorm(conf.d_model)
        self.drop = nn.Dropout(conf.dropout_rate)

    def forward(self, x, bias):
        x = self.norm_attn(x + self.drop(self.attn(x, bias)))
        return self.norm_ff(x + self.drop(self.ff(x)))


class Encoder(nn.Module):
    def __init__(self, conf: AttentionConf, n_layers: int = 2):
        super().__init__()
        self.layers = nn.ModuleList([EncoderLayer(conf) for _ in range(n_layers)])

    def forward(self, x, bias):
        for layer in self.layers:
            x = layer(x, bias)
        return x
