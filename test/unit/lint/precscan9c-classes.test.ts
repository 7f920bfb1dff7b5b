// Classes of correct code read wrongly, found by the false-positive scan of session 29 on attention outside NLP
// decoders: sequential recommenders, speech Conformers, point-cloud, graph and time-series transformers
// (test/lint-scan/results/2026-12-05-scan-precscan9c.md). Small examples written fresh, each with its buggy forms,
// which must still be reported.
//  1. ATT004: one attention head per module, its projections as wide as the width its constructor is given
//     (`nn.Linear(dim, n_hidden)`, `self.n_hidden = n_hidden`), scaled by sqrt(self.n_hidden), and a multi-head module
//     that builds them with the per-head width, `AttentionHead(dim, n_hidden // num_heads)` (or through its own
//     `self.n_hidden = n_hidden // num_heads`), as graph transformers written from scratch do. The caller's binding
//     made the factor read `n_hidden // num_heads`, and that text's `n_hidden` (the caller's) was compared with the
//     head's own `n_hidden` (its projections' width): "one head's width on scores never split into heads". The
//     factor is now not reported when, in the class that forms the scores, its `self.` attribute is defined only as
//     the very width the projections output: then it is the size the product sums over, whatever a caller binds.
import { strict as assert } from 'node:assert';
import { findingLines, linter, workspaceFindingLines } from './helpers';

const codes = findingLines;

const HEAD = `import torch
import torch.nn as nn
import torch.nn.functional as F


class AttentionHead(nn.Module):
    def __init__(self, dim: int, n_hidden: int):
        super().__init__()
        self.W_Q = nn.Linear(dim, n_hidden)
        self.W_K = nn.Linear(dim, n_hidden)
        self.W_V = nn.Linear(dim, n_hidden)
        self.n_hidden = n_hidden

    def forward(self, x, adj=None):
        Q = self.W_Q(x)
        K = self.W_K(x)
        V = self.W_V(x)
        scores = torch.matmul(Q, K.transpose(-2, -1)) / torch.sqrt(torch.tensor(self.n_hidden, dtype=torch.float32))
        if adj is not None:
            scores = scores.masked_fill(adj == 0, float("-inf"))
        alpha = F.softmax(scores, dim=-1)
        return torch.matmul(alpha, V), alpha
`;

const MULTI = `

class MultiHeadedAttention(nn.Module):
    def __init__(self, dim: int, n_hidden: int, num_heads: int):
        super().__init__()
        self.n_hidden = n_hidden // num_heads
        self.heads = nn.ModuleList([AttentionHead(dim, self.n_hidden) for _ in range(num_heads)])
        self.linear = nn.Linear(n_hidden, dim)

    def forward(self, x, adj=None):
        outs = []
        for head in self.heads:
            out, _ = head(x, adj)
            outs.append(out)
        return self.linear(torch.cat(outs, dim=-1))
`;

