import torch


class CellSentenceCollator:
    """Turns expression profiles into fixed-length gene 'sentences' plus a task set of
    genes whose expression the model must predict from the cell embedding."""

    def __init__(self, cfg, gene_embedding_index):
        self.pad_length = cfg.pad_length
        self.n_pos = cfg.P
        self.n_neg = cfg.N
        self.cls_token_idx = cfg.cls_token_idx
        self.emb_index = gene_embedding_index
        self.mask_fraction = cfg.mask_fraction

    def __call__(self, batch):
        sentences = torch.zeros((len(batch), self.pad_length))
        tasks = torch.zeros((len(batch), self.n_pos + self.n_neg))
        masks = torch.zeros((len(batch), self.pad_length), dtype=torch.bool)
        for i, counts in enumerate(batch):
            s, t, m = self.sample(counts)
            sentences[i], tasks[i], masks[i] = s, t, m
        return sentences, tasks, masks

    def sample(self, cell):
        sentence = torch.zeros(self.pad_length)
        n_top = min((self.pad_length - 1) // 2, int(torch.sum(cell > 0)))
        ranked = torch.argsort(cell, descending=True)
        sentence[0] = self.cls_token_idx
        sentence[1 : n_top + 1] = ranked[:n_top]
        sentence[n_top + 1 :] = torch.multinomial(cell, self.pad_length - n_top - 1, replacement=True)
        sentence = self.emb_index[sentence.to(torch.int32)].float()

        expressed = torch.where(cell > 0)[0]
        unexpressed = torch.where(cell < 1)[0]
        task = torch.cat([
            expressed[torch.randint(len(expressed), (self.n_pos,))],
            unexpressed[torch.randint(len(unexpressed), (self.n_neg,))],
        ])
        task = self.emb_index[task.to(torch.int32)].float()

        # mask out the task genes from the cell sentence
        task_gene_set = torch.tensor(task.tolist(), dtype=sentence.dtype)
        mask = torch.isin(sentence, task_gene_set)

        # cap the masked share of the sentence at mask_fraction, never masking the CLS token
        target = int(self.mask_fraction * self.pad_length)
        current = int(mask.sum())
        if current > target:
            candidates = torch.where(mask[1:])[0] + 1
            chosen = candidates[torch.randperm(len(candidates))[:target]]
            mask = torch.zeros_like(mask)
            mask[chosen] = True
        elif current < target:
            free = torch.where(~mask[1:])[0] + 1
            extra = free[torch.randperm(len(free))[: min(target - current, len(free))]]
            mask[extra] = True
        mask[0] = False
        return sentence, task, mask
