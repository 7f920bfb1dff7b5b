# case: b57-08-clean
# modelled-on: Sunsh1neY/sts1-SetTransformer-PPO https://github.com/Sunsh1neY/sts1-SetTransformer-PPO/commit/31343cb225f5a982e9b6a9364dbfb55a70ec351a
# label: correct
# class: clean
# pattern: the actor-critic of a card-game agent that encodes a padded set of entities (player, cards, enemies) with hand-written pre-LN set-attention blocks and scores the legal candidate actions (a folder: the set-attention block with its config dataclass, whose logits are filled with -inf at absent entities, and the actor that checks every sample has its player entity, runs the blocks, mean-pools over present entities and scores candidates, filling illegal ones with -inf before a Categorical)
# why: correct: `present` is True for real entities and the block fills ~present with -inf, the right polarity; the (b, n, 3, heads, d) reshape is permuted (2, 0, 3, 1, 4) so heads come before entities and k.transpose(-1, -2) swaps entities and features; the logits are divided by sqrt(width // heads); the actor refuses a batch without a player entity, so no attention row is all -inf, and a state without any legal candidate is refused before sampling
# looks-like: ATT002, ATT005, ATT007
# source: https://github.com/Sunsh1neY/sts1-SetTransformer-PPO https://github.com/Sunsh1neY/sts1-SetTransformer-PPO/commit/31343cb225f5a982e9b6a9364dbfb55a70ec351a sts/models/entities.py
import torch
from torch import nn
from torch.distributions import Categorical

from entity_block import SetAttentionBlock, SetConfig


class CandidateActorCritic(nn.Module):
    def __init__(self, feature_dims: dict, n_kinds: int, context_dim: int, cfg: SetConfig = SetConfig()):
        super().__init__()
        cfg.check()
        w = cfg.width
        self.kinds = list(feature_dims)
        self.project = nn.ModuleDict({kind: nn.Linear(dim, w) for kind, dim in feature_dims.items()})
        self.kind_embedding = nn.Embedding(len(self.kinds), w)
        self.blocks = nn.ModuleList(SetAttentionBlock(cfg) for _ in range(cfg.layers))
        self.ln = nn.LayerNorm(w)
        self.action_kind = nn.Embedding(n_kinds, 8)
        self.score = nn.Sequential(nn.Linear(3 * w + 10 + context_dim, w), nn.GELU(), nn.Linear(w, 1))
        self.value = nn.Sequential(nn.Linear(w + context_dim, w), nn.GELU(), nn.Linear(w, 1))

    def encode(self, batch: dict):
        present = batch["entity_valid"]
        if not present.any(dim=1).all():
            raise ValueError("every state needs at least its player entity")
        types = batch["types"].masked_fill(~present, 0)
        x = self.kind_embedding(types).masked_fill(~present[..., None], 0)
        for i, kind in enumerate(self.kinds):
            mine = present & (types == i)
            x = x + self.project[kind](batch["features"][kind].masked_fill(~mine[..., None], 0)).masked_fill(~mine[..., None], 0)
        for block in self.blocks:
            x = block(x, present)
        x = self.ln(x).masked_fill(~present[..., None], 0)
        return x, x.sum(1) / present.sum(1, keepdim=True)

    def forward(self, batch: dict):
        x, pooled = self.encode(batch)
        n_cand = batch["source"].shape[1]

        def pick(index):
            rows = x.gather(1, index.clamp_min(0)[..., None].expand(-1, -1, x.shape[-1]))
            return rows.masked_fill((index < 0)[..., None], 0)

        src, tgt = batch["source"], batch["target"]
        feats = torch.cat([
            pick(src), pick(tgt), pooled[:, None].expand(-1, n_cand, -1), self.action_kind(batch["kinds"]),
            (src >= 0).float()[..., None], (tgt >= 0).float()[..., None], batch["candidate_context"],
        ], dim=-1)
        logits = self.score(feats).squeeze(-1)
        allowed = batch["candidate_valid"] & batch["legal"]
        shown = batch["candidate_valid"]
        ctx = batch["candidate_context"].masked_fill(~shown[..., None], 0).sum(1) / shown.sum(1, keepdim=True).clamp_min(1)
        return logits.masked_fill(~allowed, -torch.inf), self.value(torch.cat([pooled, ctx], -1)).squeeze(-1)

    def policy(self, batch: dict):
        if not (batch["candidate_valid"] & batch["legal"]).any(dim=1).all():
            raise ValueError("a state without legal candidates only has a value")
        logits, value = self(batch)
        return Categorical(logits=logits), value