describe('lint: one head per module, built by a multi-head module with the per-head width (ATT004)', () => {
  it('the head scaled by sqrt of its own projection width, built with `self.n_hidden = n_hidden // num_heads`: silent', async () => {
    assert.deepEqual(await codes(HEAD + MULTI, 'ATT004'), []);
  });
  it('the per-head width passed inline, `AttentionHead(dim, n_hidden // num_heads)`, also in a comprehension: silent', async () => {
    const inline = MULTI.replace('AttentionHead(dim, self.n_hidden)', 'AttentionHead(dim, n_hidden // num_heads)');
    assert.deepEqual(await codes(HEAD + inline, 'ATT004'), []);
    const comp = inline.replace(/outs = \[\]\n[\s\S]*?outs\.append\(out\)\n/, 'outs = [head(x, adj)[0] for head in self.heads]\n');
    assert.ok(comp.includes('for head in self.heads]'));
    assert.deepEqual(await codes(HEAD + comp, 'ATT004'), []);
  });
  it('the head in one file, the multi-head module importing it in another: silent', async () => {
    const multi = 'import torch\nimport torch.nn as nn\nfrom heads import AttentionHead\n' + MULTI;
    assert.deepEqual(await workspaceFindingLines({ 'heads.py': HEAD, 'multi.py': multi }, 'heads.py', 'ATT004'), []);
  });
  it('buggy: the head module given the whole width, scaled by its own per-head width, never split: reported', async () => {
    const bug = HEAD.replace('def __init__(self, dim: int, n_hidden: int):', 'def __init__(self, dim: int, n_hidden: int, num_heads: int):').replace(
      'self.n_hidden = n_hidden',
      'self.n_hidden = n_hidden // num_heads',
    );
    assert.deepEqual(await codes(bug, 'ATT004'), [18]);
    const caller = MULTI.replace('AttentionHead(dim, self.n_hidden)', 'AttentionHead(dim, n_hidden, num_heads)');
    assert.deepEqual(await codes(bug + caller, 'ATT004'), [18]);
  });
  it('buggy: the same, the head in one file and its caller in another: reported', async () => {
    const bug = HEAD.replace('def __init__(self, dim: int, n_hidden: int):', 'def __init__(self, dim: int, n_hidden: int, num_heads: int):').replace(
      'self.n_hidden = n_hidden',
      'self.n_hidden = n_hidden // num_heads',
    );
    const multi =
      'import torch\nimport torch.nn as nn\nfrom heads import AttentionHead\n' +
      MULTI.replace('AttentionHead(dim, self.n_hidden)', 'AttentionHead(dim, n_hidden, num_heads)');
    assert.deepEqual(await workspaceFindingLines({ 'heads.py': bug, 'multi.py': multi }, 'heads.py', 'ATT004'), [18]);
  });
  it('buggy: the head scaled by the whole width while the caller gives it one head: the model-width finding is not the concern here, division by the width itself still is', async () => {
    const bug = HEAD.replace('torch.sqrt(torch.tensor(self.n_hidden, dtype=torch.float32))', 'self.n_hidden');
    assert.deepEqual(await codes(bug + MULTI, 'ATT004'), [18]);
  });
});

// 2. Correct forms of attention outside NLP decoders, each found in the scanned repositories and written fresh here in a
//    slightly different way from theirs (other axis spellings, helpers, kernels); none may be reported. Where the code
//    states a polarity, its buggy form must be.

async function allFindings(src: string): Promise<string[]> {
  return (await linter()).lintPython(src).map((f) => `${f.code}:${f.line}`);
}

const POINT = `import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class VectorAttention(nn.Module):
    def __init__(self, d_model, k):
        super().__init__()
        self.w_qs = nn.Linear(d_model, d_model, bias=False)
        self.w_ks = nn.Linear(d_model, d_model, bias=False)
        self.w_vs = nn.Linear(d_model, d_model, bias=False)
        self.fc_delta = nn.Sequential(nn.Linear(3, d_model), nn.ReLU(), nn.Linear(d_model, d_model))
        self.fc_gamma = nn.Sequential(nn.Linear(d_model, d_model), nn.ReLU(), nn.Linear(d_model, d_model))
        self.k = k

    def forward(self, xyz, x, knn_idx, knn_xyz):
        # x: (B, N, C); knn_idx: (B, N, K)
        q = self.w_qs(x)
        k = gather(self.w_ks(x), knn_idx)  # (B, N, K, C)
        v = gather(self.w_vs(x), knn_idx)
        pos = self.fc_delta(xyz[:, :, None] - knn_xyz)  # (B, N, K, C)
        attn = self.fc_gamma(q[:, :, None] - k + pos)
        attn = F.softmax(attn / np.sqrt(k.size(-1)), dim=2)  # over the K neighbours
        return torch.einsum("bnkc,bnkc->bnc", attn, v + pos)


class VectorAttentionSum(VectorAttention):
    def forward(self, xyz, x, knn_idx, knn_xyz):
        q = self.w_qs(x)
        k = gather(self.w_ks(x), knn_idx)
        v = gather(self.w_vs(x), knn_idx)
        rel = q.unsqueeze(2) - k
        w = torch.softmax(self.fc_gamma(rel), dim=-2)
        return (w * v).sum(dim=2)


def gather(points, idx):
    b = points.shape[0]
    batch = torch.arange(b, device=points.device).view(b, 1, 1)
    return points[batch, idx, :]


class OffsetAttention(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.q_conv = nn.Conv1d(channels, channels // 4, 1, bias=False)
        self.k_conv = nn.Conv1d(channels, channels // 4, 1, bias=False)
        self.v_conv = nn.Conv1d(channels, channels, 1)

    def forward(self, x):
        x_q = self.q_conv(x).permute(0, 2, 1)  # (B, N, C')
        x_k = self.k_conv(x)  # (B, C', N)
        x_v = self.v_conv(x)  # (B, C, N)
        energy = torch.bmm(x_q, x_k)  # (B, N, N)
        attention = F.softmax(energy, dim=2)
        attention = attention / (1e-9 + attention.sum(dim=1, keepdim=True))
        x_r = torch.bmm(x_v, attention)  # (B, C, N)
        return x - x_r


class NonLocalPoints(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.q_conv = nn.Conv1d(channels, channels // 4, 1, bias=False)
        self.k_conv = nn.Conv1d(channels, channels // 4, 1, bias=False)
        self.v_conv = nn.Conv1d(channels, channels, 1)

    def forward(self, x):
        q = self.q_conv(x)  # (B, C', N)
        k = self.k_conv(x)  # (B, C', N)
        v = self.v_conv(x)  # (B, C, N)
        energy = torch.bmm(q.transpose(1, 2), k)  # (B, N, N)
        attention = torch.softmax(energy, dim=-1)
        out = torch.bmm(v, attention.transpose(1, 2))  # (B, C, N)
        return out
`;

