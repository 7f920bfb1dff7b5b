# case: b54-05-clean
# modelled-on: manujosephv/pytorch_tabular https://github.com/manujosephv/pytorch_tabular/commit/023db2776f96a0f2854e837eef62840be1a12a5e
# label: correct
# class: clean
# pattern: the AutoInt backbone of a tabular-learning library (a folder: the dataclass config with attn_embed_dim, num_heads and the number of stacked blocks, and the backbone that embeds every column as a token, projects the (B, N_cols, E) embeddings into the interaction space, transposes them to (N_cols, B, E*) and runs a stack of torch.nn.MultiheadAttention layers built without batch_first, then transposes back, adds a projected residual and flattens)
# why: correct: nn.MultiheadAttention without batch_first expects (L, B, E), which is what the transpose(0, 1) produces; the layer itself splits attn_embed_dim into num_heads heads, scales by 1/sqrt(attn_embed_dim // num_heads) and takes the softmax over the key columns; tabular rows have no padding or order, so no mask is needed; transposing back before the residual and the reshape restores (B, N_cols, E*)
# looks-like: ATT001, ATT003, ATT005
# source: https://github.com/manujosephv/pytorch_tabular https://github.com/manujosephv/pytorch_tabular/commit/023db2776f96a0f2854e837eef62840be1a12a5e src/pytorch_tabular/models/autoint/autoint.py
import torch
import torch.nn as nn

from interaction_config import FeatureInteractionConfig


def _mlp(sizes, in_dim, dropout=0.0):
    mods = []
    for out_dim in sizes:
        mods += [nn.Linear(in_dim, out_dim), nn.ReLU(), nn.Dropout(dropout)]
        in_dim = out_dim
    return nn.Sequential(*mods), in_dim


class InteractingBackbone(nn.Module):
    def __init__(self, cfg: FeatureInteractionConfig):
        super().__init__()
        self.cfg = cfg
        width = cfg.embedding_dim
        self.mlp = None
        if cfg.deep_layers:
            self.mlp, width = _mlp([int(u) for u in cfg.layers.split("-")], width)
        self.to_interaction = nn.Linear(width, cfg.attn_embed_dim)
        self.blocks = nn.ModuleList(
            nn.MultiheadAttention(cfg.attn_embed_dim, cfg.num_heads, dropout=cfg.attn_dropouts)
            for _ in range(cfg.num_attn_blocks)
        )
        res_width = cfg.attn_embed_dim * (cfg.num_attn_blocks if cfg.attention_pooling else 1)
        self.skip = nn.Linear(width, res_width) if cfg.has_residuals else None
        n_cols = cfg.continuous_dim + cfg.categorical_dim
        self.output_dim = n_cols * res_width

    def forward(self, emb: torch.Tensor) -> torch.Tensor:
        # emb: (B, N_cols, embedding_dim), one token per column
        if self.mlp is not None:
            emb = self.mlp(emb)
        tokens = self.to_interaction(emb).transpose(0, 1)  # (N_cols, B, E*)
        outs = []
        for block in self.blocks:
            tokens, _ = block(tokens, tokens, tokens)
            if self.cfg.attention_pooling:
                outs.append(tokens)
        if self.cfg.attention_pooling:
            tokens = torch.cat(outs, dim=-1)
        tokens = tokens.transpose(0, 1)  # back to (B, N_cols, E*)
        if self.skip is not None:
            tokens = tokens + self.skip(emb)
        return torch.relu(tokens).reshape(-1, self.output_dim)
