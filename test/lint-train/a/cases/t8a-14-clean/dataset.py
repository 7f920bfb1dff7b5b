import torch
from torch.utils.data import Dataset


class Seq2SeqDataset(Dataset):
    """Encoder input: tokenized source; decoder input: [BOS] + target; labels: target + [EOS], -100 on padding."""

    def __init__(self, tokenizer, pairs, max_length: int = 128):
        self.tok = tokenizer
        self.pairs = pairs
        self.max_length = max_length
        if tokenizer.pad_token is None:
            tokenizer.add_special_tokens({"pad_token": "[PAD]"})
        self.pad_id, self.bos_id, self.eos_id = tokenizer.pad_token_id, tokenizer.bos_token_id, tokenizer.eos_token_id

    def __len__(self):
        return len(self.pairs)

    def __getitem__(self, i):
        src, tgt = self.pairs[i]
        enc = self.tok(src, truncation=True, max_length=self.max_length, padding="max_length", return_tensors="pt")
        src_ids, src_mask = enc["input_ids"].squeeze(0), enc["attention_mask"].squeeze(0)  # 1 = token
        raw = self.tok(tgt, add_special_tokens=False, truncation=True, max_length=self.max_length - 2, return_tensors="pt")["input_ids"].squeeze(0)
        tgt_ids = torch.cat([torch.tensor([self.bos_id]), raw])
        labels = torch.cat([raw, torch.tensor([self.eos_id])])
        pad = self.max_length - len(tgt_ids)
        tgt_ids = torch.cat([tgt_ids, torch.full((pad,), self.pad_id)])
        labels = torch.cat([labels, torch.full((self.max_length - len(labels),), -100)])
        tgt_mask = (tgt_ids != self.pad_id).long()
        return {"src_ids": src_ids, "src_mask": src_mask.long(), "tgt_ids": tgt_ids, "tgt_mask": tgt_mask, "labels": labels}