const GRAPH = `import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class GraphAttentionLayer(nn.Module):
    def __init__(self, in_features, out_features, alpha=0.2):
        super().__init__()
        self.W = nn.Parameter(torch.empty(in_features, out_features))
        self.a = nn.Parameter(torch.empty(2 * out_features, 1))
        self.leakyrelu = nn.LeakyReLU(alpha)
        self.out_features = out_features

    def forward(self, h, adj):
        Wh = torch.mm(h, self.W)  # (N, F)
        e1 = torch.matmul(Wh, self.a[: self.out_features, :])
        e2 = torch.matmul(Wh, self.a[self.out_features :, :])
        e = self.leakyrelu(e1 + e2.T)  # (N, N)
        zero_vec = -9e15 * torch.ones_like(e)
        attention = torch.where(adj > 0, e, zero_vec)
        attention = F.softmax(attention, dim=1)
        return torch.matmul(attention, Wh)


class DenseGraphTransformer(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.d_head = dim // heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.out = nn.Linear(dim, dim)

    def forward(self, x, adj):
        # x: (B, N, D); adj: (B, N, N), 1 where an edge exists
        B, N, D = x.shape
        q, k, v = self.qkv(x).view(B, N, 3, self.heads, self.d_head).permute(2, 0, 3, 1, 4)
        scores = torch.einsum("bhid,bhjd->bhij", q, k) / math.sqrt(self.d_head)
        no_edge = (adj == 0).unsqueeze(1)
        scores = scores.masked_fill(no_edge, float("-inf"))
        attn = scores.softmax(dim=-1)
        out = torch.einsum("bhij,bhjd->bhid", attn, v)
        return self.out(out.transpose(1, 2).reshape(B, N, D))


class EdgeSoftmax(nn.Module):
    """Softmax over each node's incoming edges (edge list, no dense matrix)."""

    def __init__(self, dim):
        super().__init__()
        self.q = nn.Linear(dim, dim)
        self.k = nn.Linear(dim, dim)
        self.v = nn.Linear(dim, dim)
        self.dim = dim

    def forward(self, x, edge_index):
        src, dst = edge_index
        q = self.q(x)[dst]
        k = self.k(x)[src]
        v = self.v(x)[src]
        score = (q * k).sum(dim=-1) / math.sqrt(self.dim)  # (E,)
        score = score - score.max()
        w = score.exp()
        denom = torch.zeros(x.size(0), device=x.device).index_add_(0, dst, w)
        alpha = w / denom[dst]
        out = torch.zeros_like(x).index_add_(0, dst, alpha.unsqueeze(-1) * v)
        return out
`;

