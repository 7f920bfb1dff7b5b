"""The TorchFunctionMode that sees every torch call of the program and captures attention.

Three kinds of call are recorded:
  sdpa    F.scaled_dot_product_attention (q, k, v, attn_mask, is_causal, scale, enable_gqa, output)
  mha     F.multi_head_attention_forward, i.e. nn.MultiheadAttention (inputs, projections, masks, per-head weights)
  manual  hand-written attention: softmax over scores made by matmul/bmm/einsum of two activations, with the
          ops between (scale, mask fills/additions, transposes, each with its source line) and the matmul with v

Inside __torch_function__ the mode is off, so the torch calls made here (and inside func) are not seen again.
Nothing here may change what the program computes or raise into it: bookkeeping errors are recorded instead.
"""

import inspect
import math
import threading
import weakref

import torch
from torch.overrides import TorchFunctionMode

from . import roles as R
from .frames import FrameLocator

MASK_THRESHOLD = -1e4  # a fill or added value at or below this masks the position (HF uses finfo.min)
MAX_CHAIN = 32
MAX_RECENT_EMBEDDINGS = 8
MAX_ID_ELEMENTS = 1 << 20

MATMUL = {"matmul", "__matmul__", "__rmatmul__", "bmm", "baddbmm"}
SOFTMAX = {"softmax", "_softmax"}
SCALE_OPS = {"mul", "__mul__", "__rmul__", "mul_", "__imul__", "div", "__truediv__", "__div__", "true_divide",
             "div_", "__itruediv__", "__idiv__", "__rtruediv__"}
ADD_OPS = {"add", "__add__", "__radd__", "add_", "__iadd__", "sub", "__sub__", "sub_", "__isub__"}
FILL_OPS = {"masked_fill", "masked_fill_"}
LAYOUT_OPS = {"transpose", "transpose_", "permute", "view", "reshape", "contiguous", "float", "half", "double",
              "bfloat16", "to", "type_as", "type", "clone", "detach", "unsqueeze", "squeeze"}
DROPOUT = {"dropout", "dropout_", "_dropout"}


class Node:
    """What is known about a tracked tensor: scores before the softmax ("scores") or weights after it ("weights")."""

    __slots__ = ("stage", "a", "b", "roles", "ops", "masked", "call", "other", "steps")

    def __init__(self, stage, a, b, roles, ops, masked, call=None):
        self.stage, self.a, self.b, self.roles, self.ops, self.masked, self.call = stage, a, b, roles, ops, masked, call
        self.other = False  # an op that is neither scale, mask nor layout touched the scores
        # The user's own tensors at the debugger's steps before the softmax: "raw" (the score matmul's output) and
        # "scaled" (the output of the chain's last scale op), each (tensor, its axis roles then).
        self.steps = {}

    def derive(self, roles, op, masked=None):
        n = Node(self.stage, self.a, self.b, roles, self.ops + [op] if op else self.ops,
                 self.masked if masked is None else masked, self.call)
        n.other = self.other
        n.steps = dict(self.steps)
        return n

    def keep_steps_from(self, t):
        """Before an in-place op on `t`: the step tensors that share its memory are copied (they would change)."""
        for label, (s, roles) in list(self.steps.items()):
            if _shares_memory(s, t):
                self.steps[label] = (s.detach().clone(), roles)


