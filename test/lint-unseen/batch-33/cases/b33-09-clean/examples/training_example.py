import torch
import torch.nn as nn

from causal_transformer_decoder import CausalTransformerDecoder, CausalTransformerDecoderLayer

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"


class Model(nn.Module):
    """A toy seq2seq model that learns to double every character ("abc" -> "aabbcc")."""

    def __init__(self, vocab_size, positional_encoding, hdim=256, nhead=4, num_layers=2):
        super(Model, self).__init__()
        self.embedding = nn.Embedding(vocab_size, hdim)
        self.positional_encoding = positional_encoding
        self.encoder = nn.TransformerEncoder(
            nn.TransformerEncoderLayer(d_model=hdim, nhead=nhead, dim_feedforward=hdim * 4),
            num_layers=num_layers,
        )
        self.decoder = CausalTransformerDecoder(
            CausalTransformerDecoderLayer(d_model=hdim, nhead=nhead, dim_feedforward=hdim * 4),
            num_layers=num_layers,
        )
        self.classification_layer = nn.Linear(hdim, vocab_size)

    def forward(self, inputs, teach_forcing_tokens):
        # inputs, teach_forcing_tokens: bsz x len token ids, 0 is the padding id
        input_embed = self.positional_encoding(self.embedding(inputs).permute(1, 0, 2))
        teach_forcing_embed = self.positional_encoding(self.embedding(teach_forcing_tokens).permute(1, 0, 2))
        memory_mask = inputs == 0  # for source padding masks
        encoded = self.encoder(input_embed, src_key_padding_mask=memory_mask)
        decoded = self.decoder(teach_forcing_embed, memory=encoded, memory_key_padding_mask=memory_mask)
        return self.classification_layer(decoded).permute(1, 0, 2)

    def predict(self, sent_idx, start_token, end_token, max_len=256):
        """Used for inference, one sentence at a time (no padding)."""
        sent_tensor = torch.LongTensor(sent_idx).to(DEVICE).unsqueeze(0)
        input_embed = self.positional_encoding(self.embedding(sent_tensor).permute(1, 0, 2))  # input_len, 1, hdim
        memory_mask = sent_tensor == 0
        encoded = self.encoder(input_embed, src_key_padding_mask=memory_mask)

        decoded_tokens = torch.LongTensor([start_token]).to(DEVICE).unsqueeze(1)  # 1, 1
        output_tokens = []
        cache = None
        while len(output_tokens) < max_len:
            decoded_embedding = self.positional_encoding(self.embedding(decoded_tokens))
            decoded, cache = self.decoder(decoded_embedding, encoded, cache, memory_key_padding_mask=memory_mask)
            new_token = self.classification_layer(decoded[-1, :, :]).argmax(1).item()
            if new_token == end_token:
                break
            output_tokens.append(new_token)
            decoded_tokens = torch.cat([decoded_tokens, torch.LongTensor([new_token]).unsqueeze(1).to(DEVICE)], dim=0)
        return output_tokens
