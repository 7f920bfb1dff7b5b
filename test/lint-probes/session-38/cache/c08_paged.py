import torch
import torch.nn.functional as F


def paged_decode(q, k_pages, v_pages, block_table, seq_lens, page_size):
    """One new token per sequence; gather each sequence's pages."""
    outs = []
    for b in range(q.shape[0]):
        n = int(seq_lens[b])
        pages = block_table[b, : (n + page_size - 1) // page_size]
        k = k_pages[pages].flatten(0, 1)[:n].transpose(0, 1)  # (H, n, D)
        v = v_pages[pages].flatten(0, 1)[:n].transpose(0, 1)
        qb = q[b].unsqueeze(1)  # (H, 1, D)
        outs.append(F.scaled_dot_product_attention(qb, k, v).squeeze(1))
    return torch.stack(outs)
