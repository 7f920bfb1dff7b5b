import torch
import torch.nn as nn

from .blocks import GraphSetClassifier
from .graphs import node_mask


def train_epoch(loader, model: GraphSetClassifier, opt, device="cpu"):
    model.train()
    loss_fn = nn.BCEWithLogitsLoss()
    total = 0.0
    for batch in loader:
        batch = batch.to(device)
        n_graphs = int(batch.batch.max().item()) + 1
        n_nodes = batch[0].num_nodes
        x = batch.x.view(n_graphs, n_nodes, -1)
        masks = node_mask(batch.edge_index, batch.batch, n_graphs, n_nodes).to(device)
        opt.zero_grad()
        out = model(x, masks).squeeze(-1)
        loss = loss_fn(out, batch.y.float().view(-1))
        loss.backward()
        opt.step()
        total += loss.item()
    return total / max(len(loader), 1)


def build(n_features, hidden=32, heads=8):
    return GraphSetClassifier(n_features, 1, hidden=hidden, heads=heads, ln=True)
