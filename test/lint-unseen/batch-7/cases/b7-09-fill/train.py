import torch
import torch.nn as nn
from torch.utils.data import DataLoader

from model import Transformer
from utils import generate_causal_mask


def train_one_epoch(model: Transformer, loader: DataLoader, optimizer, seq_len, device, pad_token=0):
    loss_fn = nn.CrossEntropyLoss(ignore_index=pad_token, label_smoothing=0.1)
    model.train()
    for batch in loader:
        src, tgt, label, src_mask, tgt_mask = (t.to(device) for t in batch)
        # src_mask, tgt_mask: (B, 1, T), True = padding
        enc_self_attn_mask = src_mask.unsqueeze(2) | src_mask.unsqueeze(3)  # (B, 1, T, T)
        causal_mask = generate_causal_mask(seq_len).to(device)
        dec_self_attn_mask = tgt_mask.unsqueeze(2) | tgt_mask.unsqueeze(3) | causal_mask
        dec_cross_attn_mask = tgt_mask.unsqueeze(3) | src_mask.unsqueeze(2)
        logits = model(src, tgt, enc_self_attn_mask, dec_self_attn_mask, dec_cross_attn_mask)  # (B, T, V)
        loss = loss_fn(logits.view(-1, logits.size(-1)), label.view(-1))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
