# case: b36-02-clean
# modelled-on: tinkoff-ai/CORL https://github.com/tinkoff-ai/CORL/commit/6afec90484bbf47dee05fdf525e26a3ebe028e9b
# label: correct
# class: clean
# pattern: a single-file Decision Transformer for offline reinforcement learning, split here into data.py, model.py and train.py: the dataset returns a 0/1 step mask (1 for the real steps of a window, 0 for the zero padding after them, built before the padding); train_step inverts it with ~mask.to(torch.bool) and passes it as padding_mask; the model interleaves (return, state, action) tokens and repeats each step's flag three times in the same order; each TransformerBlock calls nn.MultiheadAttention(batch_first=True) with attn_mask = ~tril(ones).to(bool) sliced to the sequence and key_padding_mask = that padding mask; the loss is weighted by the original 0/1 mask
# why: correct: nn.MultiheadAttention's boolean attn_mask and key_padding_mask both mean True = not allowed; ~tril is True strictly above the diagonal (the future tokens) and ~mask is True on the padded steps, so the two inversions produce exactly the masks the module expects, while the loss keeps the 1 = real convention; the padding sits after the real steps, so with the causal mask no row is left without a key
# looks-like: ATT002
# source: https://github.com/tinkoff-ai/CORL https://github.com/tinkoff-ai/CORL/commit/6afec90484bbf47dee05fdf525e26a3ebe028e9b algorithms/offline/dt.py
from typing import Optional

import torch
import torch.nn as nn


class TransformerBlock(nn.Module):
    def __init__(self, seq_len: int, embedding_dim: int, num_heads: int, attention_dropout: float, residual_dropout: float):
        super().__init__()
        self.norm1 = nn.LayerNorm(embedding_dim)
        self.norm2 = nn.LayerNorm(embedding_dim)
        self.drop = nn.Dropout(residual_dropout)
        self.attention = nn.MultiheadAttention(embedding_dim, num_heads, attention_dropout, batch_first=True)
        self.mlp = nn.Sequential(
            nn.Linear(embedding_dim, 4 * embedding_dim),
            nn.GELU(),
            nn.Linear(4 * embedding_dim, embedding_dim),
            nn.Dropout(residual_dropout),
        )
        # True marks a position that may NOT be attended (the future)
        self.register_buffer("causal_mask", ~torch.tril(torch.ones(seq_len, seq_len)).to(bool))

    def forward(self, x: torch.Tensor, padding_mask: Optional[torch.Tensor] = None) -> torch.Tensor:
        causal_mask = self.causal_mask[: x.shape[1], : x.shape[1]]
        h = self.norm1(x)
        attn_out = self.attention(
            query=h, key=h, value=h, attn_mask=causal_mask, key_padding_mask=padding_mask, need_weights=False
        )[0]
        x = x + self.drop(attn_out)
        return x + self.mlp(self.norm2(x))


class DecisionTransformer(nn.Module):
    def __init__(self, state_dim: int, action_dim: int, seq_len: int = 10, episode_len: int = 1000, embedding_dim: int = 128, num_layers: int = 4, num_heads: int = 8):
        super().__init__()
        self.embedding_dim = embedding_dim
        self.timestep_emb = nn.Embedding(episode_len + seq_len, embedding_dim)
        self.state_emb = nn.Linear(state_dim, embedding_dim)
        self.action_emb = nn.Linear(action_dim, embedding_dim)
        self.return_emb = nn.Linear(1, embedding_dim)
        self.emb_norm = nn.LayerNorm(embedding_dim)
        self.blocks = nn.ModuleList(
            TransformerBlock(3 * seq_len, embedding_dim, num_heads, 0.0, 0.0) for _ in range(num_layers)
        )
        self.out_norm = nn.LayerNorm(embedding_dim)
        self.action_head = nn.Sequential(nn.Linear(embedding_dim, action_dim), nn.Tanh())

    def forward(self, states, actions, returns_to_go, time_steps, padding_mask: Optional[torch.Tensor] = None):
        batch_size, seq_len = states.shape[0], states.shape[1]
        time_emb = self.timestep_emb(time_steps)
        tokens = torch.stack(
            [
                self.return_emb(returns_to_go.unsqueeze(-1)) + time_emb,
                self.state_emb(states) + time_emb,
                self.action_emb(actions) + time_emb,
            ],
            dim=1,
        )
        # (r_0, s_0, a_0, r_1, s_1, a_1, ...): [batch_size, 3 * seq_len, emb_dim]
        sequence = tokens.permute(0, 2, 1, 3).reshape(batch_size, 3 * seq_len, self.embedding_dim)
        if padding_mask is not None:
            # repeat each step's flag for its three tokens, in the same interleaved order
            padding_mask = (
                torch.stack([padding_mask, padding_mask, padding_mask], dim=1)
                .permute(0, 2, 1)
                .reshape(batch_size, 3 * seq_len)
            )
        out = self.emb_norm(sequence)
        for block in self.blocks:
            out = block(out, padding_mask=padding_mask)
        return self.action_head(self.out_norm(out)[:, 1::3])
