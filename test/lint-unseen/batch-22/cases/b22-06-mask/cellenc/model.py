# case: b22-06-mask
# modelled-on: ArcInstitute/state https://github.com/ArcInstitute/state/commit/cdcf00eecf24ae8aac8d32f93ea3e04f07d00a28
# label: buggy
# class: real-bug
# pattern: a single-cell foundation model: the collator (collate.py) samples a gene "sentence" per cell and a task set of genes to predict, and builds a per-token mask meant to hide the sentence genes that also appear in the task set, as ~torch.isin(sentence, task_genes); the model casts the batch mask to bool and hands it to a batch-first nn.TransformerEncoder as src_key_padding_mask
# why: buggy: key_padding_mask hides the positions that are True, and ~isin is True for every gene that is NOT in the task set, so the encoder attends only to the task genes it is supposed to predict (the leak the mask was written to stop, per the collator's comment) and ignores the rest of the cell, the CLS token included; the author's next commit, "fixed inverse masking", drops the ~ (b22-07-mask)
# source: https://github.com/ArcInstitute/state https://github.com/ArcInstitute/state/commit/cdcf00eecf24ae8aac8d32f93ea3e04f07d00a28 vci/nn/model.py
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
        output = self.transformer_encoder(src, src_key_padding_mask=mask)  # expect: ATT002
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
