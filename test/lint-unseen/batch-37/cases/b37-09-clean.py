# case: b37-09-clean
# modelled-on: kaushalshetty/Structured-Self-Attention https://github.com/kaushalshetty/Structured-Self-Attention/commit/84ed64f9cee75f84a5d871a46508a308182e4a6d
# label: correct
# class: clean
# pattern: "A Structured Self-Attentive Sentence Embedding" (Lin et al. 2017) for text classification: an LSTM encodes the tokens (batch, n, hidden), two linear layers with a tanh give (batch, n, r) scores for r attention hops, a hand-written softmax(input, axis) transposes the chosen axis to the end, flattens to 2-D and calls F.softmax with no dim, then transposes back; it is called with axis=1, the token axis; the (batch, r, n) attention matrix multiplies the LSTM outputs and the r hops are averaged; a Frobenius-norm penalty ||AA^T - I|| regularises the hops
# why: correct: the paper's A = softmax(W_s2 tanh(W_s1 H^T)) normalises each hop over the n tokens; the helper moves axis 1 (tokens) last and F.softmax without dim on a 2-D tensor normalises its last axis (dim=1), so each hop's weights over the tokens sum to one; the attention is transposed to (batch, r, n) before the product with the (batch, n, hidden) outputs, which sums over the tokens
# looks-like: ATT001, ATT003
# source: https://github.com/kaushalshetty/Structured-Self-Attention https://github.com/kaushalshetty/Structured-Self-Attention/commit/84ed64f9cee75f84a5d871a46508a308182e4a6d attention/model.py
import torch
import torch.nn.functional as F
from torch.autograd import Variable


class SelfAttentiveEncoder(torch.nn.Module):
    """Structured self-attentive sentence embedding with r hops."""

    def __init__(self, batch_size, lstm_hid_dim, d_a, r, max_len, emb_dim=100, vocab_size=None, n_classes=1, multiclass=False):
        super().__init__()
        self.embeddings = torch.nn.Embedding(vocab_size, emb_dim, padding_idx=0)
        self.lstm = torch.nn.LSTM(emb_dim, lstm_hid_dim, 1, batch_first=True)
        self.ws1 = torch.nn.Linear(lstm_hid_dim, d_a)
        self.ws1.bias.data.fill_(0)
        self.ws2 = torch.nn.Linear(d_a, r)
        self.ws2.bias.data.fill_(0)
        self.classifier = torch.nn.Linear(lstm_hid_dim, n_classes)
        self.batch_size = batch_size
        self.max_len = max_len
        self.lstm_hid_dim = lstm_hid_dim
        self.hidden_state = self.init_hidden()
        self.r = r
        self.multiclass = multiclass

    def softmax(self, input, axis=1):
        """Softmax along `axis` (moved last, flattened to 2-D, moved back)."""
        size = input.size()
        moved = input.transpose(axis, len(size) - 1)
        moved_size = moved.size()
        flat = moved.contiguous().view(-1, moved_size[-1])
        flat = F.softmax(flat)
        return flat.view(*moved_size).transpose(axis, len(size) - 1)

    def init_hidden(self):
        zeros = torch.zeros(1, self.batch_size, self.lstm_hid_dim)
        return (Variable(zeros), Variable(zeros.clone()))

    def forward(self, x):
        emb = self.embeddings(x)
        outputs, self.hidden_state = self.lstm(emb.view(self.batch_size, self.max_len, -1), self.hidden_state)
        scores = self.ws2(torch.tanh(self.ws1(outputs)))  # (batch, n, r)
        scores = self.softmax(scores, 1)
        attention = scores.transpose(1, 2)  # (batch, r, n)
        hops = attention @ outputs  # (batch, r, hidden)
        sentence = torch.sum(hops, 1) / self.r
        if not self.multiclass:
            return torch.sigmoid(self.classifier(sentence)), attention
        return F.log_softmax(self.classifier(sentence), dim=-1), attention

    def l2_matrix_norm(self, m):
        """Frobenius norm of AA^T - I, summed over the batch."""
        return torch.sum(torch.sum(torch.sum(m ** 2, 1), 1) ** 0.5).type(torch.DoubleTensor)
