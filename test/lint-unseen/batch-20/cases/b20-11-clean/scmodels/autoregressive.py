import torch.nn as nn

from .components.attention import generate_causal_mask


class AutoregressiveCellModel(nn.Module):
    def __init__(self, embedding: nn.Module, vocab_size: int, dim=256, heads=4, layers=4):
        super().__init__()
        self.embedding = embedding
        self.encoder = nn.TransformerEncoder(nn.TransformerEncoderLayer(dim, heads, batch_first=True), layers)
        self.gene_head = nn.Linear(dim, vocab_size)

    def forward(self, input_ids, attention_mask, values=None):
        emb = self.embedding(input_ids, values=values)
        causal_mask = generate_causal_mask(input_ids.size(1), device=input_ids.device)
        padding_mask = attention_mask == 0
        hidden = self.encoder(emb, mask=causal_mask, src_key_padding_mask=padding_mask)
        return self.gene_head(hidden)