const PYG = `import math
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch_geometric.nn import MessagePassing
from torch_geometric.utils import softmax
from torch_scatter import scatter_softmax, scatter_add


class TransformerConvLite(MessagePassing):
    def __init__(self, in_channels, out_channels, heads=1):
        super().__init__(aggr="add", node_dim=0)
        self.heads = heads
        self.out_channels = out_channels
        self.lin_query = nn.Linear(in_channels, heads * out_channels)
        self.lin_key = nn.Linear(in_channels, heads * out_channels)
        self.lin_value = nn.Linear(in_channels, heads * out_channels)

    def forward(self, x, edge_index):
        H, C = self.heads, self.out_channels
        query = self.lin_query(x).view(-1, H, C)
        key = self.lin_key(x).view(-1, H, C)
        value = self.lin_value(x).view(-1, H, C)
        return self.propagate(edge_index, query=query, key=key, value=value)

    def message(self, query_i, key_j, value_j, index, ptr, size_i):
        alpha = (query_i * key_j).sum(dim=-1) / math.sqrt(self.out_channels)
        alpha = softmax(alpha, index, ptr, size_i)
        alpha = F.dropout(alpha, p=0.1, training=self.training)
        return value_j * alpha.view(-1, self.heads, 1)


class ScatterAttention(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.q = nn.Linear(dim, dim)
        self.k = nn.Linear(dim, dim)
        self.dim = dim

    def forward(self, x, edge_index):
        src, dst = edge_index
        logits = (self.q(x)[dst] * self.k(x)[src]).sum(-1) / self.dim ** 0.5
        w = scatter_softmax(logits, dst, dim=0)
        return scatter_add(w.unsqueeze(-1) * x[src], dst, dim=0, dim_size=x.size(0))


class PygSoftmaxKw(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.att = nn.Parameter(torch.randn(1, heads, 2 * dim))

    def forward(self, x_i, x_j, index, num_nodes):
        # x_i, x_j: (E, heads, dim)
        alpha = (torch.cat([x_i, x_j], dim=-1) * self.att).sum(dim=-1)
        alpha = F.leaky_relu(alpha, 0.2)
        alpha = softmax(alpha, index, num_nodes=num_nodes)
        return x_j * alpha.unsqueeze(-1)
`;

const DGL = `import math
import torch
import torch.nn as nn
import dgl.function as fn
from dgl.nn.functional import edge_softmax


class GraphTransformerLayerDGL(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.h = heads
        self.d = dim // heads
        self.Q = nn.Linear(dim, dim)
        self.K = nn.Linear(dim, dim)
        self.V = nn.Linear(dim, dim)

    def forward(self, g, x):
        g.ndata["Q"] = self.Q(x).view(-1, self.h, self.d)
        g.ndata["K"] = self.K(x).view(-1, self.h, self.d)
        g.ndata["V"] = self.V(x).view(-1, self.h, self.d)
        g.apply_edges(fn.u_dot_v("K", "Q", "score"))
        e = g.edata.pop("score") / math.sqrt(self.d)
        g.edata["a"] = edge_softmax(g, e)
        g.update_all(fn.u_mul_e("V", "a", "m"), fn.sum("m", "h"))
        return g.ndata["h"].reshape(-1, self.h * self.d)


class SparseAdjAttention(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.q = nn.Linear(dim, dim)
        self.k = nn.Linear(dim, dim)
        self.dim = dim

    def forward(self, x, edge_index):
        n = x.size(0)
        src, dst = edge_index
        vals = (self.q(x)[dst] * self.k(x)[src]).sum(-1) / math.sqrt(self.dim)
        s = torch.sparse_coo_tensor(torch.stack([dst, src]), vals, (n, n))
        a = torch.sparse.softmax(s, dim=1)
        return torch.sparse.mm(a, x)


class GraphLevelMask(nn.Module):
    """Nodes of a padded batch of graphs: (B, N_max, D), node_mask (B, N_max) True for real nodes."""

    def __init__(self, dim, heads):
        super().__init__()
        self.attn = nn.MultiheadAttention(dim, heads, batch_first=True)

    def forward(self, x, node_mask, adj):
        attn_mask = adj == 0  # (B, N, N): no edge
        attn_mask = attn_mask.repeat_interleave(self.attn.num_heads, dim=0)
        out, w = self.attn(x, x, x, key_padding_mask=~node_mask, attn_mask=attn_mask)
        return out
`;

