import numpy as np
import torch


class CellTokenizer:
    def __init__(self, vocab, pad_value=-2.0, cls_value=0.0):
        self.vocab = vocab
        self.pad_value = pad_value
        self.cls_value = cls_value

    def encode_cell(self, gene_ids: np.ndarray, exprs: np.ndarray, T: int):
        """Returns gene_ids, exprs and padding_mask of length T; padding_mask is True for
        padding, False for real tokens (the [CLS] token and the expressed genes)."""
        keep = exprs > 0
        gene_ids = np.concatenate(([self.vocab["<cls>"]], gene_ids[keep]))
        exprs = np.concatenate(([self.cls_value], exprs[keep]))

        out_ids = np.full(T, self.vocab["<pad>"], dtype=np.int64)
        out_exprs = np.full(T, self.pad_value, dtype=np.float32)
        padding_mask = np.zeros(T, dtype=bool)
        n = min(len(gene_ids), T)
        out_ids[:n] = gene_ids[:n]
        out_exprs[:n] = exprs[:n]
        padding_mask[n:] = True
        return {
            "gene_ids": torch.from_numpy(out_ids),
            "exprs": torch.from_numpy(out_exprs),
            "padding_mask": torch.from_numpy(padding_mask),
        }
