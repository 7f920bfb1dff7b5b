import torch
from torch import nn

from attention import Seq2Seq
from masks import future_mask, pad_mask


def run_epoch(model: Seq2Seq, loader, optimizer, pad_id: int, device: str = "cpu") -> float:
    loss_fn = nn.CrossEntropyLoss(ignore_index=pad_id)
    total = 0.0
    for src, tgt in loader:
        tgt_in, tgt_out = tgt[:, :-1], tgt[:, 1:]
        src_hide = pad_mask(src, pad_id)
        tgt_hide = pad_mask(tgt_in, pad_id) + future_mask(tgt_in)
        src, tgt_in, tgt_out = src.to(device), tgt_in.to(device), tgt_out.to(device)
        src_hide, tgt_hide = src_hide.to(device), tgt_hide.to(device)

        logits = model(src, tgt_in, src_hide, tgt_hide, src_hide)
        loss = loss_fn(logits.reshape(-1, logits.size(-1)), tgt_out.reshape(-1))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item()
    return total / max(1, len(loader))
