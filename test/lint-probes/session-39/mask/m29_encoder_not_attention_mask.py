import torch
import torch.nn as nn

enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(768, 12, batch_first=True), num_layers=2)


def encode(hidden, attention_mask):
    # hidden: (B, S, 768); attention_mask: (B, S), 1 at tokens (a tokenizer's)
    return enc(hidden, src_key_padding_mask=~attention_mask.bool())


def run(tok, texts, hidden):
    batch = tok(texts, padding=True, return_tensors="pt")
    return encode(hidden, batch["attention_mask"])
