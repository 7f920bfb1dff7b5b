import math

import torch
import torch.nn as nn


class TransformerVAE(nn.Module):
    def __init__(self, vocab_size, d_model=256, nhead=8, num_layers=4, latent_dim=128):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, d_model, padding_idx=0)
        enc_layer = nn.TransformerEncoderLayer(d_model, nhead, 4 * d_model, batch_first=True)
        self.encoder = nn.TransformerEncoder(enc_layer, num_layers, enable_nested_tensor=False)
        dec_layer = nn.TransformerDecoderLayer(d_model, nhead, 4 * d_model, batch_first=True)
        self.decoder = nn.TransformerDecoder(dec_layer, num_layers)
        self.to_mu = nn.Linear(d_model, latent_dim)
        self.to_logvar = nn.Linear(d_model, latent_dim)
        self.from_z = nn.Linear(latent_dim, d_model)
        self.out = nn.Linear(d_model, vocab_size)
        self.d_model = d_model

    def encode(self, tokens, pad_mask):
        h = self.embed(tokens) * math.sqrt(self.d_model)
        h = self.encoder(h, src_key_padding_mask=pad_mask)
        keep = (~pad_mask).unsqueeze(-1).float()
        pooled = (h * keep).sum(1) / keep.sum(1).clamp(min=1.0)
        return self.to_mu(pooled), self.to_logvar(pooled)

    def decode(self, z, tokens, pad_mask):
        T = tokens.size(1)
        causal = torch.triu(torch.ones(T, T, dtype=torch.bool, device=tokens.device), diagonal=1)
        memory = self.from_z(z).unsqueeze(1)
        h = self.embed(tokens) * math.sqrt(self.d_model)
        h = self.decoder(h, memory, tgt_mask=causal, tgt_key_padding_mask=pad_mask)
        return self.out(h)

    def forward(self, tokens, pad_mask):
        mu, logvar = self.encode(tokens, pad_mask)
        z = mu + torch.randn_like(mu) * torch.exp(0.5 * logvar)
        return self.decode(z, tokens, pad_mask), mu, logvar
