// The same findings when the evidence is split across files (issue 11: folder cases score lower recall than single
// files). A list of small natural examples covering ATT001..ATT008, each a buggy form and its fixed twin, each with one
// piece named as the evidence that real code keeps in another module: the mask builder (`utils.py`), the scale or the
// widths (a constant, a config class), the attention helper the model calls, the collate function that builds the
// padding mask, a base class whose `__init__` sets `self.scale` / `self.head_dim`. Every example is linted as one file,
// then that piece is moved mechanically into `pkg/utils.py` and imported in each way real code imports it:
//   rel       `from .utils import NAME`
//   abs_as    `from pkg.utils import NAME as NAME_alias`
//   mod_alias `import pkg.utils as U` then `U.NAME`
//   from_dot  `from . import utils` then `utils.NAME`
//   reexport  `pkg/__init__.py` re-exports NAME, the model (at the root) does `from pkg import NAME`
// The split workspace must give the same findings (count per rule, over every file of the workspace) as the single
// file for the buggy form, and none for the fixed form. `TODAY` lists the buggy cells the cross-file machinery does not
// decide yet (the class and the reason with each): the test fails when a listed gap closes or a passing cell breaks.
import { strict as assert } from 'node:assert';
import { createLinter, type Finding } from '../../../src/lint';
import { grammar, linter, memoryWorkspace } from './helpers';

type Code = 'ATT001' | 'ATT002' | 'ATT003' | 'ATT004' | 'ATT005' | 'ATT006' | 'ATT007' | 'ATT008';
type Piece = 'mask' | 'scale' | 'helper' | 'collate' | 'const' | 'base' | 'config';
type Style = 'rel' | 'abs_as' | 'mod_alias' | 'from_dot' | 'reexport';
const STYLES: readonly Style[] = ['rel', 'abs_as', 'mod_alias', 'from_dot', 'reexport'];

interface Example {
  readonly id: string;
  readonly rule: Code;
  readonly piece: Piece;
  /** The top-level names the moved piece defines (the rest refers to them). */
  readonly names: readonly string[];
  /** Import lines both modules need. */
  readonly header: string;
  /** The moved piece and the rest of the file, buggy (true) or fixed (false). */
  readonly moved: (bug: boolean) => string;
  readonly rest: (bug: boolean) => string;
}

const TORCH = 'import math\n\nimport torch\nimport torch.nn.functional as F\nfrom torch import nn\n';

const SPLIT_HEADS = `        B, T, C = x.shape
        q = self.q_proj(x).view(B, T, self.n_head, self.head_dim).transpose(1, 2)
        k = self.k_proj(x).view(B, T, self.n_head, self.head_dim).transpose(1, 2)
        v = self.v_proj(x).view(B, T, self.n_head, self.head_dim).transpose(1, 2)
`;
const PROJ_INIT = (width: string, heads: string): string => `        self.n_head = ${heads}
        self.head_dim = ${width} // ${heads}
        self.q_proj = nn.Linear(${width}, ${width})
        self.k_proj = nn.Linear(${width}, ${width})
        self.v_proj = nn.Linear(${width}, ${width})
        self.out = nn.Linear(${width}, ${width})
`;

/** A module whose forward splits heads, calls `body` (lines indented 8 that end with `y` of shape (B, H, T, D)). */
const MODULE = (body: string, params = ', x', init = PROJ_INIT('512', '8'), base = 'nn.Module', ctor = 'self'): string => `

class Attention(${base}):
    def __init__(${ctor}):
        super().__init__()
${init}
    def forward(self${params}):
${SPLIT_HEADS}${body}        return self.out(y.transpose(1, 2).reshape(B, T, C))
`;

