# case: b20-11-clean
# modelled-on: EhsanRS/scModelForge https://github.com/EhsanRS/scModelForge/commit/ac29af1c3756b0c157cec687a7dbdd48f89be04e
# label: correct
# class: clean
# pattern: single-cell foundation models on nn.TransformerEncoder(batch_first=True): the data's attention_mask is 1 for real gene tokens and 0 for padding; the masked autoencoder gathers each cell's visible tokens into a dense tensor and builds its own key-padding mask as torch.ones(B, max_visible, bool) with enc_padding_mask[i, :n] = False ("False = attend"), and passes attention_mask == 0 elsewhere; the autoregressive model (autoregressive.py) passes a float causal mask from a helper in components/attention.py (0 / -inf) together with attention_mask == 0
# why: correct: nn.TransformerEncoder's src_key_padding_mask is True at the keys to ignore, which is what both the gathered mask (True only past each cell's visible tokens) and attention_mask == 0 are; the float causal mask is additive with -inf above the diagonal, the form the encoder's mask parameter takes; a cell always keeps visible tokens when masking leaves some in the batch
# looks-like: ATT002, ATT007, ATT008
# source: https://github.com/EhsanRS/scModelForge https://github.com/EhsanRS/scModelForge/commit/ac29af1c3756b0c157cec687a7dbdd48f89be04e src/scmodelforge/models/masked_autoencoder.py
import torch
import torch.nn as nn


class MaskedAutoencoder(nn.Module):
    def __init__(self, embedding: nn.Module, encoder_dim=256, decoder_dim=128, max_len=2048, heads=4, layers=4):
        super().__init__()
        self.embedding = embedding
        self.encoder_dim = encoder_dim
        self.encoder = nn.TransformerEncoder(nn.TransformerEncoderLayer(encoder_dim, heads, batch_first=True), layers)
        self.decoder = nn.TransformerEncoder(nn.TransformerEncoderLayer(decoder_dim, heads, batch_first=True), 2)
        self.enc_to_dec = nn.Linear(encoder_dim, decoder_dim)
        self.mask_token = nn.Parameter(torch.zeros(1, 1, decoder_dim))
        self.decoder_position_embedding = nn.Embedding(max_len, decoder_dim)
        self.expression_head = nn.Linear(decoder_dim, 1)

    def forward(self, input_ids, attention_mask, values=None, masked_positions=None):
        # attention_mask: (B, S), 1 for real tokens, 0 for padding
        batch_size, seq_len = input_ids.shape
        emb = self.embedding(input_ids, values=values)
        if masked_positions is None or not masked_positions.any():
            return self.encoder(emb, src_key_padding_mask=attention_mask == 0)

        visible = ~masked_positions.bool() & attention_mask.bool()
        max_visible = int(visible.sum(dim=1).max().item())
        dec_input = self.mask_token.expand(batch_size, seq_len, -1).clone()
        if max_visible > 0:
            enc_input = torch.zeros(batch_size, max_visible, self.encoder_dim, device=emb.device, dtype=emb.dtype)
            enc_padding_mask = torch.ones(batch_size, max_visible, dtype=torch.bool, device=emb.device)
            for i in range(batch_size):
                idx = visible[i].nonzero(as_tuple=True)[0]
                n = idx.size(0)
                enc_input[i, :n] = emb[i, idx]
                enc_padding_mask[i, :n] = False  # False = attend
            enc_hidden = self.enc_to_dec(self.encoder(enc_input, src_key_padding_mask=enc_padding_mask))
            for i in range(batch_size):
                idx = visible[i].nonzero(as_tuple=True)[0]
                dec_input[i, idx] = enc_hidden[i, : idx.size(0)]

        positions = torch.arange(seq_len, device=input_ids.device).unsqueeze(0)
        dec_hidden = self.decoder(dec_input + self.decoder_position_embedding(positions), src_key_padding_mask=attention_mask == 0)
        return self.expression_head(dec_hidden).squeeze(-1)
