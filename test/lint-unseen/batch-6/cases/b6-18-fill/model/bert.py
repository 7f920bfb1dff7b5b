import torch.nn as nn

from model.attention import MultiHeadAttention


class EncoderLayer(nn.Module):
    def __init__(self, H, A, P_drop=0.1):
        super().__init__()
        self.attn = MultiHeadAttention(H, A, P_drop)
        self.ln1 = nn.LayerNorm(H)
        self.ffn = nn.Sequential(nn.Linear(H, 4 * H), nn.GELU(), nn.Linear(4 * H, H), nn.Dropout(P_drop))
        self.ln2 = nn.LayerNorm(H)

    def forward(self, x, mask=None):
        x = self.ln1(x + self.attn(x, mask))
        return self.ln2(x + self.ffn(x))


class BertModel(nn.Module):
    def __init__(self, L=12, H=768, A=12, V=30000, max_len=512):
        super().__init__()
        self.tok = nn.Embedding(V, H)
        self.pos = nn.Embedding(max_len, H)
        self.seg = nn.Embedding(2, H)
        self.layers = nn.ModuleList([EncoderLayer(H, A) for _ in range(L)])
        self.mlm_head = nn.Linear(H, V)

    def forward(self, input_ids, segment_ids, attention_mask=None):
        if attention_mask is not None:
            attention_mask = attention_mask.unsqueeze(1).unsqueeze(2)  # (B, 1, 1, S), 1 = token
        pos = self.pos.weight[: input_ids.size(1)]
        x = self.tok(input_ids) + pos + self.seg(segment_ids)
        for layer in self.layers:
            x = layer(x, attention_mask)
        return self.mlm_head(x)
