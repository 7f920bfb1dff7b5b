import torch
from torch.utils.data import Dataset


def subsequent_mask(size: int) -> torch.Tensor:
    # 1 above the diagonal, so == 0 keeps the diagonal and everything before it
    upper = torch.triu(torch.ones(1, size, size), diagonal=1).type(torch.int)
    return upper == 0


class PairDataset(Dataset):
    def __init__(self, pairs, tok_src, tok_tgt, seq_len: int):
        self.pairs = pairs
        self.tok_src = tok_src
        self.tok_tgt = tok_tgt
        self.seq_len = seq_len
        self.sos = torch.tensor([tok_tgt.token_to_id("[SOS]")], dtype=torch.int64)
        self.eos = torch.tensor([tok_tgt.token_to_id("[EOS]")], dtype=torch.int64)
        self.pad = torch.tensor([tok_tgt.token_to_id("[PAD]")], dtype=torch.int64)

    def __len__(self):
        return len(self.pairs)

    def __getitem__(self, idx):
        src_text, tgt_text = self.pairs[idx]
        src_ids = self.tok_src.encode(src_text).ids
        tgt_ids = self.tok_tgt.encode(tgt_text).ids
        n_src_pad = self.seq_len - len(src_ids) - 2
        n_tgt_pad = self.seq_len - len(tgt_ids) - 1
        if n_src_pad < 0 or n_tgt_pad < 0:
            raise ValueError("sentence too long")
        enc = torch.cat([self.sos, torch.tensor(src_ids, dtype=torch.int64), self.eos, self.pad.repeat(n_src_pad)])
        dec = torch.cat([self.sos, torch.tensor(tgt_ids, dtype=torch.int64), self.pad.repeat(n_tgt_pad)])
        label = torch.cat([torch.tensor(tgt_ids, dtype=torch.int64), self.eos, self.pad.repeat(n_tgt_pad)])
        return {
            "encoder_input": enc,
            "decoder_input": dec,
            # 1 = a real token that may be attended to
            "encoder_mask": (enc != self.pad).unsqueeze(0).unsqueeze(0).int(),
            "decoder_mask": (dec != self.pad).unsqueeze(0).int() & subsequent_mask(dec.size(0)),
            "label": label,
        }
