import torch
from torch.amp import GradScaler, autocast


class Trainer:
    def __init__(self, model, head, criterion, optimizer, device="cuda", use_amp=True):
        self.model, self.head, self.criterion, self.optimizer = model, head, criterion, optimizer
        self.device = device
        self.use_amp = use_amp and torch.cuda.is_available()
        self.scaler = GradScaler(enabled=self.use_amp)

    def step(self, batch):
        feats = batch["features"].to(self.device)
        mask = batch["mask"].to(self.device)
        targets = {"classes": batch["classes"].to(self.device), "groups": batch["groups"].to(self.device), "mask": mask}

        self.optimizer.zero_grad()
        with autocast(device_type="cuda", enabled=self.use_amp):
            elements, pooled = self.model(feats, mask)
            loss = self.criterion(self.head(elements, pooled), targets)

        self.scaler.scale(loss).backward()
        self.scaler.unscale_(self.optimizer)
        torch.nn.utils.clip_grad_norm_(self.model.parameters(), max_norm=1.0)
        self.scaler.step(self.optimizer)
        self.scaler.update()
        return float(loss.detach())
