import torch
from torch.utils.data import Dataset


def causal_mask(seq_len: int) -> torch.Tensor:
    upper = torch.triu(torch.ones(seq_len, seq_len), diagonal=1).type(torch.int)
    return upper == 0  # True on and below the diagonal


class BilingualDataset(Dataset):
    def __init__(self, pairs, tok_src, tok_tgt, seq_len: int):
        self.pairs, self.tok_src, self.tok_tgt, self.seq_len = pairs, tok_src, tok_tgt, seq_len
        self.sos = torch.tensor([tok_tgt.token_to_id("[SOS]")], dtype=torch.int64)
        self.eos = torch.tensor([tok_tgt.token_to_id("[EOS]")], dtype=torch.int64)
        self.pad = torch.tensor([tok_tgt.token_to_id("[PAD]")], dtype=torch.int64)

    def __len__(self):
        return len(self.pairs)

    def __getitem__(self, i):
        src, tgt = self.pairs[i]
        enc = self.tok_src.encode(src).ids
        dec = self.tok_tgt.encode(tgt).ids
        enc_pad = self.seq_len - len(enc) - 2
        dec_pad = self.seq_len - len(dec) - 1
        encoder_input = torch.cat([self.sos, torch.tensor(enc), self.eos, self.pad.repeat(enc_pad)])
        decoder_input = torch.cat([self.sos, torch.tensor(dec), self.pad.repeat(dec_pad)])
        label = torch.cat([torch.tensor(dec), self.eos, self.pad.repeat(dec_pad)])
        return {
            "encoder_input": encoder_input,
            "decoder_input": decoder_input,
            "encoder_mask": (encoder_input != self.pad).unsqueeze(0).unsqueeze(0).int(),  # [1, 1, seq_len]
            "decoder_mask": (decoder_input != self.pad).unsqueeze(0).int() & causal_mask(decoder_input.size(0)),  # [1, seq_len, seq_len]
            "label": label,
        }
