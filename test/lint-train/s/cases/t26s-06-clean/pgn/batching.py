import numpy as np
import torch


class Batch:
    def __init__(self, examples, pad_id):
        max_len = max(ex.enc_len for ex in examples)
        self.enc_batch = np.full((len(examples), max_len), pad_id, dtype=np.int32)
        self.enc_lens = np.zeros((len(examples),), dtype=np.int32)
        # 1.0 on article positions, 0.0 on padding
        self.enc_padding_mask = np.zeros((len(examples), max_len), dtype=np.float32)
        for i, ex in enumerate(examples):
            self.enc_batch[i, : ex.enc_len] = ex.enc_input[: ex.enc_len]
            self.enc_lens[i] = ex.enc_len
            for j in range(ex.enc_len):
                self.enc_padding_mask[i][j] = 1


def encoder_inputs(batch: Batch, device):
    enc_batch = torch.from_numpy(batch.enc_batch).long().to(device)
    enc_padding_mask = torch.from_numpy(batch.enc_padding_mask).float().to(device)
    return enc_batch, enc_padding_mask, batch.enc_lens
