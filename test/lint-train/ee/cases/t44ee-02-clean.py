# case: t44ee-02-clean
# modelled-on: Snikem/SASRec.pytorch https://github.com/Snikem/SASRec.pytorch/commit/96c48cc6e6e247a989d0adc6f1b66c041804b251
# label: correct
# class: clean
# pattern: a SASRec model prepared for quantisation: the sequence is transposed to (length, batch, dim) for a sequence-first `nn.MultiheadAttention`, the causal mask is `~torch.tril(ones(L, L, dtype=bool))`, and when the projection weights are fake-quantised the same mask goes to `F.multi_head_attention_forward` with the quantised weights; positions are zeroed for padding (`poss *= ids != 0`)
# why: correct: `~tril` is True strictly above the diagonal, which is what a boolean `attn_mask` of PyTorch's attention blocks (True = not allowed), so each step sees itself and the past; the transposes swap batch and length for the sequence-first module and back, not the key's last two axes
# looks-like: ATT002, ATT005, ATT008
# source: https://github.com/Snikem/SASRec.pytorch https://github.com/Snikem/SASRec.pytorch/commit/96c48cc6e6e247a989d0adc6f1b66c041804b251 SASRec/python/model.py
import numpy as np
import torch
import torch.nn.functional as F


class QuantSeqRec(torch.nn.Module):
    def __init__(self, n_items, args, device):
        super().__init__()
        self.dev = device
        self.item_emb = torch.nn.Embedding(n_items + 1, args.hidden, padding_idx=0)
        self.pos_emb = torch.nn.Embedding(args.maxlen + 1, args.hidden, padding_idx=0)
        self.drop = torch.nn.Dropout(args.dropout)
        self.pre_norms = torch.nn.ModuleList()
        self.attns = torch.nn.ModuleList()
        self.ffns = torch.nn.ModuleList()
        for _ in range(args.blocks):
            self.pre_norms.append(torch.nn.LayerNorm(args.hidden, eps=1e-8))
            self.attns.append(torch.nn.MultiheadAttention(args.hidden, args.heads, args.dropout))
            self.ffns.append(torch.nn.Sequential(torch.nn.Linear(args.hidden, args.hidden), torch.nn.ReLU()))
        self.final_norm = torch.nn.LayerNorm(args.hidden, eps=1e-8)
        self.w_quant = None  # set by the quantisation wrapper

    def _attend(self, i, q, k, v, mask):
        mha = self.attns[i]
        if self.w_quant is None:
            out, _ = mha(q, k, v, attn_mask=mask)
            return out
        out, _ = F.multi_head_attention_forward(
            q, k, v,
            embed_dim_to_check=mha.embed_dim,
            num_heads=mha.num_heads,
            in_proj_weight=self.w_quant(mha.in_proj_weight),
            in_proj_bias=mha.in_proj_bias,
            bias_k=None,
            bias_v=None,
            add_zero_attn=False,
            dropout_p=mha.dropout if self.training else 0.0,
            out_proj_weight=self.w_quant(mha.out_proj.weight),
            out_proj_bias=mha.out_proj.bias,
            training=self.training,
            attn_mask=mask,
            need_weights=False,
        )
        return out

    def features(self, seqs_np):
        ids = torch.LongTensor(seqs_np).to(self.dev)
        h = self.item_emb(ids) * self.item_emb.embedding_dim ** 0.5
        poss = np.tile(np.arange(1, seqs_np.shape[1] + 1), [seqs_np.shape[0], 1])
        poss *= seqs_np != 0
        h = self.drop(h + self.pos_emb(torch.LongTensor(poss).to(self.dev)))

        L = h.shape[1]
        blocked = ~torch.tril(torch.ones((L, L), dtype=torch.bool, device=self.dev))
        for i in range(len(self.attns)):
            h = torch.transpose(h, 0, 1)  # (L, B, D) for the sequence-first module
            x = self.pre_norms[i](h)
            h = h + self._attend(i, x, x, x, blocked)
            h = torch.transpose(h, 0, 1)
            h = h + self.ffns[i](h)
        return self.final_norm(h)
