import torch

from asr.masks import MaskBuilder


class Trainer:
    def __init__(self, model, optimizer, loss_fn, device="cpu"):
        self.model, self.optimizer, self.loss_fn, self.device = model, optimizer, loss_fn, device
        self.masks = MaskBuilder()

    def step(self, features: torch.Tensor, labels: torch.Tensor) -> float:
        targets = labels[:, 1:].to(self.device)
        dec_in = labels[:, :-1]
        _, look_ahead = self.masks.decoder_masks(dec_in)
        # the encoder frames are not padded in this pipeline, so the memory is not masked
        out = self.model(features.to(self.device), dec_in.to(self.device), look_ahead.to(self.device), None)
        loss = self.loss_fn(out.transpose(1, 2), targets)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()
