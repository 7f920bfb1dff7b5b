import torch

from data_class import BilingualDataset
from multi_head_attention import MultiHeadAttention


def train_step(model, batch, loss_fn, optimizer, device):
    encoder_input = batch["encoder_input"].to(device)  # (B, S)
    decoder_input = batch["decoder_input"].to(device)
    encoder_mask = batch["encoder_mask"].to(device)  # (B, 1, 1, S)
    decoder_mask = batch["decoder_mask"].to(device)  # (B, 1, S, S)
    logits = model(encoder_input, decoder_input, encoder_mask, decoder_mask)
    loss = loss_fn(logits.view(-1, logits.size(-1)), batch["label"].to(device).view(-1))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()
