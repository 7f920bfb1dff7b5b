import torch


def soft_argmax_2d(heatmaps, beta=100.0):
    # heatmaps: (B, K, H, W) -> (B, K, 2) expected (x, y)
    B, K, H, W = heatmaps.shape
    p = torch.softmax(beta * heatmaps.reshape(B, K, H * W), dim=-1).reshape(B, K, H, W)
    xs = torch.linspace(0, 1, W, device=heatmaps.device)
    ys = torch.linspace(0, 1, H, device=heatmaps.device)
    x = (p.sum(dim=2) * xs).sum(-1)
    y = (p.sum(dim=3) * ys).sum(-1)
    return torch.stack([x, y], dim=-1)