class Recorder:
    def __init__(self, store, workspace_dirs, test_name=lambda: None):
        self.store = store
        self.frames = FrameLocator(workspace_dirs)
        self.tracked = {}  # id(tensor) -> Node
        self.prescaled = {}  # id(tensor) -> the scalar factor it was multiplied by (through layout ops)
        self.local = threading.local()
        self.test_name = test_name
        self.lock = threading.RLock()
        self.tokenizers = None  # a TokenizerWatch while recording (tokenizers.py)
        self.table_tokenizer = {}  # id(embedding weight) -> (weakref to it, the tokenizer entry its ids came from)

    # --- tensor tracking -------------------------------------------------------------------------------------
    def track(self, t, node):
        key = id(t)
        with self.lock:
            fresh = key not in self.tracked
            self.tracked[key] = node
        if fresh:
            try:
                weakref.finalize(t, self._forget, key)
            except TypeError:
                pass

    def _forget(self, key):
        with self.lock:
            self.tracked.pop(key, None)

    def mark_prescaled(self, t, factor):
        key = id(t)
        fresh = key not in self.prescaled
        self.prescaled[key] = factor
        if fresh:
            try:
                weakref.finalize(t, self.prescaled.pop, key, None)
            except TypeError:
                pass

    def node_of(self, t):
        return self.tracked.get(id(t)) if isinstance(t, torch.Tensor) else None

    def recent_embeddings(self):
        lst = getattr(self.local, "embeddings", None)
        if lst is None:
            lst = self.local.embeddings = []
        return lst

    # --- the call record --------------------------------------------------------------------------------------
    def begin_call(self, kind, depth=3):
        site = self.frames.site(depth)
        user, lib = site["user"], site["library"]
        key = (kind, user and (user["path"], user["line"]), lib and (lib["path"], lib["line"]), site["module"])
        if not self.store.admit(key):
            return None
        record = {
            "kind": kind,
            "thread": threading.current_thread().name,
            "site": {"user": user, "library": lib},
            "module": site["module"],
            "moduleClass": site["moduleClass"],
            "test": self.test_name(),
            "tensors": {},
        }
        return self.store.new_call(record)

    def save(self, call, name, t):
        entry = self.store.save(call, name, t)
        if entry is not None:
            call["tensors"][name] = entry

    def attach_tokens(self, call, batch, length, name="token_ids"):
        """Token ids of the keys (or, with name="query_token_ids", of the queries), from the most recent embedding
        call whose ids are [batch, length]: one with a padding_idx when there is one; nothing when two candidates
        disagree. The tokenizer that produced exactly those ids is named when one was seen."""
        candidates, modules = [], set()
        for e in reversed(self.recent_embeddings()):  # newest first; one per module (a module's older calls fed
            if list(e["ids"].shape) == [batch, length] and e["module"] not in modules:  # earlier passes)
                candidates.append(e)
                modules.add(e["module"])
        if not candidates:
            cached = self._cached_ids(batch, length) if name == "token_ids" else None
            if cached is None:
                return
            candidates = [cached]
        with_pad = [e for e in candidates if e["paddingIdx"] is not None]
        chosen = with_pad[0] if with_pad else max(candidates, key=lambda e: e["numEmbeddings"])
        if with_pad and any(e["paddingIdx"] != chosen["paddingIdx"] or not torch.equal(e["ids"], chosen["ids"])
                            for e in with_pad[1:] if e["numEmbeddings"] == chosen["numEmbeddings"]):
            return
        entry = self.store.save(call, name, chosen["ids"])
        if entry is None:
            return
        call["tensors"][name] = entry
        tokenizer = chosen.get("tokenizer")
        info = {"paddingIdx": chosen["paddingIdx"], "numEmbeddings": chosen["numEmbeddings"], "module": chosen["module"]}
        if chosen.get("fromCache"):
            info["fromCache"] = True
        if tokenizer is not None:
            info["tokenizer"] = tokenizer
        call["tokens" if name == "token_ids" else "queryTokens"] = info


    def tokenizer_for_embedding(self, ids, weight):
        """The tokenizer whose output these embedding ids are; once an embedding table was indexed with a
        tokenizer's output, its later ids (decoding steps) are that tokenizer's vocabulary too."""
        if self.tokenizers is None:
            return None
        found = self.tokenizers.tokenizer_of(ids)
        key = id(weight)
        with self.lock:
            if found is not None:
                self.table_tokenizer[key] = (weakref.ref(weight), found)
                return found
            known = self.table_tokenizer.get(key)
        return known[1] if known is not None and known[0]() is weight else None

    def _cached_ids(self, batch, length):
        """Keys of a KV-cache step: the ids of the latest embedding calls of one module, concatenated along the
        sequence, when their lengths add up to exactly `length` (a prefill followed by decoding steps)."""
        recent = self.recent_embeddings()
        if not recent or int(recent[-1]["ids"].shape[0]) != batch:
            return None
        last = recent[-1]
        parts, total = [], 0
        for e in reversed(recent):
            if e["module"] != last["module"] or e["paddingIdx"] != last["paddingIdx"] or int(e["ids"].shape[0]) != batch:
                break
            parts.insert(0, e["ids"])
            total += int(e["ids"].shape[1])
            if total >= length:
                break
        if total != length or len(parts) < 2:
            return None
        return dict(last, ids=torch.cat(parts, dim=1), fromCache=True)


def _finite(x):
    if isinstance(x, (int, float)) and not isinstance(x, bool):
        return float(x) if math.isfinite(x) else ("inf" if x > 0 else "-inf" if x < 0 else "nan")
    return None


