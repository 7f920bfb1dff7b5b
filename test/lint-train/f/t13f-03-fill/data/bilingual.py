import torch
from torch.utils.data import Dataset


def causal_mask(size: int) -> torch.Tensor:
    # 1 strictly above the diagonal, so == 0 keeps the diagonal and the past
    upper = torch.triu(torch.ones((1, size, size)), diagonal=1).type(torch.int)
    return upper == 0


class PairDataset(Dataset):
    def __init__(self, pairs, tok_src, tok_tgt, seq_len: int):
        self.pairs, self.tok_src, self.tok_tgt, self.seq_len = pairs, tok_src, tok_tgt, seq_len
        self.sos = torch.tensor([tok_tgt.token_to_id("[SOS]")], dtype=torch.int64)
        self.eos = torch.tensor([tok_tgt.token_to_id("[EOS]")], dtype=torch.int64)
        self.pad = tok_tgt.token_to_id("[PAD]")

    def __len__(self):
        return len(self.pairs)

    def __getitem__(self, i):
        src, tgt = self.pairs[i]
        s = self.tok_src.encode(src).ids
        t = self.tok_tgt.encode(tgt).ids
        n_s, n_t = self.seq_len - len(s) - 2, self.seq_len - len(t) - 1
        enc = torch.cat([self.sos, torch.tensor(s), self.eos, torch.full((n_s,), self.pad)])
        dec = torch.cat([self.sos, torch.tensor(t), torch.full((n_t,), self.pad)])
        return {
            "encoder_input": enc,
            "decoder_input": dec,
            # keep masks: 1 where the token may be attended to
            "encoder_mask": (enc != self.pad).unsqueeze(0).unsqueeze(0).int(),
            "decoder_mask": (dec != self.pad).unsqueeze(0).int() & causal_mask(dec.size(0)),
        }
