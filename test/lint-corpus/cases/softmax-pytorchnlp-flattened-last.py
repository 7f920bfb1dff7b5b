# case: softmax-pytorchnlp-flattened-last
# modelled-on: PetrochukM/PyTorch-NLP https://github.com/PetrochukM/PyTorch-NLP/issues/2
# label: correct
# pattern: the fix: same flattened (batch * output_len, query_len) scores, module softmax over dim=-1; Luong attention has no 1/sqrt(d) by design
# why: the last axis of the flattened scores is the context (key) axis
# looks-like: ATT001, ATT003
import torch
import torch.nn as nn


class Attention(nn.Module):
    def __init__(self, dimensions: int, attention_type: str = "general"):
        super().__init__()
        self.attention_type = attention_type
        if attention_type == "general":
            self.linear_in = nn.Linear(dimensions, dimensions, bias=False)
        self.linear_out = nn.Linear(dimensions * 2, dimensions, bias=False)
        self.softmax = nn.Softmax(dim=-1)
        self.tanh = nn.Tanh()

    def forward(self, query: torch.Tensor, context: torch.Tensor):
        batch_size, output_len, dimensions = query.size()
        query_len = context.size(1)
        if self.attention_type == "general":
            query = self.linear_in(query.reshape(batch_size * output_len, dimensions))
            query = query.reshape(batch_size, output_len, dimensions)
        attention_scores = torch.bmm(query, context.transpose(1, 2).contiguous())  # (B, out, q_len)
        attention_scores = attention_scores.view(batch_size * output_len, query_len)
        attention_weights = self.softmax(attention_scores)
        attention_weights = attention_weights.view(batch_size, output_len, query_len)
        mix = torch.bmm(attention_weights, context)
        combined = torch.cat((mix, query), dim=2).view(batch_size * output_len, 2 * dimensions)
        output = self.tanh(self.linear_out(combined)).view(batch_size, output_len, dimensions)
        return output, attention_weights