const OFFSET = `import torch
import torch.nn as nn


class SA_Layer(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.q_conv = nn.Conv1d(channels, channels // 4, 1, bias=False)
        self.k_conv = nn.Conv1d(channels, channels // 4, 1, bias=False)
        self.q_conv.weight = self.k_conv.weight
        self.v_conv = nn.Conv1d(channels, channels, 1)
        self.softmax = nn.Softmax(dim=-1)

    def forward(self, x):
        x_q = self.q_conv(x).permute(0, 2, 1)  # b, n, c
        x_k = self.k_conv(x)  # b, c, n
        x_v = self.v_conv(x)
        energy = x_q @ x_k  # b, n, n
        attention = self.softmax(energy)
        attention = attention / (1e-9 + attention.sum(dim=1, keepdims=True))
        x_r = x_v @ attention  # b, c, n
        return x - x_r


class SA_LayerT(SA_Layer):
    def forward(self, x):
        x_q = self.q_conv(x).permute(0, 2, 1)
        x_k = self.k_conv(x)
        x_v = self.v_conv(x)
        energy = torch.bmm(x_q, x_k)
        attention = self.softmax(energy)
        x_r = torch.bmm(x_v, attention.permute(0, 2, 1))
        return x_r
`;

const SERIES = `import math
import numpy as np
import torch
import torch.nn as nn


class TriangularCausalMask:
    def __init__(self, B, L, device="cpu"):
        shape = [B, 1, L, L]
        with torch.no_grad():
            self._mask = torch.triu(torch.ones(shape, dtype=torch.bool), diagonal=1).to(device)

    @property
    def mask(self):
        return self._mask


class FullAttention(nn.Module):
    def __init__(self, mask_flag=True, scale=None, dropout=0.1):
        super().__init__()
        self.scale = scale
        self.mask_flag = mask_flag
        self.dropout = nn.Dropout(dropout)

    def forward(self, queries, keys, values, attn_mask):
        B, L, H, E = queries.shape
        _, S, _, D = values.shape
        scale = self.scale or 1.0 / math.sqrt(E)
        scores = torch.einsum("blhe,bshe->bhls", queries, keys)
        if self.mask_flag:
            if attn_mask is None:
                attn_mask = TriangularCausalMask(B, L, device=queries.device)
            scores.masked_fill_(attn_mask.mask, -np.inf)
        A = self.dropout(torch.softmax(scale * scores, dim=-1))
        V = torch.einsum("bhls,bshd->blhd", A, values)
        return V.contiguous()


class VariateAttention(nn.Module):
    """Attention across variates (tokens are whole series), layout (B, N_vars, D)."""

    def __init__(self, d_model, n_heads):
        super().__init__()
        self.h = n_heads
        self.q = nn.Linear(d_model, d_model)
        self.k = nn.Linear(d_model, d_model)
        self.v = nn.Linear(d_model, d_model)

    def forward(self, x):
        B, N, D = x.shape
        q = self.q(x).view(B, N, self.h, -1)
        k = self.k(x).view(B, N, self.h, -1)
        v = self.v(x).view(B, N, self.h, -1)
        scale = 1.0 / math.sqrt(q.shape[-1])
        scores = torch.einsum("bnhe,bmhe->bhnm", q, k) * scale
        a = torch.softmax(scores, dim=-1)
        out = torch.einsum("bhnm,bmhe->bnhe", a, v)
        return out.reshape(B, N, D)


class ProbAttention(nn.Module):
    def __init__(self, factor=5, scale=None):
        super().__init__()
        self.factor = factor
        self.scale = scale

    def _prob_QK(self, Q, K, sample_k, n_top):
        B, H, L_K, E = K.shape
        _, _, L_Q, _ = Q.shape
        K_expand = K.unsqueeze(-3).expand(B, H, L_Q, L_K, E)
        index_sample = torch.randint(L_K, (L_Q, sample_k))
        K_sample = K_expand[:, :, torch.arange(L_Q).unsqueeze(1), index_sample, :]
        Q_K_sample = torch.matmul(Q.unsqueeze(-2), K_sample.transpose(-2, -1)).squeeze(-2)
        M = Q_K_sample.max(-1)[0] - torch.div(Q_K_sample.sum(-1), L_K)
        M_top = M.topk(n_top, sorted=False)[1]
        Q_reduce = Q[torch.arange(B)[:, None, None], torch.arange(H)[None, :, None], M_top, :]
        Q_K = torch.matmul(Q_reduce, K.transpose(-2, -1))
        return Q_K, M_top

    def _update_context(self, context_in, V, scores, index, L_Q):
        B, H, L_V, D = V.shape
        attn = torch.softmax(scores, dim=-1)
        context_in[torch.arange(B)[:, None, None], torch.arange(H)[None, :, None], index, :] = torch.matmul(attn, V)
        return context_in

    def forward(self, queries, keys, values):
        B, L_Q, H, D = queries.shape
        _, L_K, _, _ = keys.shape
        queries = queries.transpose(2, 1)
        keys = keys.transpose(2, 1)
        values = values.transpose(2, 1)
        U_part = min(self.factor * int(np.ceil(np.log(L_K))), L_K)
        u = min(self.factor * int(np.ceil(np.log(L_Q))), L_Q)
        scores_top, index = self._prob_QK(queries, keys, sample_k=U_part, n_top=u)
        scale = self.scale or 1.0 / math.sqrt(D)
        scores_top = scores_top * scale
        context = values.mean(dim=-2).unsqueeze(-2).expand(B, H, L_Q, D).clone()
        context = self._update_context(context, values, scores_top, index, L_Q)
        return context.transpose(2, 1).contiguous()


class SeriesDecoderLayer(nn.Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        self.self_attn = nn.MultiheadAttention(d_model, n_heads)
        self.cross_attn = nn.MultiheadAttention(d_model, n_heads)

    def forward(self, tgt, memory):
        # (T, B, D) layout
        T = tgt.size(0)
        tgt_mask = torch.triu(torch.full((T, T), float("-inf")), diagonal=1)
        x, _ = self.self_attn(tgt, tgt, tgt, attn_mask=tgt_mask)
        y, _ = self.cross_attn(x, memory, memory)
        return y


def generate_square_subsequent_mask(sz):
    mask = (torch.triu(torch.ones(sz, sz)) == 1).transpose(0, 1)
    return mask.float().masked_fill(mask == 0, float("-inf")).masked_fill(mask == 1, 0.0)


class TSTransformer(nn.Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        self.enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(d_model, n_heads), 2)

    def forward(self, src):
        mask = generate_square_subsequent_mask(src.size(0)).to(src.device)
        return self.enc(src, mask)
`;