def _shape(t):
    return [int(s) for s in t.shape] if isinstance(t, torch.Tensor) else None


def _dtype(t):
    return str(t.dtype).replace("torch.", "") if isinstance(t, torch.Tensor) else None


_SDPA_PARAMS = ("query", "key", "value", "attn_mask", "dropout_p", "is_causal", "scale", "enable_gqa")


def _bind(names, args, kwargs, defaults):
    bound = dict(defaults)
    for n, v in zip(names, args):
        bound[n] = v
    bound.update(kwargs)
    return bound


class RecordingMode(TorchFunctionMode):
    def __init__(self, recorder):
        super().__init__()
        self.rec = recorder

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        name = getattr(func, "__name__", None)
        rec = self.rec
        try:
            if name == "scaled_dot_product_attention":
                return self._sdpa(func, args, kwargs)
            if name == "multi_head_attention_forward":
                return self._mha(func, args, kwargs)
        except _PassThrough:
            pass
        if name == "embedding":
            out = func(*args, **kwargs)
            self._guard(self._embedding, args, kwargs)
            return out
        if not rec.tracked:
            out = func(*args, **kwargs)
            if name in MATMUL or name == "einsum":
                self._guard(self._maybe_scores, name, args, kwargs, out)
            elif name in SCALE_OPS or (name in LAYOUT_OPS and rec.prescaled):
                self._guard(self._prescale, name, args, kwargs, out)
            return out
        nodes = [(i, rec.tracked.get(id(a))) for i, a in enumerate(args) if isinstance(a, torch.Tensor)]
        nodes = [(i, n) for i, n in nodes if n is not None]
        if name == "einsum" and len(args) >= 2:
            operands = args[1:] if not isinstance(args[1], (list, tuple)) else list(args[1])
            nodes = [(i + 1, rec.tracked.get(id(a))) for i, a in enumerate(operands) if isinstance(a, torch.Tensor)]
            nodes = [(i, n) for i, n in nodes if n is not None]
        if nodes and _in_place(name):
            for i, node in nodes:
                if node.stage == "scores" and node.steps:
                    self._guard(node.keep_steps_from, args[i])
        try:
            out = func(*args, **kwargs)
        except Exception as e:
            if nodes and name in FILL_OPS:
                self._guard(self._failed_fill, name, args, kwargs, nodes, e)
            raise
        if nodes:
            self._guard(self._propagate, name, args, kwargs, out, nodes)
        elif name in MATMUL or name == "einsum":
            self._guard(self._maybe_scores, name, args, kwargs, out)
        elif name in SCALE_OPS or (name in LAYOUT_OPS and rec.prescaled):
            self._guard(self._prescale, name, args, kwargs, out)
        return out

    def _prescale(self, name, args, kwargs, out):
        """Remembers tensors multiplied by a number (q * scale), through later layout ops, so that a scale applied
        to q or k before the score matmul is part of the measured scale."""
        if not isinstance(out, torch.Tensor) or not args or not isinstance(args[0], torch.Tensor):
            return
        src = args[0]
        before = self.rec.prescaled.get(id(src))
        if name in LAYOUT_OPS:
            if before is not None and out is not src:
                self.rec.mark_prescaled(out, before)
            return
        other = args[1] if len(args) > 1 else kwargs.get("other")
        if isinstance(other, torch.Tensor) and other.numel() == 1 and other.dim() == 0:
            other = float(other.item())
        if not isinstance(other, (int, float)) or isinstance(other, bool) or not out.is_floating_point() or out.dim() < 2:
            return
        other = float(other)
        if other == 0 or not math.isfinite(other):
            return
        factor = other if name in ("mul", "__mul__", "__rmul__", "mul_", "__imul__") else \
            1.0 / other if name != "__rtruediv__" else None
        if factor is None:
            return
        self.rec.mark_prescaled(out, (before or 1.0) * factor)

    def _guard(self, fn, *a):
        try:
            fn(*a)
        except Exception as e:  # never break the user's program
            self.rec.store.internal_error(fn.__name__, e)

    # --- SDPA -------------------------------------------------------------------------------------------------
    def _sdpa(self, func, args, kwargs):
        out = func(*args, **kwargs)
        try:
            b = _bind(_SDPA_PARAMS, args, kwargs, {"attn_mask": None, "dropout_p": 0.0, "is_causal": False,
                                                  "scale": None, "enable_gqa": False})
            call = self.rec.begin_call("sdpa")
            if call is not None:
                q, k, v, mask = b["query"], b["key"], b["value"], b["attn_mask"]
                call.update({
                    "dtype": _dtype(q),
                    "shapes": {"q": _shape(q), "k": _shape(k), "v": _shape(v), "attn_mask": _shape(mask), "out": _shape(out)},
                    "params": {"isCausal": bool(b["is_causal"]), "scale": _finite(b["scale"]),
                               "enableGqa": bool(b["enable_gqa"]), "dropoutP": _finite(b["dropout_p"]) or 0.0},
                })
                for n, t in (("q", q), ("k", k), ("v", v), ("attn_mask", mask), ("out", out)):
                    self.rec.save(call, n, t)
                if isinstance(k, torch.Tensor) and k.dim() >= 2:
                    self.rec.attach_tokens(call, int(k.shape[0]), int(k.shape[-2]))
                    if isinstance(q, torch.Tensor) and q.dim() >= 2 and q.shape[-2] != k.shape[-2]:
                        self.rec.attach_tokens(call, int(q.shape[0]), int(q.shape[-2]), "query_token_ids")
        except Exception as e:
            self.rec.store.internal_error("sdpa", e)
        return out

    # --- nn.MultiheadAttention --------------------------------------------------------------------------------
    def _mha(self, func, args, kwargs):
        try:
            sig = inspect.signature(func)
            bound = sig.bind(*args, **kwargs)
            bound.apply_defaults()
        except Exception:
            raise _PassThrough()
        a = dict(bound.arguments)
        want_weights, average = bool(a.get("need_weights", True)), bool(a.get("average_attn_weights", True))
        if "average_attn_weights" not in a:  # torch without per-head weights: record what it gives
            raise _PassThrough()
        a["need_weights"], a["average_attn_weights"] = True, False
        out, weights = func(**a)  # per-head weights; the output differs from the fast path by ~5e-8 at most
        query = a["query"]
        batched = query.dim() == 3
        try:
            call = self.rec.begin_call("mha")
            if call is not None:
                call.update({
                    "dtype": _dtype(query),
                    "shapes": {"query": _shape(query), "key": _shape(a["key"]), "value": _shape(a["value"]),
                               "key_padding_mask": _shape(a.get("key_padding_mask")), "attn_mask": _shape(a.get("attn_mask")),
                               "out": _shape(out), "weights": _shape(weights)},
                    "params": {"numHeads": int(a["num_heads"]), "needWeights": want_weights, "averageAttnWeights": average,
                               "isCausal": bool(a.get("is_causal", False)), "dropoutP": _finite(a.get("dropout_p")) or 0.0,
                               "training": bool(a.get("training", False)), "addZeroAttn": bool(a.get("add_zero_attn", False)),
                               "hasBiasKv": a.get("bias_k") is not None, "separateProjWeights": bool(a.get("use_separate_proj_weight", False)),
                               "batched": batched, "layout": "seq-first"},
                })
                for n in ("query", "key", "value", "in_proj_weight", "in_proj_bias", "out_proj_weight", "out_proj_bias",
                          "q_proj_weight", "k_proj_weight", "v_proj_weight", "key_padding_mask", "attn_mask"):
                    self.rec.save(call, n, a.get(n))
                self.rec.save(call, "weights", weights)
                self.rec.save(call, "out", out)
                key = a["key"]
                if isinstance(key, torch.Tensor):
                    n = int(key.shape[1]) if batched else 1
                    self.rec.attach_tokens(call, n, int(key.shape[0]))
                    if isinstance(query, torch.Tensor) and query.shape[0] != key.shape[0]:
                        self.rec.attach_tokens(call, n, int(query.shape[0]), "query_token_ids")
        except Exception as e:
            self.rec.store.internal_error("mha", e)
        if not want_weights:
            return out, None
        if average:
            weights = weights.mean(dim=1) if batched else weights.mean(dim=0)
        return out, weights

    # --- token ids -----------------------------------------------------------------------------------------------
    def _embedding(self, args, kwargs):
        b = _bind(("input", "weight", "padding_idx"), args, kwargs, {"padding_idx": None})
        ids, weight, pad = b["input"], b["weight"], b["padding_idx"]
        if not isinstance(ids, torch.Tensor) or ids.dim() != 2 or ids.is_floating_point() or ids.numel() > MAX_ID_ELEMENTS:
            return
        n = int(weight.shape[0])
        if pad is not None:
            pad = int(pad) + n if int(pad) < 0 else int(pad)
        site = self.rec.frames.site(4)
        lst = self.rec.recent_embeddings()
        ids = ids.detach().to("cpu", torch.int64).clone()
        lst.append({"ids": ids, "paddingIdx": pad, "numEmbeddings": n, "module": site["module"],
                    "tokenizer": self.rec.tokenizer_for_embedding(ids, weight)})
        del lst[:-MAX_RECENT_EMBEDDINGS]

    # --- hand-written attention -------------------------------------------------------------------------------
    def _maybe_scores(self, name, args, kwargs, out):
        """A product of two activations (not a weight) with a matrix result may be attention scores: track it."""
        if not isinstance(out, torch.Tensor) or not out.is_floating_point() or out.dim() < 2:
            return
        if name == "einsum":
            eq = args[0]
            operands = list(args[1]) if len(args) == 2 and isinstance(args[1], (list, tuple)) else list(args[1:])
            if not isinstance(eq, str) or len(operands) != 2:
                return
            a, b = operands
            operands_seen = (a, b)
            layout = R.einsum_score_layout(eq, a.dim(), b.dim())
            if layout is None:
                return
            perm_a, perm_b, roles = layout
            a, b = a.permute(perm_a), b.permute(perm_b)
        else:
            a, b = (args[1], args[2]) if name == "baddbmm" else (args[0], args[1])
            if name == "__rmatmul__":
                a, b = b, a
            if not isinstance(a, torch.Tensor) or not isinstance(b, torch.Tensor):
                return
            operands_seen = (a, b)
            roles = R.matmul_roles(a.shape, b.shape)
            if roles is None:
                return
        if _is_weight(a) or _is_weight(b):
            return
        if len(roles) != out.dim():
            return
        path, line, col = self.rec.frames.line_of_caller(4)
        op = {"op": name, "path": path, "line": line, "column": col, "kind": "scores"}
        pre = self.rec.prescaled.get(id(operands_seen[0]), 1.0) * self.rec.prescaled.get(id(operands_seen[1]), 1.0)
        if pre != 1.0:
            op["operandScale"] = pre
        if name == "baddbmm":
            op["alpha"] = _finite(kwargs.get("alpha", 1))
            op["beta"] = _finite(kwargs.get("beta", 1))
        node = Node("scores", a, b, roles, [op], None)
        node.steps["raw"] = (out, list(roles))
        self.rec.track(out, node)

    def _propagate(self, name, args, kwargs, out, nodes):
        rec = self.rec
        i, node = nodes[0]
        src = args[i] if name != "einsum" else None
        if node.stage == "scores":
            if name in SOFTMAX:
                return self._softmax(args, kwargs, out, node)
            if not isinstance(out, torch.Tensor) or len(node.ops) >= MAX_CHAIN:
                return
            new = self._score_step(name, args, kwargs, out, node, i, src)
            if new is not None:
                rec.track(out, new)
            return
        # weights after the softmax
        if name in MATMUL or name == "einsum":
            return self._weights_times_v(name, args, kwargs, out, node, i)
        if not isinstance(out, torch.Tensor) or len(node.ops) >= MAX_CHAIN:
            return
        new = self._weight_step(name, args, kwargs, out, node, i, src)
        if new is not None:
            rec.track(out, new)

    def _op(self, name, **extra):
        path, line, col = self.rec.frames.line_of_caller(5)
        op = {"op": name, "path": path, "line": line, "column": col}
        op.update(extra)
        return op

    def _score_step(self, name, args, kwargs, out, node, i, src):
        roles = node.roles
        if name in LAYOUT_OPS:
            return self._layout(name, args, kwargs, out, node, src)
        if name in SCALE_OPS or name in ADD_OPS or name in FILL_OPS or name == "where":
            if list(out.shape)[-len(roles):] != list(src.shape)[-len(roles):] if src is not None else True:
                return None
            new_roles = R.broadcast_roles(roles, out.dim())
            masked = self._mask_of(name, args, kwargs, out, node, i)
            kind = "scale" if name in SCALE_OPS else "fill" if name in FILL_OPS or name == "where" else "add"
            extra = {"kind": kind}
            other = _other_operand(args, kwargs, i)
            if isinstance(other, (int, float)):
                extra["value"] = _finite(other)
            if name in FILL_OPS:
                extra["value"] = _finite(_fill_value(args, kwargs))
            if kind in ("scale",) and isinstance(other, torch.Tensor) and other.numel() > 1:
                kind = extra["kind"] = "other"
            n = node.derive(new_roles, self._op(name, **extra), masked)
            if kind == "scale":
                n.steps["scaled"] = (out, list(new_roles))
            if kind == "other":
                n.other = True
            if kind == "add" and isinstance(other, torch.Tensor) and bool((other > MASK_THRESHOLD).any()) \
                    and bool(other[other > MASK_THRESHOLD].ne(0).any()):
                n.other = True  # an added bias besides the mask (e.g. a position bias)
            return n
        if out.shape == src.shape:
            n = node.derive(roles, self._op(name, kind="other"))
            n.other = True
            return n
        return None

    def _layout(self, name, args, kwargs, out, node, src):
        roles = node.roles
        if name in ("transpose", "transpose_"):
            d0 = args[1] if len(args) > 1 else kwargs.get("dim0")
            d1 = args[2] if len(args) > 2 else kwargs.get("dim1")
            new = R.transpose_roles(roles, int(d0), int(d1))
        elif name == "permute":
            dims = args[1:] if len(args) > 2 or not isinstance(args[1] if len(args) > 1 else None, (list, tuple)) else args[1]
            dims = kwargs.get("dims", dims)
            new = R.permute_roles(roles, [int(d) for d in dims])
        elif name in ("view", "reshape"):
            if out.dim() == len(roles) and list(out.shape) == list(src.shape):
                new = list(roles)
            else:
                new = R.reshape_roles(roles, list(src.shape), list(out.shape))
        elif name in ("unsqueeze", "squeeze"):
            if out.dim() == len(roles):
                new = list(roles)
            elif list(out.shape)[-2:] == list(src.shape)[-2:] and all(r == R.BATCH for r in roles[:-2]):
                new = [R.BATCH] * (out.dim() - 2) + list(roles[-2:])
            else:
                new = None
        else:
            new = list(roles) if out.dim() == len(roles) else None
        if new is None:
            return None
        masked = node.masked
        if masked is not None:
            masked = _apply_layout(name, args, kwargs, masked, src, out)
        return node.derive(new, None, masked) if name not in ("transpose", "permute", "transpose_") \
            else node.derive(new, self._op(name, kind="layout"), masked)

    def _mask_of(self, name, args, kwargs, out, node, i):
        """The positions this op masks (bool, out's shape), OR-ed with those masked before; None if none."""
        prev = node.masked
        new = None
        if name in FILL_OPS:
            mask = args[1] if len(args) > 1 else kwargs.get("mask")
            value = _fill_value(args, kwargs)
            if isinstance(mask, torch.Tensor) and _is_masking(value):
                new = torch.broadcast_to(mask.to(torch.bool), out.shape)
        elif name == "where":
            cond, x, y = (list(args) + [None, None, None])[:3]
            other = y if i == 1 else x
            if isinstance(cond, torch.Tensor) and i in (1, 2):
                fill_positions = ~cond.to(torch.bool) if i == 1 else cond.to(torch.bool)
                if _is_masking_tensor(other):
                    if isinstance(other, torch.Tensor):
                        fill_positions = fill_positions & (other <= MASK_THRESHOLD)
                    new = torch.broadcast_to(fill_positions, out.shape)
        elif name in ADD_OPS:
            other = _other_operand(args, kwargs, i)
            if isinstance(other, torch.Tensor) and other.is_floating_point() and not name.startswith(("sub", "__sub", "__isub")):
                m = other <= MASK_THRESHOLD
                if bool(m.any()):
                    new = torch.broadcast_to(m, out.shape)
        if new is None:
            return None if prev is None else torch.broadcast_to(prev, out.shape)
        return new if prev is None else (torch.broadcast_to(prev, out.shape) | new)

    def _failed_fill(self, name, args, kwargs, nodes, error):
        node = nodes[0][1]
        if node.stage != "scores":
            return
        value = _fill_value(args, kwargs)
        call = self.rec.begin_call("manual", depth=5)
        if call is None:
            return
        src = args[0]
        call.update({"dtype": _dtype(src), "shapes": {"scores": _shape(src)}, "params": {},
                     "ops": node.ops + [self._op(name, kind="fill", value=_finite(value), error=str(error)[:300])],
                     "failed": True})

    def _softmax(self, args, kwargs, out, node):
        x = args[0]
        dim = args[1] if len(args) > 1 else kwargs.get("dim")
        if dim is None:
            dim = 0 if x.dim() in (0, 1, 3) else 1  # torch's legacy implicit dim
        dim = int(dim) % x.dim()
        roles = node.roles
        if roles[dim] == R.BATCH:
            return  # a softmax over a batch axis is not attention
        site_call = self.rec.begin_call("manual", depth=5)
        op = self._op("softmax", kind="softmax", dim=int(dim), role=roles[dim])
        if site_call is None:
            self.rec.track(out, Node("weights", None, None, roles, [op], node.masked, None))
            return
        call = site_call
        call.update({
            "dtype": _dtype(x),
            "ops": node.ops + [op],
            "softmax": {"dim": int(dim), "role": roles[dim]},
            "params": {"otherOps": bool(node.other)},
        })
        self.rec.track(out, Node("weights", None, None, roles, [], node.masked, call))
        # Saved now (values may change later): the operands, the softmax input and output in their own layout.
        self._save_manual_inputs(call, node, x, out, roles)

    def _save_manual_inputs(self, call, node, x, probs, roles):
        rec = self.rec
        row, col = roles.index(R.ROW), roles.index(R.COL)
        # Canonical layout [batch..., rows, cols] for the scores; a: [batch..., rows, d], b^T: [batch..., cols, d]
        perm = [d for d, r in enumerate(roles) if r == R.BATCH] + [row, col]
        call["layout"] = {"roles": list(roles), "perm": perm}
        scores = x.permute(perm)
        p = probs.permute(perm)
        a, b = node.a, node.b
        bt = b.transpose(-2, -1)
        batch_shape = list(scores.shape[:-2])
        try:
            a_full = a.expand(batch_shape + list(a.shape[-2:])) if list(a.shape[:-2]) != batch_shape else a
            b_full = bt.expand(batch_shape + list(bt.shape[-2:])) if list(bt.shape[:-2]) != batch_shape else bt
        except RuntimeError:
            a_full, b_full = a, bt
        call["shapes"] = {"rowsOperand": _shape(a_full), "colsOperand": _shape(b_full), "scores": _shape(scores)}
        rec.save(call, "rows_operand", a_full)
        rec.save(call, "cols_operand", b_full)
        rec.save(call, "scores", scores)
        rec.save(call, "probs", p)
        if node.masked is not None:
            rec.save(call, "masked", node.masked.permute(perm))
        self._save_step_tensors(call, node, x)
        if len(batch_shape) >= 1:
            rec.attach_tokens(call, int(batch_shape[0]), int(scores.shape[-1]))
            if scores.shape[-2] != scores.shape[-1]:
                rec.attach_tokens(call, int(batch_shape[0]), int(scores.shape[-2]), "query_token_ids")

    def _save_step_tensors(self, call, node, x):
        """The user's own scores at the debugger's first two steps, in the canonical layout [batch..., rows, cols]:
        call["stepTensors"] names the tensor for "raw" (q·kᵀ as the matmul gave it) and "scaled" (after the chain's
        last scale op; the raw scores when the chain has none). The softmax input is "scores" already. Saved after
        the call's other tensors and only within half the byte budget (they are for the debugger, not the checks)."""
        rec = self.rec
        names = {}
        for label in ("raw", "scaled"):
            step = node.steps.get(label)
            if step is None:
                names[label] = names.get("raw") if label == "scaled" else None
                continue
            t, roles = step
            if t is x:
                names[label] = "scores"
                continue
            if R.ROW not in roles or R.COL not in roles:
                names[label] = None
                continue
            perm = [d for d, r in enumerate(roles) if r == R.BATCH] + [roles.index(R.ROW), roles.index(R.COL)]
            tensor_name = "step_" + label
            entry = rec.store.save(call, tensor_name, t.permute(perm), optional=True)
            if entry is not None:
                call["tensors"][tensor_name] = entry
            names[label] = tensor_name if entry is not None and "file" in entry else None
        call["stepTensors"] = names

    def _weight_step(self, name, args, kwargs, out, node, i, src):
        if name in DROPOUT:
            training = args[2] if len(args) > 2 else kwargs.get("training", True)
            p = args[1] if len(args) > 1 else kwargs.get("p", 0.5)
            n = node.derive(node.roles, self._op(name, kind="dropout", p=_finite(p), training=bool(training)))
            if node.call is not None:
                node.call.setdefault("afterSoftmax", []).append(n.ops[-1])
            return n
        if name in LAYOUT_OPS:
            new = self._layout(name, args, kwargs, out, node, src)
            return new
        if name in FILL_OPS or name == "where" or name in SCALE_OPS or name in ADD_OPS:
            if out.dim() < len(node.roles):
                return None
            new_roles = R.broadcast_roles(node.roles, out.dim())
            n = node.derive(new_roles, self._op(name, kind="after-softmax"))
            if node.call is not None:
                node.call.setdefault("afterSoftmax", []).append(n.ops[-1])
                if R.ROW in new_roles and R.COL in new_roles:
                    perm = [d for d, r in enumerate(new_roles) if r == R.BATCH] + [new_roles.index(R.ROW), new_roles.index(R.COL)]
                    node.call["_changed"] = (out, perm)
            return n
        if isinstance(out, torch.Tensor) and out.shape == src.shape:
            return node.derive(node.roles, self._op(name, kind="other"))
        return None

    def _weights_times_v(self, name, args, kwargs, out, node, i):
        call = node.call
        if call is None or "v" in call.get("tensors", {}) or not isinstance(out, torch.Tensor):
            return
        roles = node.roles
        w = args[i] if name != "einsum" else None
        if name == "einsum":
            eq = args[0]
            operands = list(args[1]) if len(args) == 2 and isinstance(args[1], (list, tuple)) else list(args[1:])
            if len(operands) != 2:
                return
            wi = i - 1
            w, v = operands[wi], operands[1 - wi]
            axis = R.einsum_contracted_axis(eq, operands[0].dim(), operands[1].dim(), wi)
            if axis is None:
                return
        else:
            if name == "baddbmm":
                return
            first = (i == 0) if name != "__rmatmul__" else (i == 1)
            v = args[1 - i]
            if not isinstance(v, torch.Tensor) or w.dim() < 2 or v.dim() < 2:
                return
            axis = w.dim() - 1 if first else w.dim() - 2
            if not first:
                return  # v @ weights: a layout we do not reorient
        role = roles[axis]
        if role == R.BATCH:
            return
        call["contracted"] = {"role": role}
        call["ops"].append(self._op(name, kind="values"))
        rec = self.rec
        rec.save(call, "v", v)
        rec.save(call, "out", out)
        call["shapes"]["v"], call["shapes"]["out"] = _shape(v), _shape(out)
        if name == "einsum":
            call["valuesEinsum"] = args[0]
        changed = call.pop("_changed", None)
        if changed is not None:
            t, perm = changed
            rec.save(call, "weights_used", t.permute(perm))


