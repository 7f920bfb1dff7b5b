# case: b20-04-clean
# modelled-on: Proteinea/ppiseq https://github.com/Proteinea/ppiseq/commit/328cea87c84af5a22220a5d9c875e85c0114a37f
# label: correct
# class: clean
# pattern: a protein-protein binding-affinity model on a frozen protein language model: the tokenizer's attention masks (1 on residues, 0 on padding) are cast to the embeddings' float dtype and each chain attends to the other with nn.MultiheadAttention(batch_first=True), passing key_padding_mask=other_mask.log(); the same float keep masks weight a mean pooler in another module (layers/poolers.py)
# why: correct: a float key_padding_mask is added to the scores, and log of a 0/1 keep mask is 0 on residues and -inf on padding, an additive mask of the right polarity (the ligand's queries get the receptor's mask and vice versa); every chain has residues, so no row is all -inf; the log is taken of the float copy, never of a bool
# looks-like: ATT002, ATT007
# source: https://github.com/Proteinea/ppiseq https://github.com/Proteinea/ppiseq/commit/328cea87c84af5a22220a5d9c875e85c0114a37f ppi_research/models/convbert/attention_model.py
from __future__ import annotations

import torch
from torch import nn

from ..layers.poolers import masked_mean


class CrossAttnPoolAdd(nn.Module):
    def __init__(self, backbone: nn.Module, num_heads: int = 8, shared_attention: bool = True):
        super().__init__()
        self.backbone = backbone
        self.embed_dim = backbone.config.hidden_size
        self.shared_attention = shared_attention
        if shared_attention:
            self.attn = nn.MultiheadAttention(self.embed_dim, num_heads, dropout=0.0, bias=False, batch_first=True)
        else:
            self.ligand_attn = nn.MultiheadAttention(self.embed_dim, num_heads, dropout=0.0, bias=False, batch_first=True)
            self.receptor_attn = nn.MultiheadAttention(self.embed_dim, num_heads, dropout=0.0, bias=False, batch_first=True)
        self.regressor = nn.Linear(self.embed_dim, 1)

    def forward(self, ligand_ids, receptor_ids, ligand_mask=None, receptor_mask=None, labels=None):
        with torch.no_grad():
            ligand = self.backbone(input_ids=ligand_ids, attention_mask=ligand_mask)[0]
            receptor = self.backbone(input_ids=receptor_ids, attention_mask=receptor_mask)[0]

        ligand_mask = ligand_mask.to(device=ligand.device, dtype=ligand.dtype)
        receptor_mask = receptor_mask.to(device=receptor.device, dtype=receptor.dtype)

        lig_attn = self.attn if self.shared_attention else self.ligand_attn
        rec_attn = self.attn if self.shared_attention else self.receptor_attn
        out_1, _ = lig_attn(
            query=ligand,
            key=receptor,
            value=receptor,
            key_padding_mask=receptor_mask.log(),
            need_weights=False,
        )
        out_2, _ = rec_attn(
            query=receptor,
            key=ligand,
            value=ligand,
            key_padding_mask=ligand_mask.log(),
            need_weights=False,
        )
        ligand = ligand + out_1
        receptor = receptor + out_2

        pooled = masked_mean(ligand, ligand_mask) + masked_mean(receptor, receptor_mask)
        logits = self.regressor(pooled)
        loss = nn.functional.mse_loss(logits, labels) if labels is not None else None
        return {"logits": logits, "loss": loss}
