from torch import nn


class MasterDecoderLayer(nn.Module):
    """Pre-norm layer: masked self-attention, cross-attention to the image features, feed-forward."""

    def __init__(self, d_model, n_head, d_inner, dropout=0.0):
        super().__init__()
        self.norm_self = nn.LayerNorm(d_model)
        self.self_attn = nn.MultiheadAttention(d_model, n_head, dropout=dropout, batch_first=True)
        self.norm_cross = nn.LayerNorm(d_model)
        self.cross_attn = nn.MultiheadAttention(d_model, n_head, dropout=dropout, batch_first=True)
        self.norm_ff = nn.LayerNorm(d_model)
        self.ff = nn.Sequential(
            nn.Linear(d_model, d_inner),
            nn.ReLU(inplace=True),
            nn.Dropout(dropout),
            nn.Linear(d_inner, d_model),
        )

    def forward(self, x, memory, self_mask=None, memory_mask=None):
        h = self.norm_self(x)
        attended, _ = self.self_attn(h, h, h, attn_mask=self_mask, need_weights=False)
        x = x + attended
        h = self.norm_cross(x)
        attended, _ = self.cross_attn(h, memory, memory, attn_mask=memory_mask, need_weights=False)
        x = x + attended
        return x + self.ff(self.norm_ff(x))
