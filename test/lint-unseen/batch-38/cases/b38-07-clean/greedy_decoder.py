# case: b38-07-clean
# modelled-on: sdrobert/pydrobert-pytorch https://github.com/sdrobert/pydrobert-pytorch/commit/2d2823e03385a0fa471ff666bdd0c7c9083a9094
# label: correct
# class: clean
# pattern: Luong-style global soft attention in a speech/ASR toolkit (a folder: the attention modules and an RNN decoder that uses them): encoder outputs are time-major (T, batch, size); the attention base class takes the softmax over dim=0 (time) by default, masks with masked_fill(~mask, -inf) where the mask is True on valid frames, and sums the weighted values over the same dim; the 'dot' score has a scale_factor that defaults to 1.0 (the unscaled Luong dot product); the decoder builds the length mask as arange(T)[:, None] < lengths and feeds one query (batch, hidden) per step
# why: correct: with time-major keys the key axis is dim 0, so softmax over dim 0 normalises over the encoder frames, and the weighted sum is over that same axis; the length mask is True on frames before each utterance's length and is inverted for masked_fill; Luong's dot score is unscaled by definition (the library documents scale_factor=1/size for the scaled variant), and the decoder uses the additive score anyway
# looks-like: ATT001, ATT002, ATT003
# source: https://github.com/sdrobert/pydrobert-pytorch https://github.com/sdrobert/pydrobert-pytorch/commit/2d2823e03385a0fa471ff666bdd0c7c9083a9094 src/pydrobert/torch/_attn.py
import torch

from soft_attention import ConcatScore, DotScore


class AttentionRNNDecoder(torch.nn.Module):
    def __init__(self, encoded_size, hidden_size, num_classes, use_dot=False):
        super().__init__()
        self.cell = torch.nn.RNNCell(encoded_size + 1, hidden_size)
        self.out = torch.nn.Linear(hidden_size, num_classes)
        if use_dot:
            assert encoded_size == hidden_size
            self.attention = DotScore(hidden_size)
        else:
            self.attention = ConcatScore(hidden_size, encoded_size)
        self.hidden_size = hidden_size

    def forward(self, encoded, encoded_lens, eos=0, start=-1, max_steps=100):
        T, batch, _ = encoded.shape
        valid = torch.arange(T, device=encoded.device).unsqueeze(-1) < encoded_lens
        h = encoded.new_zeros(batch, self.hidden_size)
        y = torch.full((1, batch), start, dtype=torch.long, device=encoded.device)
        for _ in range(max_steps):
            if y[-1].eq(eos).all():
                break
            context = self.attention(h, encoded, encoded, valid)
            h = self.cell(torch.cat([context, y[-1].unsqueeze(-1).float()], 1))
            y_next = self.out(h).argmax(-1).masked_fill(y[-1].eq(eos), eos)
            y = torch.cat([y, y_next.unsqueeze(0)], 0)
        return y[1:]
