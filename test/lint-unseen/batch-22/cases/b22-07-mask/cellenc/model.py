# case: b22-07-mask
# modelled-on: ArcInstitute/state https://github.com/ArcInstitute/state/commit/e15c26aa041108e38dfc3831c9d92e71601062f8
# label: correct
# class: fixed
# pattern: the fix of b22-06-mask ("fixed inverse masking"): the collator (collate.py) now builds the sentence mask as torch.isin(sentence, task_genes), a boolean tensor, tops it up or thins it out to a configured share of the sentence and clears the CLS position; the model, unchanged, casts it to bool and passes it to a batch-first nn.TransformerEncoder as src_key_padding_mask
# why: correct: isin is True exactly for the sentence genes that are also task genes, the ones the encoder must not see, and True is what key_padding_mask hides; the CLS token is never hidden, so no row is fully masked
# looks-like: ATT002
# source: https://github.com/ArcInstitute/state https://github.com/ArcInstitute/state/commit/e15c26aa041108e38dfc3831c9d92e71601062f8 vci/data/loader.py
import math

import torch
import torch.nn as nn
from torch.nn import TransformerEncoder, TransformerEncoderLayer


class CellEncoder(nn.Module):
    def __init__(self, token_dim: int, d_model: int, nhead: int, d_hid: int, nlayers: int, dropout: float = 0.0):
        super().__init__()
        self.d_model = d_model
        self.cls_token = nn.Parameter(torch.randn(1, token_dim))
        self.encoder = nn.Sequential(nn.Linear(token_dim, d_model), nn.LayerNorm(d_model), nn.SiLU())
        layer = TransformerEncoderLayer(d_model, nhead, d_hid, dropout=dropout, batch_first=True, activation="gelu")
        self.transformer_encoder = TransformerEncoder(layer, nlayers)
        self.decoder = nn.Sequential(nn.Linear(d_model, d_model), nn.SiLU(), nn.Linear(d_model, 128))

    def forward(self, src: torch.Tensor, mask: torch.Tensor):
        """src: (batch, seq_len, token_dim); mask: (batch, seq_len), True = hidden from attention."""
        src = self.encoder(src) * math.sqrt(self.d_model)
        output = self.transformer_encoder(src, src_key_padding_mask=mask)
        gene_output = self.decoder(output)
        embedding = nn.functional.normalize(gene_output[:, 0, :], dim=1)  # the CLS token
        return gene_output, embedding

    def embed_batch(self, batch, gene_embeddings: nn.Embedding):
        sentences, _, mask = batch
        mask = mask.to(torch.bool)
        tokens = gene_embeddings(sentences.long())
        tokens[:, 0, :] = self.cls_token.expand(tokens.size(0), -1)
        tokens = nn.functional.normalize(tokens, dim=2)
        # mask out the gene embeddings that appear in the task sentence
        _, embedding = self.forward(tokens, mask=mask)
        return embedding
