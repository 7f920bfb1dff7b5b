import torch
import torch.optim as optim

from .model import GMAN


def train_epoch(model, loader, optimizer, loss_fn, se, device):
    model.train()
    losses = []
    for data, targets, te in loader:
        data = data.to(device, dtype=torch.float).permute(0, 2, 1, 3)[:, :, :, 0]  # (B, num_his, nodes)
        predictions = model(data, se, te.to(device)).permute(0, 2, 1)
        loss = loss_fn(predictions, targets.to(device, dtype=torch.float))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return losses


def build(device="cpu"):
    K = 8
    d = 8
    L = 3
    model = GMAN(L, K, d, 12, 0.9, 288, True, True).to(device)
    optimizer = optim.Adam(model.parameters(), lr=1e-3)
    return model, optimizer, torch.nn.MSELoss()
