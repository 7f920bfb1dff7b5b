# case: t27t-11-clean
# modelled-on: chronicarl4757/decision-transformer-minigrid-memory https://github.com/chronicarl4757/decision-transformer-minigrid-memory/commit/89a0122a707b6f4bb57888ce79d415a53fdc19e7
# label: correct
# class: clean
# pattern: a Decision Transformer for a memory gridworld: the data module left-pads each window and sets mask[pad:] = True on the real steps; the policy interleaves (return, state, action) tokens with torch.stack(dim=2).reshape(B, 3K, D), builds triu(ones(3K, 3K, bool), diagonal=1) as mask and ~padding_mask.repeat_interleave(3, dim=1) as src_key_padding_mask of an nn.TransformerEncoder(batch_first=True, norm_first=True), and reads the state tokens; the train module passes the window mask and masks the loss with it
# why: correct: the window mask is True on real steps, so its negation is True on padding, which is what src_key_padding_mask ignores; repeat_interleave(3) along the step axis gives each step's three tokens the step's flag, in the same order as the stack-then-reshape interleaving; triu(diagonal=1) is True on future tokens, the convention of the encoder's mask; the left-padded query rows see no key at all, which the attention's fused path returns as zeros in current PyTorch, and those positions are dropped from the loss
# looks-like: ATT002, ATT007
# source: https://github.com/chronicarl4757/decision-transformer-minigrid-memory https://github.com/chronicarl4757/decision-transformer-minigrid-memory/commit/89a0122a707b6f4bb57888ce79d415a53fdc19e7 src/models.py
import numpy as np
import torch
import torch.nn as nn


class DecisionTransformerPolicy(nn.Module):
    """Discrete-action Decision Transformer."""

    def __init__(self, state_dim: int, action_dim: int, context_length: int, embed_dim: int = 128,
                 n_layers: int = 2, n_heads: int = 4, dropout: float = 0.1, max_timestep: int = 500):
        super().__init__()
        self.action_dim = action_dim
        self.context_length = context_length
        self.embed_return = nn.Linear(1, embed_dim)
        self.embed_state = nn.Linear(state_dim, embed_dim)
        self.embed_action = nn.Embedding(action_dim, embed_dim)
        self.embed_timestep = nn.Embedding(max_timestep + 1, embed_dim)
        self.embed_ln = nn.LayerNorm(embed_dim)
        layer = nn.TransformerEncoderLayer(d_model=embed_dim, nhead=n_heads, dim_feedforward=4 * embed_dim,
                                           dropout=dropout, activation="gelu", batch_first=True, norm_first=True)
        self.transformer = nn.TransformerEncoder(layer, num_layers=n_layers)
        self.predict_action = nn.Linear(embed_dim, action_dim)

    def forward(self, returns_to_go, states, actions, timesteps, padding_mask=None):
        B, K = returns_to_go.shape
        t = self.embed_timestep(timesteps.clamp(0, self.embed_timestep.num_embeddings - 1))
        r = self.embed_return(returns_to_go.unsqueeze(-1)) + t
        s = self.embed_state(states) + t
        a = self.embed_action(actions.clamp(min=0)) + t
        tokens = self.embed_ln(torch.stack((r, s, a), dim=2).reshape(B, 3 * K, -1))  # (B, 3K, D): r0 s0 a0 r1 ...

        causal_mask = torch.triu(torch.ones(3 * K, 3 * K, dtype=torch.bool, device=tokens.device), diagonal=1)
        src_key_padding_mask = None
        if padding_mask is not None:
            src_key_padding_mask = ~padding_mask.repeat_interleave(3, dim=1)  # (B, 3K), True on padding
        hidden = self.transformer(tokens, mask=causal_mask, src_key_padding_mask=src_key_padding_mask)
        state_hidden = hidden.reshape(B, K, 3, -1)[:, :, 1, :]  # the state token of each step
        return self.predict_action(state_hidden)  # (B, K, action_dim)

    @torch.no_grad()
    def act(self, returns_to_go, states, actions, timesteps, device) -> int:
        start = max(0, len(states) - self.context_length)
        pad = self.context_length - (len(states) - start)
        arrays = dict(
            returns_to_go=np.zeros(self.context_length, dtype=np.float32),
            states=np.zeros((self.context_length, len(states[0])), dtype=np.float32),
            actions=np.zeros(self.context_length, dtype=np.int64),
            timesteps=np.zeros(self.context_length, dtype=np.int64),
        )
        for key, seq in (("returns_to_go", returns_to_go), ("states", states), ("actions", actions), ("timesteps", timesteps)):
            arrays[key][pad:] = np.asarray(seq[start:])
        mask = np.zeros(self.context_length, dtype=bool)
        mask[pad:] = True
        batch = {k: torch.as_tensor(v, device=device).unsqueeze(0) for k, v in arrays.items()}
        logits = self.forward(**batch, padding_mask=torch.as_tensor(mask, device=device).unsqueeze(0))
        return int(logits[0, -1].argmax())
