# case: t44ee-15-mask
# modelled-on: danifg/Pointer-Network-Reordering https://github.com/danifg/Pointer-Network-Reordering/commit/33f2959dde8e6b130364fc0ac6c577877bb0845c
# label: buggy
# class: real-bug
# pattern: the training loss of a stack-pointer network (NeuroNLP2 lineage) used for word reordering: a bi-affine energy layer (another file) scores every decoder step against every encoder position and multiplies the energies by the query and key masks (1 at real tokens), which sets padded entries to 0.0; the loss then builds `mask_d.eq(0).unsqueeze(2)` (padded decoder steps, (B, Ld, 1)) and `mask_e.eq(0).unsqueeze(1)` (padded encoder positions, (B, 1, Le)), multiplies the two boolean masks and fills the product with -inf before a cross-entropy over the encoder axis
# why: buggy: the product of the two "is padding" masks is True only where the decoder step AND the encoder position are both padding, so for every real decoder step the padded encoder positions are not hidden: they keep the energy 0.0 the bi-affine layer wrote there and take part of the softmax the cross-entropy normalises over the encoder axis (the comment says invalid positions are masked to -inf); hiding the padded encoder positions alone (`mask_e.eq(0).unsqueeze(1)`) is what "mask invalid positions" needs, and it empties no row since every sentence has real tokens
# source: https://github.com/danifg/Pointer-Network-Reordering https://github.com/danifg/Pointer-Network-Reordering/commit/33f2959dde8e6b130364fc0ac6c577877bb0845c neuronlp2/models/parsing.py
import torch
import torch.nn as nn

from reorder.energy import BiAffineEnergy


class StackPointerLoss(nn.Module):
    def __init__(self, encode, decode, hidden, arc_space, type_space, n_labels, p_out=0.33):
        super().__init__()
        self.encode = encode  # returns (enc_out, hn)
        self.decode = decode  # returns dec_out
        self.arc_h = nn.Linear(hidden, arc_space)
        self.arc_c = nn.Linear(hidden * 2, arc_space)
        self.type_h = nn.Linear(hidden, type_space)
        self.type_c = nn.Linear(hidden * 2, type_space)
        self.energy = BiAffineEnergy(arc_space, arc_space)
        self.label = nn.Bilinear(type_space, type_space, n_labels)
        self.act = nn.ELU(inplace=True)
        self.drop = nn.Dropout2d(p_out)
        self.criterion = nn.CrossEntropyLoss(reduction="none")

    def forward(self, words, heads, stacked_heads, children, stacked_types, mask_e=None, mask_d=None):
        enc_out, hn = self.encode(words, mask=mask_e)
        arc_c = self.act(self.arc_c(enc_out))
        type_c = self.act(self.type_c(enc_out))
        dec_out = self.decode(enc_out, heads, stacked_heads, hn, mask=mask_d)
        arc_h = self.act(self.arc_h(dec_out))
        type_h = self.act(self.type_h(dec_out))

        b, len_d, t_space = type_h.size()
        arc = self.drop(torch.cat([arc_h, arc_c], dim=1).transpose(1, 2)).transpose(1, 2)
        arc_h, arc_c = arc[:, :len_d], arc[:, len_d:]

        # [batch, length_decoder, length_encoder]
        scores = self.energy(arc_h, arc_c, mask_query=mask_d, mask_key=mask_e)
        type_c = type_c.gather(dim=1, index=children.unsqueeze(2).expand(b, len_d, t_space))
        out_type = self.label(type_h.contiguous(), type_c.contiguous())

        # mask invalid positions to -inf for the softmax of the loss
        if mask_e is not None:
            pad_e = mask_e.eq(0).unsqueeze(1)
            pad_d = mask_d.eq(0).unsqueeze(2)
            scores = scores.masked_fill(pad_d * pad_e, float("-inf"))  # expect: ATT002

        loss_arc = self.criterion(scores.transpose(1, 2), children)
        loss_type = self.criterion(out_type.transpose(1, 2), stacked_types)
        if mask_d is not None:
            loss_arc = loss_arc * mask_d
            loss_type = loss_type * mask_d
        return loss_arc.sum(dim=1), loss_type.sum(dim=1)
