import torch
from torch.nn.utils.rnn import pad_sequence

from ablate.layers import source_mask, target_mask

UNK_IDX, PAD_IDX, SOS_IDX, EOS_IDX = 0, 1, 2, 3  # <pad> stays at 1: the mask helpers default to it


def collate(batch):
    src, tgt = zip(*batch)
    return pad_sequence(src, batch_first=True, padding_value=PAD_IDX), pad_sequence(tgt, batch_first=True, padding_value=PAD_IDX)


def run_epoch(model, batches, loss_fn, optimizer, device, train=True):
    model.train() if train else model.eval()
    total, count = 0.0, 0
    torch.set_grad_enabled(train)
    for src, tgt in batches:
        src, tgt = src.to(device), tgt.to(device)
        tgt_in, tgt_out = tgt[:, :-1], tgt[:, 1:]
        logits = model(src, tgt_in, source_mask(src, PAD_IDX), target_mask(tgt_in, PAD_IDX))
        loss = loss_fn(logits.reshape(-1, logits.size(-1)), tgt_out.reshape(-1))
        if train:
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
        n = (tgt_out != PAD_IDX).sum().item()
        total += loss.item() * n
        count += n
    torch.set_grad_enabled(True)
    return total / max(count, 1)