const SPEECH = `import math
import torch
import torch.nn as nn
import torch.nn.functional as F


def lengths_to_mask(lengths, max_len):
    # True on the frames that exist
    return torch.arange(max_len, device=lengths.device)[None, :] < lengths[:, None]


def lengths_to_pad(lengths, max_len):
    # True on padding frames
    return torch.arange(max_len, device=lengths.device).unsqueeze(0) >= lengths.unsqueeze(1)


class RelPosMHA(nn.Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        self.h = n_heads
        self.d_k = d_model // n_heads
        self.linear_q = nn.Linear(d_model, d_model)
        self.linear_k = nn.Linear(d_model, d_model)
        self.linear_v = nn.Linear(d_model, d_model)
        self.linear_pos = nn.Linear(d_model, d_model, bias=False)
        self.pos_bias_u = nn.Parameter(torch.zeros(n_heads, self.d_k))
        self.pos_bias_v = nn.Parameter(torch.zeros(n_heads, self.d_k))
        self.out = nn.Linear(d_model, d_model)

    def rel_shift(self, x):
        b, h, t1, t2 = x.size()
        zero_pad = x.new_zeros(b, h, t1, 1)
        x_padded = torch.cat([zero_pad, x], dim=-1).view(b, h, t2 + 1, t1)
        return x_padded[:, :, 1:].view_as(x)[:, :, :, : t2 // 2 + 1]

    def forward(self, x, pos_emb, lengths):
        B, T, _ = x.shape
        q = self.linear_q(x).view(B, T, self.h, self.d_k)
        k = self.linear_k(x).view(B, T, self.h, self.d_k).transpose(1, 2)
        v = self.linear_v(x).view(B, T, self.h, self.d_k).transpose(1, 2)
        p = self.linear_pos(pos_emb).view(1, -1, self.h, self.d_k).transpose(1, 2)
        q_u = (q + self.pos_bias_u).transpose(1, 2)
        q_v = (q + self.pos_bias_v).transpose(1, 2)
        ac = torch.matmul(q_u, k.transpose(-2, -1))
        bd = self.rel_shift(torch.matmul(q_v, p.transpose(-2, -1)))
        scores = (ac + bd) / math.sqrt(self.d_k)
        mask = lengths_to_mask(lengths, T)  # (B, T) keep
        scores = scores.masked_fill(~mask[:, None, None, :], float("-inf"))
        attn = torch.softmax(scores, dim=-1).masked_fill(~mask[:, None, None, :], 0.0)
        out = torch.matmul(attn, v).transpose(1, 2).reshape(B, T, -1)
        return self.out(out)


class PadMaskMHA(nn.Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        self.mha = nn.MultiheadAttention(d_model, n_heads, batch_first=True)

    def forward(self, x, lengths):
        pad = lengths_to_pad(lengths, x.size(1))
        out, _ = self.mha(x, x, x, key_padding_mask=pad)
        return out


class KeepMaskMHA(nn.Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        self.mha = nn.MultiheadAttention(d_model, n_heads, batch_first=True)

    def forward(self, x, lengths):
        keep = lengths_to_mask(lengths, x.size(1))
        out, _ = self.mha(x, x, x, key_padding_mask=~keep)
        return out


class SdpaKeep(nn.Module):
    def forward(self, q, k, v, lengths):
        keep = lengths_to_mask(lengths, k.size(-2))
        return F.scaled_dot_product_attention(q, k, v, attn_mask=keep[:, None, None, :])
`;

