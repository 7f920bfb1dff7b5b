# case: softmax-everybody-compose-linear1-module-dim2
# modelled-on: tsunrise/everybody-compose https://github.com/tsunrise/everybody-compose/pull/53
# label: buggy
# pattern: Bahdanau attention in an LSTM decoder; the decoder state (1, B, H) is permuted and repeated over the encoder length, concatenated with the batch-first encoder output, two Linears (the second to 1) give [B, T, 1] energies, an nn.Softmax(dim=2) module built in __init__ normalises them, then view(B, 1, T) and bmm with the encoder output
# why: dim=2 is the length-1 axis of [B, T, 1]: every weight is 1.0 and the context is the sum of the encoder states; the fix (#53) set nn.Softmax(dim=1), the T axis the bmm contracts
import torch
import torch.nn as nn


class Attention(nn.Module):
    def __init__(self, encode_hidden_dim, decode_hidden_dim):
        super().__init__()
        self.attn1 = nn.Linear(encode_hidden_dim * 2 + decode_hidden_dim, decode_hidden_dim)
        self.attn1_activation = nn.LeakyReLU()
        self.attn2 = nn.Linear(decode_hidden_dim, 1)
        self.attn2_activation = nn.Softmax(dim=2)  # expect: ATT001

    def forward(self, encode_output, hidden_state):
        # encode_output: (B, T, 2 * E) from a bidirectional batch-first LSTM; hidden_state: (1, B, H)
        batch_size, seq_len, _ = encode_output.shape
        hidden_state = hidden_state.permute(1, 0, 2)
        hidden_state = hidden_state.repeat(1, seq_len, 1)
        concat = torch.concat((hidden_state, encode_output), dim=-1)
        attn = self.attn1(concat)
        attn = self.attn1_activation(attn)
        attn = self.attn2(attn)
        attn = self.attn2_activation(attn)
        attn = attn.view(batch_size, 1, seq_len)
        context = torch.bmm(attn, encode_output)
        return context


class RNNDecoder(nn.Module):
    def __init__(self, num_notes, embed_dim, encode_hidden_dim, decode_hidden_dim):
        super().__init__()
        self.decode_hidden_dim = decode_hidden_dim
        self.attention = Attention(encode_hidden_dim, decode_hidden_dim)
        self.note_embedding = nn.Embedding(num_notes, embed_dim)
        self.combine_fc = nn.Linear(encode_hidden_dim * 2 + embed_dim, decode_hidden_dim)
        self.post_attention_lstm = nn.LSTM(decode_hidden_dim, decode_hidden_dim, batch_first=True)
        self.notes_output = nn.Linear(decode_hidden_dim, num_notes)

    def forward(self, tgt, encode_output, memory):
        context = self.attention(encode_output, memory[0])
        tgt = self.note_embedding(tgt)
        tgt = torch.cat((tgt, context), dim=2)
        tgt = torch.relu(self.combine_fc(tgt))
        tgt, memory = self.post_attention_lstm(tgt, memory)
        return self.notes_output(tgt), memory
