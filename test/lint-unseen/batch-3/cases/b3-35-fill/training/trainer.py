"""Trainer with optional mixed precision (args.fp16): autocast around the forward pass, a GradScaler for the loss."""
import torch
from torch.cuda.amp import GradScaler, autocast


class Trainer:
    def __init__(self, model, args, optimizer, loss_fn):
        self.model = model
        self.args = args
        self.optimizer = optimizer
        self.loss_fn = loss_fn
        self.device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        self.model.to(self.device)
        # mixed precision
        self.scaler = GradScaler() if args.fp16 else None

    def training_step(self, inputs):
        self.model.train()
        if self.args.fp16:
            with autocast():
                loss = self.loss_fn(self.model(**inputs), inputs["labels"])
        else:
            loss = self.loss_fn(self.model(**inputs), inputs["labels"])
        if self.args.fp16:
            self.scaler.scale(loss).backward()
            self.scaler.step(self.optimizer)
            self.scaler.update()
        else:
            loss.backward()
            self.optimizer.step()
        self.optimizer.zero_grad()
        return loss.detach()
