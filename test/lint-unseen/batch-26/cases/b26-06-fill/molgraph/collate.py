import torch

from molgraph.config import Config


class ZincBatcher:
    def __init__(self, cfg: Config):
        self.cfg = cfg

    def collate(self, samples):
        """Pads every graph to the largest one, plus one virtual [graph] node in slot 0.

        attn_mask is 1 where attention is blocked (padding rows and columns) and 0 inside each real graph.
        """
        graphs, labels = zip(*samples)
        sizes = [g.num_nodes() for g in graphs]
        n_max = max(sizes)
        attn_mask = torch.ones(len(graphs), n_max + 1, n_max + 1)
        feats = torch.zeros(len(graphs), n_max, dtype=torch.long)
        dist = -torch.ones((len(graphs), n_max, n_max), dtype=torch.long)
        for i, g in enumerate(graphs):
            n = sizes[i]
            attn_mask[i, : n + 1, : n + 1] = 0
            feats[i, :n] = g.ndata["feat"]
            dist[i, :n, :n] = g.ndata["spd"].clamp(max=self.cfg.max_dist)
        return torch.stack(labels), attn_mask.to(self.cfg.device), feats, dist
