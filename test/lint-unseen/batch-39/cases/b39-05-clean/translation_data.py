import torch
from torch.utils.data import Dataset

from masks import future_mask, padding_mask


class PairDataset(Dataset):
    def __init__(self, pairs, tokenizer, src_lang, tgt_lang, max_len):
        self.pairs, self.tok = pairs, tokenizer
        self.src_lang, self.tgt_lang, self.max_len = src_lang, tgt_lang, max_len
        self.bos = torch.tensor([tokenizer.token_to_id("[BOS]")], dtype=torch.int64)
        self.eos = torch.tensor([tokenizer.token_to_id("[EOS]")], dtype=torch.int64)
        self.pad_id = tokenizer.token_to_id("[PAD]")

    def __len__(self):
        return len(self.pairs)

    def _pad(self, n):
        return torch.full((n,), self.pad_id, dtype=torch.int64)

    def __getitem__(self, idx):
        pair = self.pairs[idx]["translation"]
        src = torch.tensor(self.tok.encode(pair[self.src_lang]).ids, dtype=torch.int64)
        tgt = torch.tensor(self.tok.encode(pair[self.tgt_lang]).ids, dtype=torch.int64)

        enc_in = torch.cat([self.bos, src, self.eos, self._pad(self.max_len - len(src) - 2)])
        dec_in = torch.cat([self.bos, tgt, self._pad(self.max_len - len(tgt) - 1)])
        label = torch.cat([tgt, self.eos, self._pad(self.max_len - len(tgt) - 1)])

        return {
            "encoder_input": enc_in,
            "decoder_input": dec_in,
            # (1, 1, L): blocks padded source keys for every query and head
            "encoder_mask": padding_mask(enc_in.unsqueeze(0), self.pad_id),
            # (1, L, L): blocks future positions and padded target keys
            "decoder_mask": future_mask(dec_in.unsqueeze(0)) | padding_mask(dec_in.unsqueeze(0), self.pad_id),
            "label": label,
        }
