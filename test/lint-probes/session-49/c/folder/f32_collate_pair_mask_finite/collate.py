import torch


def collate_graphs(items):
    n = max(it["x"].shape[0] for it in items)
    B = len(items)
    x = torch.zeros(B, n, items[0]["x"].shape[1])
    node_mask = torch.zeros(B, n, dtype=torch.bool)
    for i, it in enumerate(items):
        x[i, : it["x"].shape[0]] = it["x"]
        node_mask[i, : it["x"].shape[0]] = True
    pair_mask = node_mask[:, :, None] & node_mask[:, None, :]
    return x, node_mask, pair_mask
