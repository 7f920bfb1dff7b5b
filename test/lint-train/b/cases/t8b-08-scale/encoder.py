import torch
import torch.nn as nn

from attention import QKVAttention


class SelfAttention(nn.Module):
    def __init__(self, input_dim, hidden_dim, output_dim, dropout_rate):
        super().__init__()
        self.dropout_layer = nn.Dropout(dropout_rate)
        self.attention_layer = QKVAttention(input_dim, input_dim, input_dim, hidden_dim, output_dim, dropout_rate)

    def forward(self, input_x, seq_lens):
        dropout_x = self.dropout_layer(input_x)
        attention_x = self.attention_layer(dropout_x, dropout_x, dropout_x)
        # drop the padded positions of every sentence and stack the words of the batch
        return torch.cat([attention_x[i][: seq_lens[i], :] for i in range(len(seq_lens))], dim=0)


class WordEncoder(nn.Module):
    def __init__(self, vocab_size, embed_dim, lstm_hidden, attn_hidden, attn_out, dropout_rate):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, embed_dim)
        self.lstm = nn.LSTM(embed_dim, lstm_hidden // 2, batch_first=True, bidirectional=True)
        self.attention = SelfAttention(embed_dim, attn_hidden, attn_out, dropout_rate)

    def forward(self, tokens, seq_lens):
        embedded = self.embedding(tokens)
        lstm_out, _ = self.lstm(embedded)
        flat_lstm = torch.cat([lstm_out[i][: seq_lens[i], :] for i in range(len(seq_lens))], dim=0)
        flat_attn = self.attention(embedded, seq_lens)
        return torch.cat([flat_lstm, flat_attn], dim=-1)
