import torch
import torch.nn as nn
from torch.cuda.amp import GradScaler, autocast


def backpropagation(data_loader, optimizer, model, scaler: GradScaler):
    model.train()
    criterion = nn.NLLLoss()
    device = next(model.parameters()).device
    total = 0.0
    for item in data_loader:
        x, y_in, y_out = item["x"].to(device), item["y_in"].to(device), item["y_out"].to(device)
        optimizer.zero_grad()
        # mixed precision
        with autocast(dtype=torch.float16):
            out = model(x, y_in)
            loss = criterion(out.view(-1, out.size(-1)), y_out.view(-1))
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()
        total += loss.item()
    return total / len(data_loader)


def model_training(train_loader, model, epochs=10, lr=1e-4):
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    scaler = GradScaler()
    for _ in range(epochs):
        backpropagation(train_loader, optimizer, model, scaler)
