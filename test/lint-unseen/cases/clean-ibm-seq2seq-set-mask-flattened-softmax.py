# case: clean-ibm-seq2seq-set-mask-flattened-softmax
# modelled-on: IBM/pytorch-seq2seq https://github.com/IBM/pytorch-seq2seq/blob/master/seq2seq/models/attention.py
# label: correct
# class: clean
# pattern: Luong dot attention whose mask is stored on the module by a set_mask method called elsewhere (True at the indices to mask), filled in place on .data with -inf, and whose (batch, out_len, in_len) scores are flattened to (batch * out_len, in_len) for a softmax over dim=1 and viewed back
# why: after view(-1, input_size) dim=1 is the input (key) axis, so each decoder step's weights sum to 1 over the encoder positions; the stored mask marks the positions to hide, which masked_fill_ fills; dot attention without 1/sqrt(d) is Luong's formulation; the decoder only sets a mask that leaves each row some real input
# looks-like: ATT001, ATT002, ATT003, ATT007
# source: https://github.com/IBM/pytorch-seq2seq https://github.com/IBM/pytorch-seq2seq/commit/f146087a9a271e9b50f46561e090324764b081fb seq2seq/models/attention.py
import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    r"""
    Applies an attention mechanism on the output features from the decoder.

    Inputs: output, context
        - **output** (batch, output_len, dimensions): output features from the decoder.
        - **context** (batch, input_len, dimensions): features of the encoded input sequence.
    """

    def __init__(self, dim):
        super(Attention, self).__init__()
        self.linear_out = nn.Linear(dim * 2, dim)
        self.mask = None

    def set_mask(self, mask):
        """Sets indices to be masked"""
        self.mask = mask

    def forward(self, output, context):
        batch_size = output.size(0)
        hidden_size = output.size(2)
        input_size = context.size(1)
        # (batch, out_len, dim) * (batch, in_len, dim) -> (batch, out_len, in_len)
        attn = torch.bmm(output, context.transpose(1, 2))
        if self.mask is not None:
            attn.data.masked_fill_(self.mask, -float('inf'))
        attn = F.softmax(attn.view(-1, input_size), dim=1).view(batch_size, -1, input_size)

        # (batch, out_len, in_len) * (batch, in_len, dim) -> (batch, out_len, dim)
        mix = torch.bmm(attn, context)
        combined = torch.cat((mix, output), dim=2)
        output = torch.tanh(self.linear_out(combined.view(-1, 2 * hidden_size))).view(batch_size, -1, hidden_size)
        return output, attn
