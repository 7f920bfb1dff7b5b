import torch
import torch.nn as nn

from .attention import AdditiveAttention


class AttnLSTMDecoder(nn.Module):
    def __init__(self, emb_dim, input_size, hidden_dim, vocab_size, num_layers=2):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, emb_dim)
        self.attention = AdditiveAttention(encoder_size=input_size, decoder_size=hidden_dim)
        self.lstm = nn.LSTM(emb_dim + input_size, hidden_dim, num_layers=num_layers, batch_first=True)
        self.output = nn.Linear(hidden_dim + input_size, vocab_size)

    def forward(self, tgt, enc_output, dec_states, encoder_mask):
        steps = []
        for i in range(tgt.size(1)):
            context, _ = self.attention(enc_output, dec_states[0], mask=encoder_mask)
            emb = self.embedding(tgt[:, i : i + 1])
            out, dec_states = self.lstm(torch.cat([emb, context.unsqueeze(1)], dim=-1), dec_states)
            steps.append(self.output(torch.cat([out.squeeze(1), context], dim=-1)))
        return torch.stack(steps, dim=1)