def _in_place(name):
    return name in ("__iadd__", "__isub__", "__imul__", "__itruediv__", "__idiv__", "__setitem__") or \
        (name.endswith("_") and not name.startswith("_"))


def _shares_memory(a, b):
    try:
        return a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr()
    except AttributeError:  # torch 1.13
        return a.storage().data_ptr() == b.storage().data_ptr()


def _is_weight(t):
    """A parameter or a view of one (W.T): products with weights are layers, not attention scores."""
    while isinstance(t, torch.Tensor):
        if isinstance(t, torch.nn.Parameter) or (t.requires_grad and t.is_leaf):
            return True
        t = t._base
    return False


class _PassThrough(Exception):
    pass


def _other_operand(args, kwargs, i):
    rest = [a for j, a in enumerate(args) if j != i]
    if rest:
        return rest[0]
    return kwargs.get("other")


def _fill_value(args, kwargs):
    v = args[2] if len(args) > 2 else kwargs.get("value")
    if isinstance(v, torch.Tensor) and v.numel() == 1:
        return float(v.item())
    return v


def _is_masking(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool) and value <= MASK_THRESHOLD


def _is_masking_tensor(other):
    if isinstance(other, (int, float)):
        return _is_masking(other)
    if isinstance(other, torch.Tensor) and other.is_floating_point():
        return bool((other <= MASK_THRESHOLD).any())
    return False


def _apply_layout(name, args, kwargs, masked, src, out):
    """Moves the masked-positions tensor through the same layout op as the scores."""
    m = torch.broadcast_to(masked, src.shape)
    if name in ("transpose", "transpose_"):
        d0 = args[1] if len(args) > 1 else kwargs.get("dim0")
        d1 = args[2] if len(args) > 2 else kwargs.get("dim1")
        return m.transpose(int(d0), int(d1))
    if name == "permute":
        dims = args[1:] if len(args) > 2 or not isinstance(args[1], (list, tuple)) else args[1]
        return m.permute(*[int(d) for d in dims])
    if list(out.shape) != list(src.shape):
        return m.reshape(out.shape)
    return m
