import numpy as np
import torch
import torch.nn.functional as F

from encoder import ResidueLM


class SequenceSampler:
    """Draws random crops of stored sequences and pads them into a fixed-width batch."""

    def __init__(self, sequences, bos_id: int, eos_id: int, pad_id: int, mask_id: int, seed: int = 0):
        self.sequences = sequences
        self.bos_id, self.eos_id, self.pad_id, self.mask_id = bos_id, eos_id, pad_id, mask_id
        self.rng = np.random.default_rng(seed)

    def batch(self, batch_size: int, context_length: int):
        ids = np.full((batch_size, context_length), self.pad_id, dtype=np.int64)
        real = np.zeros((batch_size, context_length), dtype=np.bool_)
        room = context_length - 2
        for row in range(batch_size):
            seq = self.sequences[int(self.rng.integers(len(self.sequences)))]
            start = int(self.rng.integers(max(0, len(seq) - room) + 1))
            crop = seq[start:start + room]
            end = 1 + len(crop)
            ids[row, 0] = self.bos_id
            ids[row, 1:end] = crop
            ids[row, end] = self.eos_id
            real[row, :end + 1] = True
        return torch.from_numpy(ids), torch.from_numpy(real)


def mlm_step(model: ResidueLM, sampler: SequenceSampler, optimizer, batch_size=16, context_length=512, rate=0.15):
    ids, real = sampler.batch(batch_size, context_length)
    corrupt = (torch.rand(ids.shape) < rate) & real
    corrupt[:, 0] = False
    inputs = ids.masked_fill(corrupt, sampler.mask_id)
    logits = model(inputs, real)
    loss = F.cross_entropy(logits[corrupt], ids[corrupt])
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()
