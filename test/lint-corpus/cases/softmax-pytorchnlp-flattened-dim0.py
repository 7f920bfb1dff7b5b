# case: softmax-pytorchnlp-flattened-dim0
# modelled-on: PetrochukM/PyTorch-NLP https://github.com/PetrochukM/PyTorch-NLP/issues/2
# label: buggy
# pattern: scores are flattened to 2-D (batch * output_len, query_len) before a module softmax built in __init__ with dim=0
# why: dim 0 of the flattened scores runs over batch and output positions, so with batch 1 and one output every weight is 1.0
import torch
import torch.nn as nn


class Attention(nn.Module):
    """Luong-style attention: 'dot' or 'general' scoring of a query against a context."""

    def __init__(self, dimensions: int, attention_type: str = "general"):
        super().__init__()
        if attention_type not in ("dot", "general"):
            raise ValueError(f"attention_type must be 'dot' or 'general', got {attention_type!r}")
        self.attention_type = attention_type
        if attention_type == "general":
            self.linear_in = nn.Linear(dimensions, dimensions, bias=False)
        self.linear_out = nn.Linear(dimensions * 2, dimensions, bias=False)
        self.softmax = nn.Softmax(dim=0)  # expect: ATT001
        self.tanh = nn.Tanh()

    def forward(self, query: torch.Tensor, context: torch.Tensor):
        # query: (B, output_len, D); context: (B, query_len, D)
        batch_size, output_len, dimensions = query.size()
        query_len = context.size(1)
        if self.attention_type == "general":
            query = self.linear_in(query.reshape(batch_size * output_len, dimensions))
            query = query.reshape(batch_size, output_len, dimensions)
        # (B, output_len, D) @ (B, D, query_len) -> (B, output_len, query_len)
        attention_scores = torch.bmm(query, context.transpose(1, 2).contiguous())
        attention_scores = attention_scores.view(batch_size * output_len, query_len)
        attention_weights = self.softmax(attention_scores)
        attention_weights = attention_weights.view(batch_size, output_len, query_len)
        mix = torch.bmm(attention_weights, context)  # (B, output_len, D)
        combined = torch.cat((mix, query), dim=2).view(batch_size * output_len, 2 * dimensions)
        output = self.tanh(self.linear_out(combined)).view(batch_size, output_len, dimensions)
        return output, attention_weights
