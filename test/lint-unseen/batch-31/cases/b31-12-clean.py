# case: b31-12-clean
# modelled-on: RusselMcGrady/Multi-head-attention-based-MetaR https://github.com/RusselMcGrady/Multi-head-attention-based-MetaR/commit/68e3d0dbc9a9e6057bb26c5a52a28644049105a5
# label: correct
# class: clean
# pattern: few-shot knowledge-graph completion (MetaR): a relation meta-learner runs LSTMs over the few support entity pairs and lets them attend to label embeddings through a multi-head attention module ported from a TensorFlow Transformer: heads are split with torch.chunk and stacked on the batch axis, scores are bmm(Q_, K_.permute(0, 2, 1)) / sqrt(C/h), softmax over the keys, then the rows are multiplied by a 0/1 query mask (sign(|sum(queries)|), 0 for all-zero query vectors) before the weighted sum and a residual connection
# why: correct: the 0/1 mask multiplies whole rows (one per query position), zeroing the output of padded queries; it does not remove keys from a row, so no renormalisation is needed and every kept row still sums to one; the queries here are LSTM states, never all-zero, so the mask keeps every row; the scale is sqrt of the per-head width C/h, and the keys are transposed over their last two axes
# looks-like: ATT003, ATT004, ATT005, ATT006
# source: https://github.com/RusselMcGrady/Multi-head-attention-based-MetaR https://github.com/RusselMcGrady/Multi-head-attention-based-MetaR/commit/68e3d0dbc9a9e6057bb26c5a52a28644049105a5 models.py
import torch
import torch.nn as nn
import torch.nn.functional as F


class RelationMetaLearner(nn.Module):
    def __init__(self, few, embed_size=100, out_size=100, dropout_p=0.5):
        super(RelationMetaLearner, self).__init__()
        self.embed_size = embed_size
        self.few = few
        self.out_size = out_size
        self.lstm1 = nn.LSTM(input_size=2 * embed_size, hidden_size=2 * out_size, batch_first=True)
        self.lstm2 = nn.LSTM(input_size=2 * embed_size, hidden_size=2 * out_size, batch_first=True)
        self.lstm3 = nn.LSTM(input_size=4 * embed_size, hidden_size=2 * out_size, batch_first=True)
        self.lstm4 = nn.LSTM(input_size=4 * embed_size, hidden_size=1 * out_size, batch_first=True)
        self.label_attn1 = multihead_attention(2 * embed_size, num_heads=5, dropout_rate=dropout_p)
        self.label_attn2 = multihead_attention(2 * embed_size, num_heads=5, dropout_rate=dropout_p)
        self.droplstm = nn.Dropout(dropout_p)

    def forward(self, inputs, label_embs):
        size_s = inputs.shape
        size_q = label_embs.shape
        x = inputs.contiguous().view(size_s[0], size_s[1], -1)
        y = label_embs.contiguous().view(size_q[0], size_q[1], -1)

        x, _ = self.lstm1(x)
        y, _ = self.lstm2(y)
        x = self.droplstm(x)
        y = self.droplstm(y)

        x = torch.cat([x, self.label_attn1(x, y, y)], -1)
        x, _ = self.lstm3(x)
        x = torch.cat([x, self.label_attn2(x, y, y)], -1)
        x, _ = self.lstm4(x)
        x = torch.mean(x, 1)
        return x.view(size_s[0], 1, 1, self.out_size)


class multihead_attention(nn.Module):

    def __init__(self, num_units, num_heads=1, dropout_rate=0, causality=False):
        super(multihead_attention, self).__init__()
        self.num_units = num_units
        self.num_heads = num_heads
        self.dropout_rate = dropout_rate
        self.causality = causality
        self.Q_proj = nn.Sequential(nn.Linear(self.num_units, self.num_units), nn.ReLU())
        self.K_proj = nn.Sequential(nn.Linear(self.num_units, self.num_units), nn.ReLU())
        self.V_proj = nn.Sequential(nn.Linear(self.num_units, self.num_units), nn.ReLU())
        self.output_dropout = nn.Dropout(p=self.dropout_rate)

    def forward(self, queries, keys, values, last_layer=False):
        # keys, values: (N, T_k, C); queries: (N, T_q, C)
        Q = self.Q_proj(queries)
        K = self.K_proj(keys)
        V = self.V_proj(values)
        # split and concat the heads on the batch axis
        Q_ = torch.cat(torch.chunk(Q, self.num_heads, dim=2), dim=0)  # (h*N, T_q, C/h)
        K_ = torch.cat(torch.chunk(K, self.num_heads, dim=2), dim=0)  # (h*N, T_k, C/h)
        V_ = torch.cat(torch.chunk(V, self.num_heads, dim=2), dim=0)  # (h*N, T_k, C/h)

        outputs = torch.bmm(Q_, K_.permute(0, 2, 1))  # (h*N, T_q, T_k)
        outputs = outputs / (K_.size()[-1] ** 0.5)

        if last_layer == False:
            outputs = F.softmax(outputs, dim=-1)  # (h*N, T_q, T_k)

        # query masking
        query_masks = torch.sign(torch.abs(torch.sum(queries, dim=-1)))  # (N, T_q)
        query_masks = query_masks.repeat(self.num_heads, 1)  # (h*N, T_q)
        query_masks = torch.unsqueeze(query_masks, 2).repeat(1, 1, keys.size()[1])  # (h*N, T_q, T_k)
        outputs = outputs * query_masks

        outputs = self.output_dropout(outputs)
        if last_layer == True:
            return outputs

        outputs = torch.bmm(outputs, V_)  # (h*N, T_q, C/h)
        outputs = torch.cat(torch.chunk(outputs, self.num_heads, dim=0), dim=2)  # (N, T_q, C)
        outputs += queries
        return outputs
