// Generated lint inputs shared by the lint benches (bench/lint.ts, bench/lint-scaling.ts) and the output dump
// (scripts/lint-output-dump.ts), so that what is timed and what is checked byte for byte are the same code.

// bench/lint.ts: attention modules (nanoGPT / annotated-transformer style) and plain modules.
const ATTENTION_MODULE = (i: number): string => `
class CausalSelfAttention${i}(nn.Module):
    def __init__(self, n_embd: int, n_head: int, block_size: int, dropout: float = 0.0):
        super().__init__()
        self.c_attn = nn.Linear(n_embd, 3 * n_embd)
        self.c_proj = nn.Linear(n_embd, n_embd)
        self.attn_dropout = nn.Dropout(dropout)
        self.n_head = n_head
        self.n_embd = n_embd
        self.register_buffer("bias", torch.tril(torch.ones(block_size, block_size)).view(1, 1, block_size, block_size))

    def forward(self, x, use_flash: bool = False):
        B, T, C = x.size()
        q, k, v = self.c_attn(x).split(self.n_embd, dim=2)
        k = k.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)  # (B, nh, T, hs)
        q = q.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)  # (B, nh, T, hs)
        v = v.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)  # (B, nh, T, hs)
        if use_flash:
            y = F.scaled_dot_product_attention(q, k, v, attn_mask=None, is_causal=True)
        else:
            att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
            att = att.masked_fill(self.bias[:, :, :T, :T] == 0, float("-inf"))
            att = F.softmax(att, dim=-1)
            att = self.attn_dropout(att)
            y = att @ v  # (B, nh, T, hs)
        y = y.transpose(1, 2).contiguous().view(B, T, C)
        return self.c_proj(y)


def attention${i}(query, key, value, mask=None, dropout=None):
    d_k = query.size(-1)
    scores = torch.matmul(query, key.transpose(-2, -1)) / math.sqrt(d_k)
    if mask is not None:
        scores = scores.masked_fill(mask == 0, -1e9)
    p_attn = scores.softmax(dim=-1)
    if dropout is not None:
        p_attn = dropout(p_attn)
    return torch.matmul(p_attn, value), p_attn
`;

const PLAIN_MODULE = (i: number): string => `
class Block${i}(nn.Module):
    def __init__(self, dim: int, hidden: int):
        super().__init__()
        self.fc1 = nn.Linear(dim, hidden)
        self.fc2 = nn.Linear(hidden, dim)
        self.norm = nn.LayerNorm(dim)

    def forward(self, x):
        y = self.fc2(F.gelu(self.fc1(self.norm(x))))
        return x + y


def collate${i}(batch, pad_id: int = 0):
    lengths = [len(b) for b in batch]
    width = max(lengths)
    out = torch.full((len(batch), width), pad_id, dtype=torch.long)
    for row, item in enumerate(batch):
        out[row, : len(item)] = torch.tensor(item)
    return out, torch.tensor(lengths)
`;

const MODULE_HEADER = 'import math\n\nimport torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n';

export function generatedFile(lines: number, attentionShare = 1): string {
  const parts = [MODULE_HEADER];
  let n = MODULE_HEADER.split('\n').length;
  for (let i = 0; n < lines; i++) {
    const chunk = i % Math.max(1, Math.round(1 / attentionShare)) === 0 ? ATTENTION_MODULE(i) : PLAIN_MODULE(i);
    parts.push(chunk);
    n += chunk.split('\n').length;
  }
  return parts.join('');
}

// bench/lint-scaling.ts: buggy attention code (every site has a finding), as functions, a script or a notebook.
const SCALING_HEADER = 'import math\n\nimport torch\nimport torch.nn.functional as F\n';

const FUNCTION_BLOCK = (i: number): string => `

def attention_${i}(q, k, v, mask):
    d_k = q.size(-1)
    scores = q @ k.transpose(-2, -1)
    scores = scores.masked_fill(mask == 0, -1e9)
    weights = torch.softmax(scores, dim=-1)
    return weights @ v


def scaled_${i}(query, key, value):
    d = query.shape[-1]
    logits = torch.matmul(query, key.transpose(-1, -2)) / d
    probs = F.softmax(logits.half(), dim=-2)
    return torch.matmul(probs, value)
`;

const SCRIPT_BLOCK = (i: number): string => `
d_${i} = q.size(-1)
scores_${i} = q @ k.transpose(-2, -1)
scores_${i} = scores_${i}.masked_fill(mask == 0, -1e9)
weights_${i} = torch.softmax(scores_${i}, dim=-1)
out_${i} = weights_${i} @ v
logits_${i} = torch.matmul(q, k.transpose(-1, -2)) / d_${i}
probs_${i} = F.softmax(logits_${i}, dim=-2)
`;

export type Kind = 'functions' | 'script' | 'notebook';

export function python(kind: 'functions' | 'script', lines: number): string {
  const parts = [SCALING_HEADER];
  let n = SCALING_HEADER.split('\n').length;
  for (let i = 0; n < lines; i++) {
    const block = kind === 'functions' ? FUNCTION_BLOCK(i) : SCRIPT_BLOCK(i);
    parts.push(block);
    n += block.split('\n').length - 1;
  }
  return parts.join('');
}

export function notebook(lines: number): string {
  const source = python('functions', lines).split('\n');
  const cells = [];
  for (let i = 0; i < source.length; i += 200) {
    cells.push({ cell_type: 'code', metadata: {}, execution_count: null, outputs: [], source: source.slice(i, i + 200).map((l) => l + '\n') });
  }
  return JSON.stringify({ cells, metadata: {}, nbformat: 4, nbformat_minor: 5 });
}