const REC = `import torch
import torch.nn as nn


class SASRecBlock(nn.Module):
    def __init__(self, hidden, heads, maxlen):
        super().__init__()
        self.attn = nn.MultiheadAttention(hidden, heads, batch_first=True)
        self.ln = nn.LayerNorm(hidden)
        self.maxlen = maxlen

    def forward(self, seqs, log_seqs):
        timeline_mask = log_seqs == 0
        seqs = seqs * ~timeline_mask.unsqueeze(-1)
        tl = seqs.shape[1]
        attention_mask = ~torch.tril(torch.ones((tl, tl), dtype=torch.bool, device=seqs.device))
        q = self.ln(seqs)
        out, _ = self.attn(q, seqs, seqs, attn_mask=attention_mask)
        seqs = q + out
        seqs = seqs * ~timeline_mask.unsqueeze(-1)
        return seqs


class SASRecManual(nn.Module):
    def __init__(self, hidden, heads):
        super().__init__()
        self.h = heads
        self.d = hidden // heads
        self.qkv = nn.Linear(hidden, 3 * hidden)

    def forward(self, x, item_ids):
        B, L, H = x.shape
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        q = q.view(B, L, self.h, self.d).transpose(1, 2)
        k = k.view(B, L, self.h, self.d).transpose(1, 2)
        v = v.view(B, L, self.h, self.d).transpose(1, 2)
        scores = q @ k.transpose(-1, -2) * self.d ** -0.5
        causal = torch.triu(torch.ones(L, L, dtype=torch.bool, device=x.device), diagonal=1)
        pad = (item_ids == 0)[:, None, None, :]
        scores = scores.masked_fill(causal | pad, -1e9)
        w = scores.softmax(-1)
        query_keep = (item_ids != 0)[:, None, :, None].float()
        w = w * query_keep
        return (w @ v).transpose(1, 2).reshape(B, L, H)


class Bert4RecMask(nn.Module):
    def __init__(self, hidden, heads):
        super().__init__()
        self.layer = nn.TransformerEncoderLayer(hidden, heads, batch_first=True)

    def forward(self, x, item_ids):
        mask = (item_ids > 0).unsqueeze(1).repeat(1, item_ids.size(1), 1).unsqueeze(1)
        scores_mask = mask == 0
        return self.layer(x, src_key_padding_mask=item_ids == 0), scores_mask
`;