const EXAMPLES: readonly Example[] = [
  // ---- ATT002: mask polarity
  {
    id: 'att002_pad_mask_sdpa',
    rule: 'ATT002',
    piece: 'mask',
    names: ['make_pad_mask'],
    header: TORCH,
    moved: (bug) => `

def make_pad_mask(input_ids, pad_id=0):
    keep = input_ids ${bug ? '==' : '!='} pad_id
    return keep[:, None, None, :]
`,
    rest: () =>
      MODULE(
        `        mask = make_pad_mask(input_ids)
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
`,
        ', x, input_ids',
      ),
  },
  {
    id: 'att002_causal_sdpa',
    rule: 'ATT002',
    piece: 'mask',
    names: ['causal_mask'],
    header: TORCH,
    moved: (bug) => `

def causal_mask(n, device=None):
    return torch.${bug ? 'triu' : 'tril'}(torch.ones(n, n, dtype=torch.bool, device=device)${bug ? ', diagonal=1' : ''})
`,
    rest: () =>
      MODULE(`        mask = causal_mask(T, device=x.device)
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
`),
  },
  {
    id: 'att002_key_padding_mha',
    rule: 'ATT002',
    piece: 'mask',
    names: ['padding_mask'],
    header: TORCH,
    moved: (bug) => `

def padding_mask(tokens, pad_id=0):
    return tokens ${bug ? '!=' : '=='} pad_id
`,
    rest: () => `

class Encoder(nn.Module):
    def __init__(self, d_model=256, nhead=4):
        super().__init__()
        self.attn = nn.MultiheadAttention(d_model, nhead, batch_first=True)

    def forward(self, x, tokens):
        mask = padding_mask(tokens)
        out, _ = self.attn(x, x, x, key_padding_mask=mask)
        return out
`,
  },
  {
    id: 'att002_pad_id_const',
    rule: 'ATT002',
    piece: 'const',
    names: ['PAD_ID'],
    header: TORCH,
    moved: () => `

PAD_ID = 0
`,
    rest: (bug) =>
      MODULE(
        `        mask = (input_ids ${bug ? '==' : '!='} PAD_ID)[:, None, None, :]
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
`,
        ', x, input_ids',
      ),
  },
  {
    id: 'att002_collate_mask',
    rule: 'ATT002',
    piece: 'collate',
    names: ['collate'],
    header: `${TORCH}from torch.nn.utils.rnn import pad_sequence\n`,
    moved: (bug) => `

def collate(batch):
    ids = pad_sequence([torch.tensor(b) for b in batch], batch_first=True, padding_value=0)
    attention_mask = ids ${bug ? '==' : '!='} 0
    return ids, attention_mask
`,
    rest: () => `${MODULE(
      `        y = F.scaled_dot_product_attention(q, k, v, attn_mask=mask[:, None, None, :])
`,
      ', x, mask',
    )}

def step(embed, batch):
    model = Attention()
    ids, mask = collate(batch)
    return model(embed(ids), mask)
`,
  },
  // ---- ATT001: softmax dim
  {
    id: 'att001_scores_helper',
    rule: 'ATT001',
    piece: 'helper',
    names: ['attention_scores'],
    header: TORCH,
    moved: () => `

def attention_scores(q, k):
    return q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
`,
    rest: (bug) =>
      MODULE(`        w = F.softmax(attention_scores(q, k), dim=${bug ? '1' : '-1'})
        y = w @ v
`),
  },
  {
    id: 'att001_attend_helper',
    rule: 'ATT001',
    piece: 'helper',
    names: ['attend'],
    header: TORCH,
    moved: (bug) => `

def attend(q, k, v):
    scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(q.size(-1))
    weights = torch.softmax(scores, dim=${bug ? '-2' : '-1'})
    return torch.matmul(weights, v)
`,
    rest: () =>
      MODULE(`        y = attend(q, k, v)
`),
  },
  // ---- ATT003: missing scale
  {
    id: 'att003_attend_helper',
    rule: 'ATT003',
    piece: 'helper',
    names: ['attend'],
    header: TORCH,
    moved: (bug) => `

def attend(q, k, v):
    scores = q @ k.transpose(-2, -1)${bug ? '' : ' / math.sqrt(q.size(-1))'}
    return scores.softmax(dim=-1) @ v
`,
    rest: () =>
      MODULE(`        y = attend(q, k, v)
`),
  },
  {
    id: 'att003_base_scale',
    rule: 'ATT003',
    piece: 'base',
    names: ['AttentionBase'],
    header: TORCH,
    moved: () => `

class AttentionBase(nn.Module):
    def __init__(self, dim=512, heads=8):
        super().__init__()
${PROJ_INIT('dim', 'heads')}        self.scale = self.head_dim ** -0.5
`,
    rest: (bug) => `

class Attention(AttentionBase):
    def forward(self, x):
${SPLIT_HEADS}        scores = q @ k.transpose(-2, -1)${bug ? '' : ' * self.scale'}
        y = scores.softmax(dim=-1) @ v
        return self.out(y.transpose(1, 2).reshape(B, T, C))
`,
  },
  // ---- ATT004: wrong scale
  {
    id: 'att004_base_scale_model_width',
    rule: 'ATT004',
    piece: 'base',
    names: ['AttentionBase'],
    header: TORCH,
    moved: (bug) => `

class AttentionBase(nn.Module):
    def __init__(self, dim=512, heads=8):
        super().__init__()
${PROJ_INIT('dim', 'heads')}        self.scale = ${bug ? 'dim' : 'self.head_dim'} ** -0.5
`,
    rest: () => `

class Attention(AttentionBase):
    def forward(self, x):
${SPLIT_HEADS}        scores = q @ k.transpose(-2, -1) * self.scale
        y = scores.softmax(dim=-1) @ v
        return self.out(y.transpose(1, 2).reshape(B, T, C))
`,
  },
  {
    id: 'att004_base_head_dim_nosqrt',
    rule: 'ATT004',
    piece: 'base',
    names: ['AttentionBase'],
    header: TORCH,
    moved: () => `

class AttentionBase(nn.Module):
    def __init__(self, dim=512, heads=8):
        super().__init__()
${PROJ_INIT('dim', 'heads')}`,
    rest: (bug) => `

class Attention(AttentionBase):
    def forward(self, x):
${SPLIT_HEADS}        scores = q @ k.transpose(-2, -1) / ${bug ? 'self.head_dim' : 'math.sqrt(self.head_dim)'}
        y = scores.softmax(dim=-1) @ v
        return self.out(y.transpose(1, 2).reshape(B, T, C))
`,
  },
  {
    id: 'att004_width_consts',
    rule: 'ATT004',
    piece: 'const',
    names: ['D_MODEL', 'N_HEAD', 'D_HEAD'],
    header: TORCH,
    moved: () => `

D_MODEL = 512
N_HEAD = 8
D_HEAD = D_MODEL // N_HEAD
`,
    rest: (bug) =>
      MODULE(
        `        scores = q @ k.transpose(-2, -1) / ${bug ? 'D_HEAD' : 'math.sqrt(D_HEAD)'}
        y = scores.softmax(dim=-1) @ v
`,
        ', x',
        PROJ_INIT('D_MODEL', 'N_HEAD'),
      ),
  },
  {
    id: 'att004_config_class',
    rule: 'ATT004',
    piece: 'config',
    names: ['GPTConfig'],
    header: `${TORCH}from dataclasses import dataclass\n`,
    moved: () => `

@dataclass
class GPTConfig:
    n_embd: int = 512
    n_head: int = 8
`,
    rest: (bug) => `

class Attention(nn.Module):
    def __init__(self, config: GPTConfig):
        super().__init__()
${PROJ_INIT('config.n_embd', 'config.n_head')}        self.n_embd = config.n_embd

    def forward(self, x):
${SPLIT_HEADS}        scores = q @ k.transpose(-2, -1) / math.sqrt(${bug ? 'self.n_embd' : 'self.head_dim'})
        y = scores.softmax(dim=-1) @ v
        return self.out(y.transpose(1, 2).reshape(B, T, C))


def build():
    return Attention(GPTConfig())
`,
  },
  {
    id: 'att004_attend_helper_nosqrt',
    rule: 'ATT004',
    piece: 'helper',
    names: ['attend'],
    header: TORCH,
    moved: (bug) => `

def attend(q, k, v, head_dim):
    scores = q @ k.transpose(-2, -1) / ${bug ? 'head_dim' : 'math.sqrt(head_dim)'}
    return scores.softmax(dim=-1) @ v
`,
    rest: () =>
      MODULE(`        y = attend(q, k, v, self.head_dim)
`),
  },
  // ---- ATT005: key transpose
  {
    id: 'att005_scores_helper',
    rule: 'ATT005',
    piece: 'helper',
    names: ['attention_scores'],
    header: TORCH,
    moved: (bug) => `

def attention_scores(q, k):
    return q @ k.transpose(${bug ? '1, 2' : '-2, -1'}) / math.sqrt(q.size(-1))
`,
    rest: () =>
      MODULE(`        w = F.softmax(attention_scores(q, k), dim=-1)
        y = w @ v
`),
  },
  {
    id: 'att005_base_heads',
    rule: 'ATT005',
    piece: 'base',
    names: ['AttentionBase'],
    header: TORCH,
    moved: () => `

class AttentionBase(nn.Module):
    def __init__(self, dim=512, heads=8):
        super().__init__()
${PROJ_INIT('dim', 'heads')}`,
    rest: (bug) => `

class Attention(AttentionBase):
    def forward(self, x):
${SPLIT_HEADS}        scores = q @ k.transpose(${bug ? '1, 2' : '-2, -1'}) / math.sqrt(self.head_dim)
        y = scores.softmax(dim=-1) @ v
        return self.out(y.transpose(1, 2).reshape(B, T, C))
`,
  },
  // ---- ATT006: mask after softmax
  {
    id: 'att006_causal_builder',
    rule: 'ATT006',
    piece: 'mask',
    names: ['causal_mask'],
    header: TORCH,
    moved: () => `

def causal_mask(n, device=None):
    return torch.tril(torch.ones(n, n, device=device))
`,
    rest: (bug) =>
      MODULE(
        bug
          ? `        mask = causal_mask(T, device=x.device)
        w = F.softmax(q @ k.transpose(-2, -1) / math.sqrt(self.head_dim), dim=-1)
        w = w * mask
        y = w @ v
`
          : `        mask = causal_mask(T, device=x.device)
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.head_dim)
        scores = scores.masked_fill(mask == 0, float("-inf"))
        y = F.softmax(scores, dim=-1) @ v
`,
      ),
  },
  {
    id: 'att006_pad_builder',
    rule: 'ATT006',
    piece: 'mask',
    names: ['make_pad_mask'],
    header: TORCH,
    moved: () => `

def make_pad_mask(input_ids, pad_id=0):
    return (input_ids == pad_id)[:, None, None, :]
`,
    rest: (bug) =>
      MODULE(
        bug
          ? `        pad = make_pad_mask(input_ids)
        w = F.softmax(q @ k.transpose(-2, -1) / math.sqrt(self.head_dim), dim=-1)
        w = w.masked_fill(pad, 0.0)
        y = w @ v
`
          : `        pad = make_pad_mask(input_ids)
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.head_dim)
        w = F.softmax(scores.masked_fill(pad, -1e9), dim=-1)
        y = w @ v
`,
        ', x, input_ids',
      ),
  },
  // ---- ATT007: fill value
  {
    id: 'att007_neg_inf_const_half',
    rule: 'ATT007',
    piece: 'const',
    names: ['NEG_INF'],
    header: TORCH,
    moved: (bug) => `

NEG_INF = ${bug ? '-1e9' : '-1e4'}
`,
    rest: () => `${MODULE(
      `        scores = q @ k.transpose(-2, -1) / math.sqrt(self.head_dim)
        scores = scores.masked_fill(input_ids[:, None, None, :] == 0, NEG_INF)
        y = F.softmax(scores, dim=-1) @ v
`,
      ', x, input_ids',
    )}

def run(model, x, input_ids):
    model = model.half()
    return model(x.half(), input_ids)
`,
  },
  {
    id: 'att007_fill_const_zero',
    rule: 'ATT007',
    piece: 'const',
    names: ['MASK_FILL'],
    header: TORCH,
    moved: (bug) => `

MASK_FILL = ${bug ? '0.0' : '-1e9'}
`,
    rest: () =>
      MODULE(
        `        scores = q @ k.transpose(-2, -1) / math.sqrt(self.head_dim)
        scores = scores.masked_fill(input_ids[:, None, None, :] == 0, MASK_FILL)
        y = F.softmax(scores, dim=-1) @ v
`,
        ', x, input_ids',
      ),
  },
  {
    id: 'att007_pad_builder_zero_fill',
    rule: 'ATT007',
    piece: 'mask',
    names: ['make_pad_mask'],
    header: TORCH,
    moved: () => `

def make_pad_mask(input_ids, pad_id=0):
    return (input_ids == pad_id)[:, None, None, :]
`,
    rest: (bug) =>
      MODULE(
        `        scores = q @ k.transpose(-2, -1) / math.sqrt(self.head_dim)
        scores = scores.masked_fill(make_pad_mask(input_ids), ${bug ? '0' : 'float("-inf")'})
        y = F.softmax(scores, dim=-1) @ v
`,
        ', x, input_ids',
      ),
  },
  // ---- ATT008: causal SDPA
  {
    id: 'att008_pad_builder_causal',
    rule: 'ATT008',
    piece: 'mask',
    names: ['make_pad_mask'],
    header: TORCH,
    moved: () => `

def make_pad_mask(input_ids, pad_id=0):
    return (input_ids != pad_id)[:, None, None, :]
`,
    rest: (bug) =>
      MODULE(
        `        mask = make_pad_mask(input_ids)
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=mask${bug ? ', is_causal=True' : ''})
`,
        ', x, input_ids',
      ),
  },
  {
    id: 'att008_sdpa_helper',
    rule: 'ATT008',
    piece: 'helper',
    names: ['sdpa'],
    header: TORCH,
    moved: () => `

def sdpa(q, k, v, mask=None, causal=False):
    return F.scaled_dot_product_attention(q, k, v, attn_mask=mask, is_causal=causal)
`,
    rest: (bug) =>
      MODULE(
        `        mask = (input_ids != 0)[:, None, None, :]
        y = sdpa(q, k, v, ${bug ? 'mask' : 'None'}, causal=True)
`,
        ', x, input_ids',
      ),
  },
  // ---- more pieces: mask builders with other rules, base classes holding buffers and flags, configs, collate dicts
  {
    id: 'att001_pad_builder',
    rule: 'ATT001',
    piece: 'mask',
    names: ['make_pad_mask'],
    header: TORCH,
    moved: () => `

def make_pad_mask(input_ids, pad_id=0):
    return (input_ids == pad_id)[:, None, None, :]
`,
    rest: (bug) =>
      MODULE(
        `        scores = q @ k.transpose(-2, -1) / math.sqrt(self.head_dim)
        scores = scores.masked_fill(make_pad_mask(input_ids), float("-inf"))
        y = F.softmax(scores, dim=${bug ? '2' : '-1'}) @ v
`,
        ', x, input_ids',
      ),
  },
  {
    id: 'att001_masked_softmax_helper',
    rule: 'ATT001',
    piece: 'helper',
    names: ['masked_softmax'],
    header: TORCH,
    moved: (bug) => `

def masked_softmax(scores, keep):
    return scores.masked_fill(~keep, float("-inf")).softmax(dim=${bug ? '1' : '-1'})
`,
    rest: () =>
      MODULE(
        `        scores = q @ k.transpose(-2, -1) / math.sqrt(self.head_dim)
        y = masked_softmax(scores, (input_ids != 0)[:, None, None, :]) @ v
`,
        ', x, input_ids',
      ),
  },
  {
    id: 'att001_base_heads',
    rule: 'ATT001',
    piece: 'base',
    names: ['AttentionBase'],
    header: TORCH,
    moved: () => `

class AttentionBase(nn.Module):
    def __init__(self, dim=512, heads=8):
        super().__init__()
${PROJ_INIT('dim', 'heads')}`,
    rest: (bug) => `

class Attention(AttentionBase):
    def forward(self, x):
${SPLIT_HEADS}        scores = q @ k.transpose(-2, -1) / math.sqrt(self.head_dim)
        y = scores.softmax(dim=${bug ? '-2' : '-1'}) @ v
        return self.out(y.transpose(1, 2).reshape(B, T, C))
`,
  },
  {
    id: 'att002_base_causal_buffer',
    rule: 'ATT002',
    piece: 'base',
    names: ['CausalBase'],
    header: TORCH,
    moved: (bug) => `

class CausalBase(nn.Module):
    def __init__(self, dim=512, heads=8, block_size=256):
        super().__init__()
${PROJ_INIT('dim', 'heads')}        self.register_buffer("bias", torch.${bug ? 'triu' : 'tril'}(torch.ones(block_size, block_size)${bug ? ', diagonal=1' : ''}))
`,
    rest: () => `

class Attention(CausalBase):
    def forward(self, x):
${SPLIT_HEADS}        scores = q @ k.transpose(-2, -1) / math.sqrt(self.head_dim)
        scores = scores.masked_fill(self.bias[:T, :T] == 0, float("-inf"))
        y = F.softmax(scores, dim=-1) @ v
        return self.out(y.transpose(1, 2).reshape(B, T, C))
`,
  },
  {
    id: 'att002_base_pad_id',
    rule: 'ATT002',
    piece: 'base',
    names: ['AttentionBase'],
    header: TORCH,
    moved: () => `

class AttentionBase(nn.Module):
    def __init__(self, dim=512, heads=8, pad_id=0):
        super().__init__()
${PROJ_INIT('dim', 'heads')}        self.pad_id = pad_id
`,
    rest: (bug) => `

class Attention(AttentionBase):
    def forward(self, x, input_ids):
${SPLIT_HEADS}        mask = (input_ids ${bug ? '==' : '!='} self.pad_id)[:, None, None, :]
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
        return self.out(y.transpose(1, 2).reshape(B, T, C))
`,
  },
  {
    id: 'att002_config_pad_token',
    rule: 'ATT002',
    piece: 'config',
    names: ['ModelConfig'],
    header: `${TORCH}from dataclasses import dataclass\n`,
    moved: () => `

@dataclass
class ModelConfig:
    hidden_size: int = 512
    num_heads: int = 8
    pad_token_id: int = 0
`,
    rest: (bug) => `

class Attention(nn.Module):
    def __init__(self, config: ModelConfig):
        super().__init__()
${PROJ_INIT('config.hidden_size', 'config.num_heads')}        self.pad_token_id = config.pad_token_id

    def forward(self, x, input_ids):
${SPLIT_HEADS}        mask = input_ids.${bug ? 'eq' : 'ne'}(self.pad_token_id)[:, None, None, :]
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
        return self.out(y.transpose(1, 2).reshape(B, T, C))


def build():
    return Attention(ModelConfig())
`,
  },
  {
    id: 'att002_collate_dict',
    rule: 'ATT002',
    piece: 'collate',
    names: ['collate_fn'],
    header: `${TORCH}from torch.nn.utils.rnn import pad_sequence\n`,
    moved: (bug) => `

def collate_fn(batch):
    input_ids = pad_sequence([torch.tensor(b) for b in batch], batch_first=True, padding_value=0)
    return {"input_ids": input_ids, "attention_mask": input_ids ${bug ? '==' : '!='} 0}
`,
    rest: () => `

class Encoder(nn.Module):
    def __init__(self, vocab=1000, d_model=256, nhead=4):
        super().__init__()
        self.embed = nn.Embedding(vocab, d_model)
        self.attn = nn.MultiheadAttention(d_model, nhead, batch_first=True)

    def forward(self, input_ids, attention_mask):
        x = self.embed(input_ids)
        out, _ = self.attn(x, x, x, key_padding_mask=~attention_mask)
        return out


def train_step(batch):
    model = Encoder()
    return model(**collate_fn(batch))
`,
  },
  {
    id: 'att003_pad_builder',
    rule: 'ATT003',
    piece: 'mask',
    names: ['make_pad_mask'],
    header: TORCH,
    moved: () => `

def make_pad_mask(input_ids, pad_id=0):
    return (input_ids == pad_id)[:, None, None, :]
`,
    rest: (bug) =>
      MODULE(
        `        scores = q @ k.transpose(-2, -1)${bug ? '' : ' / math.sqrt(self.head_dim)'}
        scores = scores.masked_fill(make_pad_mask(input_ids), float("-inf"))
        y = F.softmax(scores, dim=-1) @ v
`,
        ', x, input_ids',
      ),
  },
  {
    id: 'att004_config_hf',
    rule: 'ATT004',
    piece: 'config',
    names: ['BertConfig'],
    header: TORCH,
    moved: () => `

class BertConfig:
    def __init__(self, hidden_size=768, num_attention_heads=12):
        self.hidden_size = hidden_size
        self.num_attention_heads = num_attention_heads
`,
    rest: (bug) => `

class SelfAttention(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.n_head = config.num_attention_heads
        self.head_dim = config.hidden_size // config.num_attention_heads
        self.hidden_size = config.hidden_size
        self.q_proj = nn.Linear(config.hidden_size, config.hidden_size)
        self.k_proj = nn.Linear(config.hidden_size, config.hidden_size)
        self.v_proj = nn.Linear(config.hidden_size, config.hidden_size)
        self.out = nn.Linear(config.hidden_size, config.hidden_size)

    def forward(self, x):
${SPLIT_HEADS}        scores = q @ k.transpose(-2, -1) / math.sqrt(${bug ? 'self.hidden_size' : 'self.head_dim'})
        y = scores.softmax(dim=-1) @ v
        return self.out(y.transpose(1, 2).reshape(B, T, C))


def build():
    return SelfAttention(BertConfig())
`,
  },
  {
    id: 'att004_model_width_const',
    rule: 'ATT004',
    piece: 'const',
    names: ['HEAD_DIM', 'D_MODEL'],
    header: TORCH,
    moved: () => `

HEAD_DIM = 64
D_MODEL = 512
`,
    rest: (bug) => `

class Attention(nn.Module):
    def __init__(self):
        super().__init__()
        self.qkv = nn.Linear(512, 1536)

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, 8, HEAD_DIM).permute(2, 0, 3, 1, 4)
        scores = q @ k.transpose(-2, -1) / math.sqrt(${bug ? 'D_MODEL' : 'HEAD_DIM'})
        return (scores.softmax(dim=-1) @ v).transpose(1, 2).reshape(B, T, C)
`,
  },
  {
    id: 'att005_pad_builder',
    rule: 'ATT005',
    piece: 'mask',
    names: ['make_pad_mask'],
    header: TORCH,
    moved: () => `

def make_pad_mask(input_ids, pad_id=0):
    return (input_ids == pad_id)[:, None, None, :]
`,
    rest: (bug) =>
      MODULE(
        `        scores = q @ k.transpose(${bug ? '1, 2' : '-2, -1'}) / math.sqrt(self.head_dim)
        scores = scores.masked_fill(make_pad_mask(input_ids), float("-inf"))
        y = F.softmax(scores, dim=-1) @ v
`,
        ', x, input_ids',
      ),
  },
  {
    id: 'att006_base_causal_buffer',
    rule: 'ATT006',
    piece: 'base',
    names: ['CausalBase'],
    header: TORCH,
    moved: () => `

class CausalBase(nn.Module):
    def __init__(self, dim=512, heads=8, block_size=256):
        super().__init__()
${PROJ_INIT('dim', 'heads')}        self.register_buffer("bias", torch.tril(torch.ones(block_size, block_size)))
`,
    rest: (bug) => `

class Attention(CausalBase):
    def forward(self, x):
${SPLIT_HEADS}        scores = q @ k.transpose(-2, -1) / math.sqrt(self.head_dim)
${
  bug
    ? `        w = F.softmax(scores, dim=-1)
        w = w * self.bias[:T, :T]
`
    : `        w = F.softmax(scores.masked_fill(self.bias[:T, :T] == 0, float("-inf")), dim=-1)
`
}        y = w @ v
        return self.out(y.transpose(1, 2).reshape(B, T, C))
`,
  },
  {
    id: 'att007_base_fill',
    rule: 'ATT007',
    piece: 'base',
    names: ['AttentionBase'],
    header: TORCH,
    moved: (bug) => `

class AttentionBase(nn.Module):
    def __init__(self, dim=512, heads=8):
        super().__init__()
${PROJ_INIT('dim', 'heads')}        self.mask_value = ${bug ? '0.0' : '-1e9'}
`,
    rest: () => `

class Attention(AttentionBase):
    def forward(self, x, input_ids):
${SPLIT_HEADS}        scores = q @ k.transpose(-2, -1) / math.sqrt(self.head_dim)
        scores = scores.masked_fill(input_ids[:, None, None, :] == 0, self.mask_value)
        y = F.softmax(scores, dim=-1) @ v
        return self.out(y.transpose(1, 2).reshape(B, T, C))
`,
  },
  {
    id: 'att008_base_causal_flag',
    rule: 'ATT008',
    piece: 'base',
    names: ['AttentionBase'],
    header: TORCH,
    moved: (bug) => `

class AttentionBase(nn.Module):
    def __init__(self, dim=512, heads=8):
        super().__init__()
${PROJ_INIT('dim', 'heads')}        self.causal = ${bug ? 'True' : 'False'}
`,
    rest: () => `

class Attention(AttentionBase):
    def forward(self, x, input_ids):
${SPLIT_HEADS}        mask = (input_ids != 0)[:, None, None, :]
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=mask, is_causal=self.causal)
        return self.out(y.transpose(1, 2).reshape(B, T, C))
`,
  },
  {
    id: 'att008_causal_const',
    rule: 'ATT008',
    piece: 'const',
    names: ['IS_CAUSAL'],
    header: TORCH,
    moved: (bug) => `

IS_CAUSAL = ${bug ? 'True' : 'False'}
`,
    rest: () =>
      MODULE(
        `        mask = (input_ids != 0)[:, None, None, :]
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=mask, is_causal=IS_CAUSAL)
`,
        ', x, input_ids',
      ),
  },
  {
    id: 'att002_attend_helper_mask',
    rule: 'ATT002',
    piece: 'helper',
    names: ['attend'],
    header: TORCH,
    moved: () => `

def attend(q, k, v, mask):
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
    scores = scores.masked_fill(mask == 0, float("-inf"))
    return F.softmax(scores, dim=-1) @ v
`,
    rest: (bug) =>
      MODULE(
        `        y = attend(q, k, v, (input_ids ${bug ? '==' : '!='} 0)[:, None, None, :])
`,
        ', x, input_ids',
      ),
  },
  {
    id: 'att007_attend_helper_fill',
    rule: 'ATT007',
    piece: 'helper',
    names: ['attend'],
    header: TORCH,
    moved: (bug) => `

def attend(q, k, v, pad):
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
    scores = scores.masked_fill(pad, ${bug ? '0.0' : '-1e9'})
    return F.softmax(scores, dim=-1) @ v
`,
    rest: () =>
      MODULE(
        `        y = attend(q, k, v, (input_ids == 0)[:, None, None, :])
`,
        ', x, input_ids',
      ),
  },
  {
    id: 'att006_attend_helper_causal',
    rule: 'ATT006',
    piece: 'helper',
    names: ['attend'],
    header: TORCH,
    moved: (bug) => `

def attend(q, k, v, causal):
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
${
  bug
    ? `    w = F.softmax(scores, dim=-1) * causal
`
    : `    w = F.softmax(scores.masked_fill(causal == 0, float("-inf")), dim=-1)
`
}    return w @ v
`,
    rest: () =>
      MODULE(`        y = attend(q, k, v, torch.tril(torch.ones(T, T, device=x.device)))
`),
  },
];

