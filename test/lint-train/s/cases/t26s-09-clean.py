# case: t26s-09-clean
# modelled-on: sumanmichael/attention-ocr-pytorch https://github.com/sumanmichael/attention-ocr-pytorch/commit/8ccffe92ddeeba2e0d787a17240065f064cf601d
# label: correct
# class: clean
# pattern: an attention-OCR decoder ported from TensorFlow: the encoder output is kept sequence-first (T, B, C); for the attention it is unsqueezed and permuted (2, 3, 0, 1) to (B, C, 1, T) for a 1x1 convolution, permuted (0, 3, 2, 1) back to (B, T, 1, C), added to the projected decoder state viewed (B, 1, 1, C), squeezed on axis 2, passed through tanh and a Linear(C, 1) to e of shape (B, T, 1); softmax(e, dim=1), permute(0, 2, 1) to (B, 1, T) and bmm with the encoder output permuted to (B, T, C)
# why: correct: after the permutes e is (B, T, 1), so dim=1 is the time (key) axis and the trailing length-1 axis is the score itself; the weights become (B, 1, T) and bmm sums over T against (B, T, C), giving one context vector per image; additive (Bahdanau) attention has no 1/sqrt(d) scale
# looks-like: ATT001, ATT003, ATT005
# source: https://github.com/sumanmichael/attention-ocr-pytorch https://github.com/sumanmichael/attention-ocr-pytorch/commit/8ccffe92ddeeba2e0d787a17240065f064cf601d src/modules/decoder.py
import torch
import torch.nn as nn


class AttentionDecoder(nn.Module):
    def __init__(self, hidden_size=128, enc_size=512, embed_size=10, vocab_size=40):
        super().__init__()
        self.enc_size = enc_size
        self.conv_1x1 = nn.Conv2d(enc_size, enc_size, kernel_size=(1, 1), bias=False)
        self.embedding = nn.Embedding(vocab_size, embed_size)
        self.attention_projection = nn.Linear(4 * hidden_size, enc_size)
        self.input_projection = nn.Linear(embed_size + enc_size, hidden_size)
        self.output_projection = nn.Linear(hidden_size + enc_size, vocab_size)
        self.VT = nn.Linear(enc_size, 1, bias=False)
        self.rnn = nn.LSTM(input_size=hidden_size, hidden_size=hidden_size, num_layers=2)
        self.encoder_output = None  # (T, B, C), set by the model before decoding

    def attention(self, state_flat):
        proj = self.attention_projection(state_flat).view(-1, 1, 1, self.enc_size)
        conv_inp = self.encoder_output.unsqueeze(0).permute(2, 3, 0, 1)  # (B, C, 1, T)
        hf = self.conv_1x1(conv_inp).permute(0, 3, 2, 1)  # (B, T, 1, C)
        hy = (hf + proj).squeeze(2)  # (B, T, C)
        e = self.VT(torch.tanh(hy))  # (B, T, 1)
        alpha = torch.softmax(e, dim=1)
        alpha = alpha.permute(0, 2, 1)  # (B, 1, T)
        hidden = self.encoder_output.permute(1, 0, 2)  # (B, T, C)
        context = torch.bmm(alpha, hidden)  # (B, 1, C)
        return context, alpha

    def forward(self, prev_output, attention_context, state):
        prev_emb = self.embedding(torch.argmax(prev_output, dim=1))
        cell_inp = self.input_projection(torch.cat((prev_emb, attention_context.squeeze(1)), dim=1)).unsqueeze(0)
        cell_output, state = self.rnn(cell_inp, state)
        h, c = state
        state_flat = torch.cat((c[0], h[0], c[1], h[1]), dim=1)
        context, weights = self.attention(state_flat)
        out = self.output_projection(torch.cat((cell_output.permute(1, 0, 2), context), dim=2))
        return out.squeeze(1), context, state, weights
