# case: b57-09-clean
# modelled-on: Sunsh1neY/sts1-SetTransformer-PPO https://github.com/Sunsh1neY/sts1-SetTransformer-PPO/commit/0f7276b5389bdd39e069cdefbf928112fcd9375a
# label: correct
# class: clean
# pattern: a pointer-style policy for a card game (a folder: a masked log-softmax helper with a two-step source/target distribution, and the policy that pools the encoded entity set with a learned seed query through nn.MultiheadAttention(key_padding_mask=~valid), scores sources and targets as single-head dot products divided by a literal 8 for a width of 64, and zero-fills the logits of padded target slots before handing them to the helper)
# why: correct: `valid` is True for real entities, so key_padding_mask=~valid ignores exactly the padding; the pointer logits are single-head dot products of 64-wide vectors and the literal /8 is 1/sqrt(64); the zero fill on padded target logits only keeps the padding finite, the helper then gives every entry outside the target mask -inf before the log-softmax (with a dummy entry for rows that are pure padding) and zeroes their probabilities, so no padded target receives mass
# looks-like: ATT002, ATT004, ATT006, ATT007
# source: https://github.com/Sunsh1neY/sts1-SetTransformer-PPO https://github.com/Sunsh1neY/sts1-SetTransformer-PPO/commit/0f7276b5389bdd39e069cdefbf928112fcd9375a sts/models/apath.py
import torch
from torch import nn

from masking import TwoStepChoice
from set_layers import SetAttentionBlock, SetConfig

WIDTH = 64
END_TURN = 9


class PointerPolicy(nn.Module):
    def __init__(self, n_tasks: int = 10, n_types: int = 4, depth: int = 4):
        super().__init__()
        w = WIDTH
        self.type_embedding = nn.Embedding(n_types, w)
        self.blocks = nn.ModuleList(SetAttentionBlock(SetConfig(layers=4)) for _ in range(depth))
        self.ln = nn.LayerNorm(w)
        self.seed = nn.Parameter(torch.randn(1, 1, w) * 0.02)
        self.pool = nn.MultiheadAttention(w, 4, dropout=0.0, batch_first=True)
        self.pool_ff = nn.Sequential(nn.LayerNorm(w), nn.Linear(w, 128), nn.GELU(), nn.Linear(128, w))
        self.pool_ln = nn.LayerNorm(w)
        self.task_query = nn.Embedding(n_tasks, w)
        self.src_key = nn.Linear(w, w, bias=False)
        self.tgt_query = nn.Linear(w, w, bias=False)
        self.tgt_key = nn.Linear(w, w, bias=False)
        self.end_turn = nn.Linear(w, 1)
        self.value = nn.Sequential(nn.Linear(w, w), nn.GELU(), nn.Linear(w, 1))

    def encode(self, batch):
        valid = batch["entity_valid"]
        x = self.type_embedding(batch["types"].masked_fill(~valid, 0)).masked_fill(~valid[..., None], 0)
        for block in self.blocks:
            x = block(x, valid)
        h = self.ln(x).masked_fill(~valid[..., None], 0)
        seed = self.seed.expand(h.shape[0], -1, -1)
        pooled = seed + self.pool(seed, h, h, key_padding_mask=~valid, need_weights=False)[0]
        pooled = pooled + self.pool_ff(pooled)
        return h, self.pool_ln(pooled[:, 0])

    def forward(self, batch):
        h, g = self.encode(batch)
        b, u, j = batch["target_index"].shape
        src = h.gather(1, batch["source_index"][..., None].expand(-1, -1, WIDTH))
        src_logits = (self.task_query(batch["task"]) * self.src_key(src)).sum(-1) / 8
        src_logits = torch.where(batch["task"] == END_TURN, self.end_turn(g).expand(-1, u), src_logits)

        idx = batch["target_index"]
        tgt = h.gather(1, idx.clamp_min(0).reshape(b, -1, 1).expand(-1, -1, WIDTH)).reshape(b, u, j, WIDTH)
        tgt_logits = (self.tgt_query(src)[:, :, None] * self.tgt_key(tgt)).sum(-1) / 8
        tgt_logits = tgt_logits.masked_fill(idx < 0, 0)
        choice = TwoStepChoice(src_logits, tgt_logits, batch["source_mask"], batch["target_mask"])
        return choice, self.value(g).squeeze(-1)