/** The rest's text with each moved name rewritten as `style` reads it, and the import line. */
function importing(ex: Example, rest: string, style: Style, modelPath: string): { text: string; line: string } {
  const rename = (f: (n: string) => string): string => ex.names.reduce((t, n) => t.replace(new RegExp(`(?<![\\w.])${n}\\b`, 'g'), f(n)), rest);
  const names = ex.names.join(', ');
  switch (style) {
    case 'rel':
      return { text: rest, line: `from .utils import ${names}` };
    case 'abs_as':
      return { text: rename((n) => `${n}_alias`), line: `from pkg.utils import ${ex.names.map((n) => `${n} as ${n}_alias`).join(', ')}` };
    case 'mod_alias':
      return { text: rename((n) => `U.${n}`), line: 'import pkg.utils as U' };
    case 'from_dot':
      return { text: rename((n) => `utils.${n}`), line: 'from . import utils' };
    case 'reexport':
      void modelPath;
      return { text: rest, line: `from pkg import ${names}` };
  }
}

function splitFiles(ex: Example, bug: boolean, style: Style): Record<string, string> {
  const modelPath = style === 'reexport' ? 'model.py' : 'pkg/model.py';
  const { text, line } = importing(ex, ex.rest(bug), style, modelPath);
  return {
    'pkg/__init__.py': style === 'reexport' ? `from .utils import ${ex.names.join(', ')}\n` : '',
    'pkg/utils.py': `${ex.header}${ex.moved(bug)}`,
    [modelPath]: `${ex.header}${line}\n${text}`,
  };
}

