"""Sentence pairs as index tensors, padded time-first (the GRUs below run with batch_first=False)."""

import torch
from torch.nn.utils.rnn import pad_sequence
from torch.utils.data import Dataset

PAD_IDX, SOS_IDX, EOS_IDX, UNK_IDX = 0, 1, 2, 3


class PairDataset(Dataset):
    def __init__(self, pairs, src_vocab, tgt_vocab):
        self.pairs, self.src_vocab, self.tgt_vocab = pairs, src_vocab, tgt_vocab

    def __len__(self):
        return len(self.pairs)

    def __getitem__(self, i):
        src_words, tgt_words = self.pairs[i]
        wrap = lambda ids: torch.tensor([SOS_IDX, *ids, EOS_IDX])
        return wrap(self.src_vocab.encode(src_words)), wrap(self.tgt_vocab.encode(tgt_words))


def time_first_batch(batch):
    srcs, tgts = zip(*batch)
    # (max_len, batch): position first, sentence second
    return pad_sequence(srcs, padding_value=PAD_IDX), pad_sequence(tgts, padding_value=PAD_IDX)
