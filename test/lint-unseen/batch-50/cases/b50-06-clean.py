# case: b50-06-clean
# modelled-on: 1-Vast/MCSC https://github.com/1-Vast/MCSC/commit/4d3b40a005cce9eeed2b369265f4a008266ad57e
# label: correct
# class: clean
# pattern: a train-only nearest-neighbour affinity memory used as a prior: a query drug (or target) descriptor is compared with all descriptors, candidates without a known training label are filled with -inf, rows with no known candidate are zeroed before top-k, and the top-k similarities are turned into weights with softmax(top / temperature, dim=1); weights of empty rows are then set to NaN so that the caller falls back to the global mean
# why: correct: the similarity matrix is (queries, candidates) and top-k keeps that layout, so dim=1 is the neighbour axis; known is True where a label exists and ~known marks the candidates to drop, so -inf lands on the unlabelled ones; the temperature (0.1 by default) is a retrieval sharpness, not a dot-product scale; when a row has fewer than k known candidates the extra -inf entries get weight exp(-inf) = 0, and a row with none is neither softmaxed over -inf only (it is zeroed first) nor used (its weights become NaN and its prediction the global mean), so the post-softmax torch.where changes only rows whose output is discarded
# looks-like: ATT001, ATT002, ATT004, ATT006, ATT007
# source: https://github.com/1-Vast/MCSC https://github.com/1-Vast/MCSC/commit/4d3b40a005cce9eeed2b369265f4a008266ad57e model/memory.py
import numpy as np
import torch


def unit_rows(x: torch.Tensor) -> torch.Tensor:
    return x / x.norm(dim=1, keepdim=True).clamp_min(1e-8)


class NeighbourPrior:
    """kNN affinity retrieval in frozen drug / target descriptor spaces, training labels only."""

    def __init__(self, drug_desc, target_desc, pairs, labels, k=5, temperature=0.1):
        self.drug_desc = unit_rows(drug_desc)
        self.target_desc = unit_rows(target_desc)
        self.k = k
        self.temperature = temperature
        dev = drug_desc.device
        self.table = torch.full((drug_desc.shape[0], target_desc.shape[0]), float("nan"), device=dev)
        d = torch.as_tensor(np.asarray(pairs[0], dtype=np.int64), device=dev)
        t = torch.as_tensor(np.asarray(pairs[1], dtype=np.int64), device=dev)
        self.table[d, t] = torch.as_tensor(np.asarray(labels, dtype=np.float32), device=dev)
        self.fallback = self.table[~self.table.isnan()].mean()

    @torch.no_grad()
    def neighbour_weights(self, queries, candidates, known):
        sims = queries @ candidates.t()  # (Q, C)
        sims = sims.masked_fill(~known, float("-inf"))
        k = min(self.k, candidates.shape[0])
        if k == 0:
            return None, None
        no_label = known.sum(dim=1) == 0
        sims = torch.where(no_label.unsqueeze(1), torch.zeros_like(sims), sims)
        top, top_idx = sims.topk(k, dim=1)
        w = torch.softmax(top / max(self.temperature, 1e-6), dim=1)
        w = torch.where(no_label.unsqueeze(1), torch.full_like(w, float("nan")), w)
        return w, top_idx

    @torch.no_grad()
    def from_similar_drugs(self, drug_idx, target_idx, leave_one_out=False):
        known = ~self.table[:, target_idx].t().isnan()  # (Q, n_drugs)
        if leave_one_out:
            known[torch.arange(len(drug_idx), device=known.device), drug_idx] = False
        w, idx = self.neighbour_weights(self.drug_desc[drug_idx], self.drug_desc, known)
        if w is None:
            return torch.full((len(drug_idx),), float("nan"), device=known.device)
        labels = self.table[idx, target_idx.unsqueeze(1).expand_as(idx)]
        return (w * torch.nan_to_num(labels, nan=0.0)).sum(dim=1)

    @torch.no_grad()
    def predict(self, drug_idx, target_idx, leave_one_out=False):
        pred = self.from_similar_drugs(drug_idx, target_idx, leave_one_out)
        return torch.where(torch.isnan(pred), self.fallback.expand_as(pred), pred)