const single = (ex: Example, bug: boolean): string => `${ex.header}${ex.moved(bug)}${ex.rest(bug)}`;

/** Findings per code ("ATT002x1"), summed over the given files. */
function tally(fs: readonly Finding[]): string {
  const n = new Map<string, number>();
  for (const f of fs) n.set(f.code, (n.get(f.code) ?? 0) + 1);
  return (
    [...n]
      .sort()
      .map(([c, k]) => `${c}x${k}`)
      .join(' ') || 'none'
  );
}

async function lintSplit(files: Record<string, string>): Promise<Finding[]> {
  const l = await createLinter(grammar(), { workspace: memoryWorkspace(files), onInternalError: (e) => assert.fail(String(e)) });
  return Object.keys(files)
    .filter((p) => p.endsWith('.py'))
    .flatMap((p) => l.lintPython(files[p] ?? '', { path: p }));
}

/**
 * Buggy cells the split decides differently from the single file today: cell id → what the split gives, and why.
 * Empty since att006helper30 (session 30): the five `att006_attend_helper_causal` cells (a helper of another file
 * multiplying the weights after softmax by its caller's mask parameter) are decided by the importing files' calls.
 */
const TODAY: ReadonlyMap<string, { readonly found: string; readonly why: string }> = new Map();

describe('cross-file splits give the single file findings (crossfile30)', () => {
  it('every example is decided in the single file: buggy reported by its rule, fixed silent', async () => {
    const l = await linter();
    const wrong: string[] = [];
    for (const ex of EXAMPLES) {
      const bug = tally(l.lintPython(single(ex, true)));
      const ok = tally(l.lintPython(single(ex, false)));
      if (!bug.startsWith(`${ex.rule}x`) || bug.includes(' ') || ok !== 'none') wrong.push(`${ex.id}: buggy ${bug}, fixed ${ok}`);
    }
    assert.deepEqual(wrong, []);
  });

  it('TODAY names only cells that exist', () => {
    const ids = new Set(EXAMPLES.flatMap((ex) => STYLES.map((s) => `${ex.id}/${s}`)));
    for (const id of TODAY.keys()) assert.ok(ids.has(id), `TODAY lists ${id}, no such cell`);
  });

  for (const ex of EXAMPLES) {
    it(`${ex.id} (${ex.rule}, ${ex.piece} moved): buggy splits match the single file, fixed splits stay silent`, async () => {
      const l = await linter();
      const want = tally(l.lintPython(single(ex, true)));
      const problems: string[] = [];
      for (const style of STYLES) {
        const id = `${ex.id}/${style}`;
        const got = tally(await lintSplit(splitFiles(ex, true, style)));
        const fixed = tally(await lintSplit(splitFiles(ex, false, style)));
        if (fixed !== 'none') problems.push(`${id}: fixed split gives ${fixed}`);
        const today = TODAY.get(id);
        if (today) {
          if (got !== today.found) problems.push(`${id}: listed in TODAY (${today.why}) as ${today.found}, now ${got} (update TODAY)`);
        } else if (got !== want) problems.push(`${id}: buggy split gives ${got}, single file ${want}`);
      }
      assert.deepEqual(problems, []);
    });
  }
});

