import torch.nn as nn

from src.layers.multihead_attention import MultiHeadAttention


class TransformerBlock(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.attn = MultiHeadAttention(
            emb_dim=cfg["emb_dim"],
            context_length=cfg["context_length"],
            qkv_bias=cfg["qkv_bias"],
            dropout=cfg["drop_rate"],
            num_heads=cfg["n_heads"],
        )
        self.ff = nn.Sequential(nn.Linear(cfg["emb_dim"], 4 * cfg["emb_dim"]), nn.GELU(approximate="tanh"), nn.Linear(4 * cfg["emb_dim"], cfg["emb_dim"]))
        self.norm1 = nn.LayerNorm(cfg["emb_dim"])
        self.norm2 = nn.LayerNorm(cfg["emb_dim"])
        self.drop = nn.Dropout(cfg["drop_rate"])

    def forward(self, x):
        x = x + self.drop(self.attn(self.norm1(x)))
        return x + self.drop(self.ff(self.norm2(x)))


GPT2_SMALL = {"vocab_size": 50257, "context_length": 1024, "emb_dim": 768, "n_heads": 12, "n_layers": 12, "drop_rate": 0.0, "qkv_bias": True}
