from typing import List, Tuple

import torch


def collate_sets(batch: List[Tuple]) -> Tuple:
    """Pads two variable-size sets of gene embeddings per sample; the masks are True on real rows, False on padding."""
    hosts, phages, labels, weights = zip(*batch)
    n_host = max(h.shape[0] for h in hosts)
    n_phage = max(p.shape[0] for p in phages)
    dim = hosts[0].shape[1]
    b = len(batch)

    host_x = torch.zeros(b, n_host, dim, dtype=torch.float32)
    phage_x = torch.zeros(b, n_phage, dim, dtype=torch.float32)
    host_mask = torch.zeros(b, n_host, dtype=torch.bool)
    phage_mask = torch.zeros(b, n_phage, dtype=torch.bool)
    y = torch.zeros(b, 1)
    w = torch.zeros(b, 1)

    for i, (h, p, label, weight) in enumerate(zip(hosts, phages, labels, weights)):
        host_x[i, : h.shape[0]] = h
        phage_x[i, : p.shape[0]] = p
        host_mask[i, : h.shape[0]] = True
        phage_mask[i, : p.shape[0]] = True
        y[i, 0] = float(label)
        w[i, 0] = float(weight)
    return host_x, phage_x, host_mask, phage_mask, y, w