// The correct look-alikes of the classes the split cells taught the importer calls: the callers' values decide, and
// correct callers keep the helper silent.
describe('crossfile30: helpers judged as the importing files call them, correct callers', () => {
  const H = 'import math\n\nimport torch\nimport torch.nn.functional as F\n';
  const lintAll = async (files: Record<string, string>): Promise<string> => tally(await lintSplit(files));

  it('keys transposed over axes written from the front: 3-D keys (B, T, D) from the caller are right (silent), 4-D ones wrong', async () => {
    const utils = `${H}\n\ndef attention_scores(q, k):\n    return q @ k.transpose(1, 2) / math.sqrt(q.size(-1))\n`;
    const model = (shape: string) =>
      `${H}from .utils import attention_scores\n\n\ndef attend(x, v):\n    B, T, C = x.shape\n    q = x.view(${shape})\n    k = x.view(${shape})\n    return F.softmax(attention_scores(q, k), dim=-1) @ v\n`;
    const files = (shape: string) => ({ 'pkg/__init__.py': '', 'pkg/utils.py': utils, 'pkg/model.py': model(shape) });
    assert.equal(await lintAll(files('B, T, C')), 'none');
    assert.equal(await lintAll(files('B, T, 8, C // 8')), 'ATT005x1');
  });

  it("a helper masking the weights after softmax with its caller's mask: correct forms silent in every import style (ATT006)", async () => {
    const helper = (name: string, body: string, callArgs: string): Example => ({
      id: `att006_helper_ok_${name}`,
      rule: 'ATT006',
      piece: 'helper',
      names: ['attend'],
      header: TORCH,
      moved: () => `\n\ndef attend(q, k, v, causal=None):\n    scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))\n${body}    return w @ v\n`,
      rest: () => MODULE(`        y = attend(q, k, v${callArgs})\n`),
    });
    const tril = ', torch.tril(torch.ones(T, T, device=x.device))';
    const cases = [
      // The scores masked with the same mask before the softmax; the product only zeroes fully masked rows (AKT).
      helper('premasked', '    w = F.softmax(scores.masked_fill(causal == 0, float("-inf")), dim=-1) * causal\n', tril),
      // Renormalised after the product: the rows sum to 1 again.
      helper('renorm', '    w = F.softmax(scores, dim=-1) * causal\n    w = w / w.sum(dim=-1, keepdim=True)\n', tril),
      // The caller passes no mask: the product is in an arm no call takes.
      helper('nomask', '    w = F.softmax(scores, dim=-1)\n    if causal is not None:\n        w = w * causal\n', ''),
    ];
    const got: string[] = [];
    for (const ex of cases) for (const style of STYLES) got.push(`${ex.id}/${style}: ${await lintAll(splitFiles(ex, false, style))}`);
    assert.deepEqual(
      got.filter((g) => !g.endsWith(': none')),
      [],
    );
  });

  it('a softmax helper over dim=1: classifier logits (B, C) from the caller are no attention scores (silent)', async () => {
    const utils = `${H}\n\ndef masked_softmax(logits, keep):\n    return logits.masked_fill(~keep, float("-inf")).softmax(dim=1)\n`;
    const model = `${H}from .utils import masked_softmax\n\n\ndef classify(head, x, keep):\n    return masked_softmax(head(x.mean(1)), keep)\n`;
    assert.equal(await lintAll({ 'pkg/__init__.py': '', 'pkg/utils.py': utils, 'pkg/model.py': model }), 'none');
  });

  it('a softmax helper over dim=-1 given scores: silent; over dim=1 given (B, T, S) scores from bmm: wrong', async () => {
    const utils = (dim: string) => `${H}\n\ndef masked_softmax(scores, keep):\n    return scores.masked_fill(~keep, float("-inf")).softmax(dim=${dim})\n`;
    const model = `${H}from .utils import masked_softmax\n\n\ndef attend(q, k, v, keep):\n    scores = torch.bmm(q, k.transpose(1, 2)) / math.sqrt(q.size(-1))\n    return torch.bmm(masked_softmax(scores, keep), v)\n`;
    const files = (dim: string) => ({ 'pkg/__init__.py': '', 'pkg/utils.py': utils(dim), 'pkg/model.py': model });
    assert.equal(await lintAll(files('-1')), 'none');
    assert.equal(await lintAll(files('1')), 'ATT001x1');
  });
});