const KERAS = `import tensorflow as tf


class PointTransformerLayer(tf.keras.layers.Layer):
    def __init__(self, dim):
        super().__init__()
        self.q = tf.keras.layers.Dense(dim)
        self.k = tf.keras.layers.Dense(dim)
        self.v = tf.keras.layers.Dense(dim)
        self.mlp = tf.keras.layers.Dense(dim)

    def call(self, x, idx):
        # x: (B, N, C); idx: (B, N, K)
        q = self.q(x)
        k = tf.gather(self.k(x), idx, batch_dims=1)  # (B, N, K, C)
        v = tf.gather(self.v(x), idx, batch_dims=1)
        attn = tf.nn.softmax(self.mlp(q[:, :, None, :] - k), axis=-2)
        return tf.reduce_sum(attn * v, axis=2)


class KerasMHA(tf.keras.layers.Layer):
    def __init__(self, dim, heads):
        super().__init__()
        self.mha = tf.keras.layers.MultiHeadAttention(num_heads=heads, key_dim=dim // heads)

    def call(self, x, lengths):
        keep = tf.sequence_mask(lengths, maxlen=tf.shape(x)[1])
        mask = keep[:, tf.newaxis, :]
        return self.mha(x, x, attention_mask=mask)
`;

describe('lint: attention outside NLP decoders, correct forms (all rules)', () => {
  const cases: [string, string][] = [
    ['point clouds: vector attention, softmax over the K neighbours (dim=2, dim=-2), einsum or sum over them', POINT],
    ['graphs: GAT `torch.where(adj > 0, e, -9e15)`, dense adjacency masks, softmax by index_add over edges', GRAPH],
    ['graphs: PyG `softmax(alpha, index, ptr, size_i)` (index, not dim), torch_scatter `scatter_softmax`', PYG],
    ['graphs: DGL `edge_softmax`, `torch.sparse.softmax`, adjacency as `attn_mask` with a node padding mask', DGL],
    ['point clouds: offset attention, softmax then renormalised over dim 1 (`keepdims=True`), weights on the right', OFFSET],
    ['time series: (B, L, H, E) einsum layouts, a triangular mask class, ProbSparse top-u queries, -inf float masks', SERIES],
    ['speech: relative positional scores, keep and pad masks from lengths in helpers, nn.MultiheadAttention, SDPA', SPEECH],
    ['recommenders: SASRec causal `~tril` with timeline masks, query masking after softmax by rows, BERT4Rec', REC],
    ['Keras: neighbour softmax on axis -2, `tf.sequence_mask` as MultiHeadAttention attention_mask', KERAS],
  ];
  for (const [name, src] of cases) {
    it(`${name}: silent`, async () => {
      assert.deepEqual(await allFindings(src), []);
    });
  }
  it('buggy: the same speech masks with the polarity turned, each reported (ATT002)', async () => {
    const src = SPEECH.replace('masked_fill(~mask[:, None, None, :], float("-inf"))', 'masked_fill(mask[:, None, None, :], float("-inf"))')
      .replace('key_padding_mask=~keep', 'key_padding_mask=keep')
      .replace('attn_mask=keep[:, None, None, :]', 'attn_mask=~keep[:, None, None, :]');
    assert.deepEqual(await allFindings(src), ['ATT002:48', 'ATT002:72', 'ATT002:79']);
  });
  it('buggy: SASRec with the causal mask turned (`~attention_mask`), reported (ATT002)', async () => {
    assert.deepEqual(await allFindings(REC.replace('attn_mask=attention_mask', 'attn_mask=~attention_mask')), ['ATT002:18']);
  });
  it('buggy: Keras attention_mask from the negated sequence mask, reported (ATT002)', async () => {
    const src = KERAS.replace('keep[:, tf.newaxis, :]', 'tf.logical_not(keep)[:, tf.newaxis, :]');
    assert.deepEqual(await allFindings(src), ['ATT002:29']);
  });
  it('SASRec query masking by rows after softmax, with no mask before it: silent (a zeroed row is a padded query)', async () => {
    const src = REC.replace('        scores = scores.masked_fill(causal | pad, -1e9)\n', '');
    assert.ok(src !== REC);
    assert.deepEqual(await allFindings(src), []);
  });
  it('buggy: the same mask on the key axis, the scores never masked before softmax: reported (ATT006)', async () => {
    const src = REC.replace('        scores = scores.masked_fill(causal | pad, -1e9)\n', '').replace(
      '(item_ids != 0)[:, None, :, None].float()',
      '(item_ids != 0)[:, None, None, :].float()',
    );
    assert.deepEqual(await allFindings(src), ['ATT006:42']);
  });
});
