# case: b30-07-clean
# modelled-on: alecwangcq/show-attend-and-tell https://github.com/alecwangcq/show-attend-and-tell/commit/46d22b8b113cd024f5c721fa38a5538a10ec9441
# label: correct
# class: clean
# pattern: a Show, Attend and Tell image captioner on VGG conv features (batch_size x 196 x 512): the decoder's _attention_layer adds a projected feature map, the projected LSTM hidden state unsqueezed to N-1-D and a learned per-location bias, applies ReLU, maps each location to one score with att_w (Linear(vis_dim, 1)) and squeeze(2), normalises with nn.Softmax() built without a dim, and sums features * alpha.unsqueeze(2) over dim 1; forward() and sample() call it at every decoding step
# why: correct: att_out is (N, L), one score per image location, and a legacy nn.Softmax() without dim on a 2-D input normalises over dim 1, the 196 locations, as the paper's soft attention does; the context sums the features over dim 1, the same location axis, weighted by alpha; additive (Bahdanau-style) scores carry no 1/sqrt(d) scale. A reader's issue (#6) that the sum should run over another axis was closed: dim 1 is the location axis in this layout
# looks-like: ATT001, ATT003
# source: https://github.com/alecwangcq/show-attend-and-tell https://github.com/alecwangcq/show-attend-and-tell/commit/46d22b8b113cd024f5c721fa38a5538a10ec9441 model/models.py
import torch
from torch.autograd import Variable
import torch.nn as nn


def to_var(x, volatile=False):
    if torch.cuda.is_available():
        x = x.cuda()
    return Variable(x, volatile=volatile)


class Decoder(nn.Module):

    def __init__(self, vis_dim, vis_num, embed_dim, hidden_dim, vocab_size, num_layers=1, dropout_ratio=0.5):
        super(Decoder, self).__init__()

        self.embed_dim = embed_dim
        self.vis_dim = vis_dim
        self.vis_num = vis_num
        self.hidden_dim = hidden_dim
        self.vocab_size = vocab_size

        self.embed = nn.Embedding(vocab_size, embed_dim)
        self.lstm_cell = nn.LSTMCell(embed_dim + vis_dim, hidden_dim, num_layers)
        self.fc_out = nn.Linear(hidden_dim, vocab_size)

        # attention
        self.att_vw = nn.Linear(self.vis_dim, self.vis_dim, bias=False)
        self.att_hw = nn.Linear(self.hidden_dim, self.vis_dim, bias=False)
        self.att_bias = nn.Parameter(torch.zeros(vis_num))
        self.att_w = nn.Linear(self.vis_dim, 1, bias=False)

    def _attention_layer(self, features, hiddens):
        """
        :param features:  batch_size  * 196 * 512
        :param hiddens:  batch_size * hidden_dim
        :return:
        """
        att_fea = self.att_vw(features)
        # N-L-D
        att_h = self.att_hw(hiddens).unsqueeze(1)
        # N-1-D
        att_full = nn.ReLU()(att_fea + att_h + self.att_bias.view(1, -1, 1))
        att_out = self.att_w(att_full).squeeze(2)
        alpha = nn.Softmax()(att_out)
        # N-L
        context = torch.sum(features * alpha.unsqueeze(2), 1)
        return context, alpha

    def sample(self, feature, max_len=20):
        # greedy sample
        embed = self.embed
        lstm_cell = self.lstm_cell
        fc_out = self.fc_out
        attend = self._attention_layer
        batch_size = feature.size(0)

        sampled_ids = []
        alphas = [0]

        words = embed(to_var(torch.ones(batch_size, 1).long())).squeeze(1)
        h0, c0 = self.get_start_states(batch_size)
        feas = torch.mean(feature, 1)  # convert to batch_size*512

        for step in range(max_len):
            if step != 0:
                feas, alpha = attend(feature, h0)
                alphas.append(alpha)
            inputs = torch.cat([feas, words], 1)
            h0, c0 = lstm_cell(inputs, (h0, c0))
            outputs = fc_out(h0)
            predicted = outputs.max(1)[1]
            sampled_ids.append(predicted.unsqueeze(1))
            words = embed(predicted)

        sampled_ids = torch.cat(sampled_ids, 1)
        return sampled_ids.squeeze(), alphas

    def get_start_states(self, batch_size):
        hidden_dim = self.hidden_dim
        h0 = to_var(torch.zeros(batch_size, hidden_dim))
        c0 = to_var(torch.zeros(batch_size, hidden_dim))
        return h0, c0
