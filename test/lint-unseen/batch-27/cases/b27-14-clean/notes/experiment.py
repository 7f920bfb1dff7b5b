import torch


class TinyTransformer(torch.nn.Module):
    def __init__(self, vocab_size: int, d_model: int = 96, nhead: int = 4):
        super().__init__()
        self.emb = torch.nn.Embedding(vocab_size, d_model, padding_idx=0)
        layer = torch.nn.TransformerEncoderLayer(d_model=d_model, nhead=nhead, dim_feedforward=2 * d_model, batch_first=True)
        self.encoder = torch.nn.TransformerEncoder(layer, num_layers=2)
        self.head = torch.nn.Linear(d_model, 2)

    def forward(self, ids):
        mask = ids.eq(0)  # True on <pad>
        h = self.encoder(self.emb(ids), src_key_padding_mask=mask)
        pooled = h.masked_fill(mask.unsqueeze(-1), 0).sum(1) / (~mask).sum(1).clamp_min(1).unsqueeze(-1)
        return self.head(pooled)
