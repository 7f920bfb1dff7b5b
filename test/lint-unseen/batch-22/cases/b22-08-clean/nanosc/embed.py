import torch

from .attention import CellAttention


class CellEncoderLayer(torch.nn.Module):
    def __init__(self, n_embd, n_head, n_hidden):
        super().__init__()
        self.attn = CellAttention(n_embd, n_head)
        self.norm1 = torch.nn.LayerNorm(n_embd)
        self.norm2 = torch.nn.LayerNorm(n_embd)
        self.mlp = torch.nn.Sequential(torch.nn.Linear(n_embd, n_hidden), torch.nn.GELU(), torch.nn.Linear(n_hidden, n_embd))

    def forward(self, x, src_key_padding_mask):
        x = x + self.attn(self.norm1(x), src_key_padding_mask)
        return x + self.mlp(self.norm2(x))


@torch.no_grad()
def cell_embeddings(layers, gene_embed, value_embed, loader, device):
    out = []
    for batch in loader:
        gene_ids, exprs, padding_mask = batch["gene_ids"].to(device), batch["exprs"].to(device), batch["padding_mask"].to(device)
        h = gene_embed(gene_ids) + value_embed(exprs.unsqueeze(-1))
        for layer in layers:
            h = layer(h, padding_mask)
        out.append(h[:, 0, :])
    return torch.cat(out)
