# case: b52-09-clean
# modelled-on: CanelE452/mltimeseries https://github.com/CanelE452/mltimeseries/commit/ed8a81844a8fffe377136ab0c0f754a58d9579ce
# label: correct
# class: clean
# pattern: a patch forecaster that shortens its token sequence before a transformer encoder: the 64 patch embeddings are split into B groups of r neighbouring patches and each group is pooled into one token with weights from a softmax over the r members of the group (scores from a small MLP of the patch, the sequence mean and a forecast-horizon query, or learned per-horizon logits, or uniform 1/r); the scores are reshaped (batch, B, r) and normalised with softmax(dim=-1), then multiplied into the (batch, B, r, D) patches and summed over dim=2; after the encoder each pooled token is repeated r times to give the patch layout back
# why: correct: the weights are meant to sum to one within each group (the docstring says rows sum to 1), and dim=-1 of (batch, B, r) is the member axis; the scores come from an MLP, not from a dot product of d-dimensional vectors, so no 1/sqrt(d) scale applies; the weighted sum runs over dim=2 of (batch, B, r, D), the same member axis the softmax normalised; no position is masked because every group holds r real patches
# looks-like: ATT001, ATT003
# source: https://github.com/CanelE452/mltimeseries https://github.com/CanelE452/mltimeseries/commit/ed8a81844a8fffe377136ab0c0f754a58d9579ce experiments/hq_token_pilot_v1/model.py
import math

import torch
import torch.nn as nn

SERIES_LEN = 1024
PATCH = 16
N_PATCH = SERIES_LEN // PATCH
WIDTH = 128
MAX_HORIZON = 336


def patch_centres() -> torch.Tensor:
    centre = torch.arange(N_PATCH, dtype=torch.float32) * PATCH + PATCH / 2.0
    j = torch.arange(WIDTH // 2, dtype=torch.float32)
    angle = centre[:, None] / torch.pow(10000.0, 2.0 * j[None, :] / WIDTH)
    return torch.cat([angle.sin(), angle.cos()], dim=-1)


class HorizonQuery(nn.Module):
    def __init__(self):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(2, 32), nn.GELU(), nn.Linear(32, WIDTH))

    def forward(self, horizon: torch.Tensor) -> torch.Tensor:
        h = horizon.float()
        feats = torch.stack([torch.log1p(h) / math.log1p(MAX_HORIZON), h / SERIES_LEN], dim=-1)
        return self.mlp(feats)


class GroupPooling(nn.Module):
    """Pools r neighbouring patches into one token with weights that sum to 1 per group."""

    def __init__(self, groups: int, mode: str = "content"):
        super().__init__()
        if N_PATCH % groups:
            raise ValueError("groups must divide the number of patches")
        self.groups, self.members, self.mode = groups, N_PATCH // groups, mode
        self.query = HorizonQuery()
        self.score = nn.Sequential(nn.Linear(3 * WIDTH, 64), nn.GELU(), nn.Linear(64, 1))
        self.fixed_logits = nn.Parameter(torch.zeros(2, groups, self.members))

    def weights(self, patches: torch.Tensor, horizon: torch.Tensor) -> torch.Tensor:
        b, n, _ = patches.shape
        if self.mode == "uniform":
            return patches.new_full((b, self.groups, self.members), 1.0 / self.members)
        if self.mode == "per_horizon":
            return self.fixed_logits[(horizon.reshape(-1) > 96).long()].softmax(dim=-1)
        q = self.query(horizon)[:, None, :].expand(-1, n, -1)
        mean = patches.mean(dim=1, keepdim=True).expand(-1, n, -1)
        logits = self.score(torch.cat([patches, mean, q], dim=-1)).squeeze(-1)
        return logits.reshape(b, self.groups, self.members).softmax(dim=-1)

    def forward(self, patches: torch.Tensor, horizon: torch.Tensor):
        w = self.weights(patches, horizon)
        grouped = patches.reshape(patches.shape[0], self.groups, self.members, WIDTH)
        return (grouped * w.unsqueeze(-1)).sum(dim=2), w


class PooledPatchForecaster(nn.Module):
    def __init__(self, groups: int = 32, mode: str = "content"):
        super().__init__()
        self.embed = nn.Linear(PATCH, WIDTH)
        self.register_buffer("pos", patch_centres(), persistent=False)
        self.pool = GroupPooling(groups, mode)
        layer = nn.TransformerEncoderLayer(WIDTH, 4, 256, 0.1, activation="gelu", batch_first=True, norm_first=True)
        self.encoder = nn.TransformerEncoder(layer, num_layers=3, enable_nested_tensor=False)
        self.readout = nn.Linear(N_PATCH * WIDTH, WIDTH)
        self.head = nn.Linear(2 * WIDTH, MAX_HORIZON)
        self.horizon_embed = HorizonQuery()

    def forward(self, series: torch.Tensor, horizon: torch.Tensor) -> torch.Tensor:
        b = series.shape[0]
        patches = self.embed(series.reshape(b, N_PATCH, PATCH)) + self.pos
        tokens, _ = self.pool(patches, horizon)
        z = self.encoder(tokens).repeat_interleave(self.pool.members, dim=1)
        hidden = torch.nn.functional.gelu(self.readout(z.reshape(b, N_PATCH * WIDTH)))
        return self.head(torch.cat([hidden, self.horizon_embed(horizon)], dim=-1))
