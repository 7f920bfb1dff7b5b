from contextlib import nullcontext

import torch
import torch.nn as nn
import torch.optim as optim


class SummariserBase(nn.Module):
    def __init__(self, device):
        super().__init__()
        self.device = device

    def setup_training_env(self, learning_rate, loss_scale=1.0, weight_decay=1e-5):
        self.loss_scale = loss_scale
        self.optimizer = optim.Adam(self.parameters(), lr=learning_rate, weight_decay=weight_decay)
        self.scaler = torch.amp.GradScaler() if self.device.type == "cuda" else None

    def train_one_batch(self, **batch):
        self.train()
        self.optimizer.zero_grad()
        on_gpu = self.device.type == "cuda"
        with torch.amp.autocast(device_type="cuda") if on_gpu else nullcontext():
            losses = self.compute_loss(**batch)
            total = sum(losses.values()) * self.loss_scale
        if self.scaler is not None:
            self.scaler.scale(total).backward()
            self.scaler.step(self.optimizer)
            self.scaler.update()
        else:
            total.backward()
            self.optimizer.step()
        return {k: v.item() for k, v in losses.items()}
