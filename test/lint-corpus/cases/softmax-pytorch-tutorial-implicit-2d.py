# case: softmax-pytorch-tutorial-implicit-2d
# modelled-on: lucasjinreal/pytorch_chatbot https://github.com/lucasjinreal/pytorch_chatbot/issues/4
# label: correct
# pattern: the PyTorch seq2seq tutorial's AttnDecoderRNN: F.softmax with no dim on a 2-D (1, max_length) score row (deprecation warning only)
# why: for a 2-D input the implicit dim is 1, the last axis, so the weights do sum to 1 over the max_length encoder positions
# looks-like: ATT001, ATT003
import torch
import torch.nn as nn
import torch.nn.functional as F

MAX_LENGTH = 10


class AttnDecoderRNN(nn.Module):
    def __init__(self, hidden_size: int, output_size: int, dropout_p: float = 0.1, max_length: int = MAX_LENGTH):
        super().__init__()
        self.hidden_size = hidden_size
        self.output_size = output_size
        self.max_length = max_length
        self.embedding = nn.Embedding(self.output_size, self.hidden_size)
        self.attn = nn.Linear(self.hidden_size * 2, self.max_length)
        self.attn_combine = nn.Linear(self.hidden_size * 2, self.hidden_size)
        self.dropout = nn.Dropout(dropout_p)
        self.gru = nn.GRU(self.hidden_size, self.hidden_size)
        self.out = nn.Linear(self.hidden_size, self.output_size)

    def forward(self, input, hidden, encoder_outputs):
        # input: (1,) token; hidden: (1, 1, H); encoder_outputs: (max_length, H)
        embedded = self.embedding(input).view(1, 1, -1)
        embedded = self.dropout(embedded)
        attn_weights = F.softmax(
            self.attn(torch.cat((embedded[0], hidden[0]), 1))
        )  # (1, max_length)
        attn_applied = torch.bmm(attn_weights.unsqueeze(0), encoder_outputs.unsqueeze(0))
        output = torch.cat((embedded[0], attn_applied[0]), 1)
        output = F.relu(self.attn_combine(output).unsqueeze(0))
        output, hidden = self.gru(output, hidden)
        output = F.log_softmax(self.out(output[0]), dim=1)
        return output, hidden, attn_weights
