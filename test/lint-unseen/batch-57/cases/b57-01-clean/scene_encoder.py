# case: b57-01-clean
# modelled-on: MCZhi/GameFormer https://github.com/MCZhi/GameFormer/commit/4e8948d28b39987467579268fb1c541132007230
# label: correct
# class: clean
# pattern: the scene encoder of an interactive trajectory predictor (a folder: a helper module that max-pools lane and crosswalk points into segment tokens and derives boolean padding masks with torch.eq(..., 0), and the encoder that concatenates agent, lane and crosswalk tokens with their masks and runs nn.TransformerEncoder once per target agent with src_key_padding_mask)
# why: correct: every mask is True where a slot is empty (an agent whose latest state is all zeros, a map segment that contains a zero point), which is the polarity nn.TransformerEncoder's src_key_padding_mask wants (True = ignore); the ego agent is always present, so no query row loses all its keys; the scaling and the softmax are the library's
# looks-like: ATT002
# source: https://github.com/MCZhi/GameFormer https://github.com/MCZhi/GameFormer/commit/4e8948d28b39987467579268fb1c541132007230 model/GameFormer.py
import torch
from torch import nn

from map_tokens import agent_is_padding, segment_tokens

WIDTH, HEADS = 256, 8


class TrackEncoder(nn.Module):
    def __init__(self, state_dim: int = 8, n_kinds: int = 4):
        super().__init__()
        self.rnn = nn.LSTM(state_dim, WIDTH, num_layers=2, batch_first=True)
        self.kind = nn.Embedding(n_kinds, WIDTH, padding_idx=0)

    def forward(self, track: torch.Tensor) -> torch.Tensor:
        out, _ = self.rnn(track[..., :8])
        return out[:, -1] + self.kind(track[:, -1, 8].long())


class PointMLP(nn.Module):
    def __init__(self, in_dim: int):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(in_dim, 128), nn.ReLU(), nn.Linear(128, WIDTH))

    def forward(self, pts: torch.Tensor) -> torch.Tensor:
        return self.net(pts)


class SceneEncoder(nn.Module):
    """Encodes all agents once, then fuses them with each predicted agent's own local map."""

    def __init__(self, n_targets: int, depth: int = 6):
        super().__init__()
        self.n_targets = n_targets
        self.ego_track = TrackEncoder()
        self.other_track = TrackEncoder()
        self.lane_points = PointMLP(16)
        self.walk_points = PointMLP(3)
        block = nn.TransformerEncoderLayer(
            d_model=WIDTH, nhead=HEADS, dim_feedforward=4 * WIDTH, dropout=0.1,
            activation="gelu", batch_first=True,
        )
        self.fusion = nn.TransformerEncoder(block, depth, enable_nested_tensor=False)

    def forward(self, batch: dict) -> dict:
        ego, others = batch["ego_track"], batch["other_tracks"]
        tracks = torch.cat([ego.unsqueeze(1), others], dim=1)
        per_agent = [self.ego_track(ego)] + [self.other_track(others[:, a]) for a in range(others.shape[1])]
        agents = torch.stack(per_agent, dim=1)
        agents_empty = agent_is_padding(tracks)

        lanes = self.lane_points(batch["lanes"])
        walks = self.walk_points(batch["crosswalks"])
        assert tracks.shape[1] >= self.n_targets, "more targets than tracked agents"

        fused, masks = [], []
        for t in range(self.n_targets):
            lane_tok, lane_empty = segment_tokens(batch["lanes"][:, t], lanes[:, t])
            walk_tok, walk_empty = segment_tokens(batch["crosswalks"][:, t], walks[:, t])
            tokens = torch.cat([agents, lane_tok, walk_tok], dim=1)
            empty = torch.cat([agents_empty, lane_empty, walk_empty], dim=1)
            fused.append(self.fusion(tokens, src_key_padding_mask=empty))
            masks.append(empty)

        return {"tracks": tracks, "tokens": torch.stack(fused, dim=1), "empty": torch.stack(masks, dim=1)}
