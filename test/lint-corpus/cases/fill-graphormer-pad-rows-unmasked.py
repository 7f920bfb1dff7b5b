# case: fill-graphormer-pad-rows-unmasked
# modelled-on: microsoft/Graphormer https://github.com/microsoft/Graphormer/issues/141
# label: correct
# pattern: Graphormer's collator pads the attention bias of each graph with -inf but then sets the rows of padding nodes back to 0 over the real columns (new_x[xlen:, :xlen] = 0), and the bias is added to the scores
# why: padding keys are -inf for real queries, while padding queries keep some finite entries, so no row is all -inf and the softmax never produces NaN (explained in #141)
# looks-like: ATT007
import torch
import torch.nn as nn


def pad_attn_bias_unsqueeze(x: torch.Tensor, padlen: int) -> torch.Tensor:
    xlen = x.size(0)
    if xlen < padlen:
        new_x = x.new_zeros([padlen, padlen], dtype=x.dtype).fill_(float("-inf"))
        new_x[:xlen, :xlen] = x
        new_x[xlen:, :xlen] = 0
        x = new_x
    return x.unsqueeze(0)


def collate(items: list, max_node: int = 512) -> torch.Tensor:
    max_node_num = max(i.x.size(0) for i in items)
    return torch.cat([pad_attn_bias_unsqueeze(i.attn_bias, max_node_num + 1) for i in items])  # +1 for the graph token


class MultiHeadAttention(nn.Module):
    def __init__(self, hidden_size: int, num_heads: int, attention_dropout_rate: float = 0.1):
        super().__init__()
        self.num_heads = num_heads
        self.att_size = att_size = hidden_size // num_heads
        self.scale = att_size ** -0.5
        self.linear_q = nn.Linear(hidden_size, num_heads * att_size)
        self.linear_k = nn.Linear(hidden_size, num_heads * att_size)
        self.linear_v = nn.Linear(hidden_size, num_heads * att_size)
        self.att_dropout = nn.Dropout(attention_dropout_rate)
        self.output_layer = nn.Linear(num_heads * att_size, hidden_size)

    def forward(self, x: torch.Tensor, attn_bias: torch.Tensor) -> torch.Tensor:
        batch_size, n, _ = x.size()
        q = self.linear_q(x).view(batch_size, n, self.num_heads, self.att_size).transpose(1, 2)
        k = self.linear_k(x).view(batch_size, n, self.num_heads, self.att_size).transpose(1, 2)
        v = self.linear_v(x).view(batch_size, n, self.num_heads, self.att_size).transpose(1, 2)
        q = q * self.scale
        x = torch.matmul(q, k.transpose(2, 3))  # (B, H, n, n)
        x = x + attn_bias  # (B, H, n, n) additive bias with -inf at padded keys
        x = torch.softmax(x, dim=3)
        x = self.att_dropout(x)
        x = x.matmul(v).transpose(1, 2).contiguous().view(batch_size, -1, self.num_heads * self.att_size)
        return self.output_layer(x)
