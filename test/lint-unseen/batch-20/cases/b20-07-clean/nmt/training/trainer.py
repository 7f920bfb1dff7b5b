import torch
from torch.amp import GradScaler, autocast

from ..model.masks import make_src_mask, make_tgt_mask


class Trainer:
    def __init__(self, model, optimizer, criterion, pad_id, device="cuda", use_amp=False):
        self.model = model
        self.optimizer = optimizer
        self.criterion = criterion
        self.pad_id = pad_id
        self.device = device
        self.use_amp = use_amp and device == "cuda"
        self.scaler = GradScaler("cuda") if self.use_amp else None

    def train_step(self, src, tgt):
        tgt_in, tgt_out = tgt[:, :-1], tgt[:, 1:]
        src_mask = make_src_mask(src, self.pad_id)
        tgt_mask = make_tgt_mask(tgt_in, self.pad_id)
        with autocast("cuda", dtype=torch.float16, enabled=self.use_amp):
            logits = self.model(src, tgt_in, src_mask, tgt_mask)
            loss = self.criterion(logits.reshape(-1, logits.size(-1)), tgt_out.reshape(-1))
        self.optimizer.zero_grad()
        if self.scaler is not None:
            self.scaler.scale(loss).backward()
            self.scaler.step(self.optimizer)
            self.scaler.update()
        else:
            loss.backward()
            self.optimizer.step()
        return loss.item()
