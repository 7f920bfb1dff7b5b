"""Which tokenizer made the token ids a call attended over: HF transformers tokenizers, watched while recording.

The recorder cannot see tokenizer calls through the TorchFunctionMode (they are not torch functions), so it wraps
PreTrainedTokenizerBase.__call__ and .encode once transformers' tokenization_utils_base is imported (at once if it
already is). Each call's input_ids are remembered (the last few); when an attention call's token ids (from an
embedding) equal one of them, the call is linked to that tokenizer: its name_or_path, class, vocabulary size and
its tokenizer.json, written once per tokenizer into the trace folder (fast tokenizers only: the Rust backend's
own serialisation). Nothing here may change what the program computes or raise into it.
"""

import functools
import importlib.abc
import sys
import threading

import torch

MODULE = "transformers.tokenization_utils_base"
MAX_RECENT_OUTPUTS = 8
MAX_ID_ELEMENTS = 1 << 20
MAX_TOKENIZER_JSON_CHARS = 64 << 20  # the extension refuses a tokenizer.json over 128 MiB


class TokenizerWatch:
    """Tokenizers seen in this process and the ids they produced (shared by every thread)."""

    def __init__(self, store):
        self.store = store
        self.lock = threading.Lock()
        self.known = {}  # id(tokenizer) -> (tokenizer, its trace entry)
        self.recent = []  # [(entry, ids int64 tensor [B, L])], newest last
        self._undo = []
        self._finder = None

    # --- installing ----------------------------------------------------------------------------------------
    def start(self):
        module = sys.modules.get(MODULE)
        if module is not None:
            self._patch(module)
        else:
            self._finder = _PostImportFinder(MODULE, self._patch)
            sys.meta_path.insert(0, self._finder)

    def stop(self):
        if self._finder is not None and self._finder in sys.meta_path:
            sys.meta_path.remove(self._finder)
        self._finder = None
        while self._undo:
            cls, name, original = self._undo.pop()
            setattr(cls, name, original)

    def _patch(self, module):
        cls = getattr(module, "PreTrainedTokenizerBase", None)
        if cls is None:
            return
        watch = self
        for name in ("__call__", "encode"):
            original = cls.__dict__.get(name)
            if original is None or getattr(original, "_attention_recorder", False):
                continue

            def wrapper(tok, *args, _original=original, **kwargs):
                out = _original(tok, *args, **kwargs)
                try:
                    watch.seen(tok, out)
                except Exception as e:  # never break the user's program
                    watch.store.internal_error("tokenizer", e)
                return out

            wrapper = functools.wraps(original)(wrapper)  # name, doc and signature (inspect follows __wrapped__)
            wrapper._attention_recorder = True
            setattr(cls, name, wrapper)
            self._undo.append((cls, name, original))

    # --- recording -----------------------------------------------------------------------------------------
    def seen(self, tok, out):
        ids = _ids_of(out)
        if ids is None:
            return
        entry = self._entry(tok)
        with self.lock:
            self.recent.append((entry, ids))
            del self.recent[:-MAX_RECENT_OUTPUTS]

    def _entry(self, tok):
        key = id(tok)
        with self.lock:
            known = self.known.get(key)
            if known is not None and known[0] is tok:
                return known[1]
            index = len(self.known)
        entry = {"name": _short(getattr(tok, "name_or_path", None)), "className": type(tok).__name__[:200],
                 "vocabSize": _vocab_size(tok), "file": None}
        backend = getattr(tok, "backend_tokenizer", None)
        if backend is not None and hasattr(backend, "to_str"):
            text = backend.to_str()
            if isinstance(text, str) and len(text) <= MAX_TOKENIZER_JSON_CHARS:
                entry["file"] = self.store.save_text("tokenizer-%d.json" % index, text)
        with self.lock:
            self.known[key] = (tok, entry)
        return entry

    def tokenizer_of(self, ids):
        """The entry of the tokenizer whose latest output equals `ids` ([B, L] int64), or None."""
        with self.lock:
            recent = list(self.recent)
        for entry, out in reversed(recent):
            if list(out.shape) == list(ids.shape) and torch.equal(out, ids):
                return dict(entry)
        return None


def _ids_of(out):
    """input_ids of a tokenizer's answer as an int64 tensor [B, L] (one row for a single text), or None."""
    ids = out
    if hasattr(out, "keys") and "input_ids" in out.keys():
        ids = out["input_ids"]
    if isinstance(ids, torch.Tensor):
        t = ids.detach().to("cpu", torch.int64)
    elif isinstance(ids, (list, tuple)) and ids and all(isinstance(x, int) for x in ids):
        t = torch.tensor([list(ids)], dtype=torch.int64)
    elif isinstance(ids, (list, tuple)) and ids and all(isinstance(r, (list, tuple)) for r in ids):
        if len({len(r) for r in ids}) != 1 or sum(len(r) for r in ids) > MAX_ID_ELEMENTS:
            return None  # ragged: no batch of this shape reaches an embedding
        t = torch.tensor([list(r) for r in ids], dtype=torch.int64)
    else:
        return None
    if t.dim() == 1:
        t = t.unsqueeze(0)
    if t.dim() != 2 or t.numel() > MAX_ID_ELEMENTS:
        return None
    return t.clone()


def _vocab_size(tok):
    try:
        return int(len(tok))
    except Exception:
        return None


def _short(x):
    return None if x is None else str(x)[:1000]


class _PostImportFinder(importlib.abc.MetaPathFinder):
    """Runs `patch(module)` right after the module `name` is first imported."""

    def __init__(self, name, patch):
        self.name = name
        self.patch = patch

    def find_spec(self, fullname, path=None, target=None):
        if fullname != self.name:
            return None
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(fullname, path, target)
            if spec is not None:
                break
        else:
            return None
        if self in sys.meta_path:
            sys.meta_path.remove(self)
        loader = spec.loader
        if loader is None or not hasattr(loader, "exec_module"):
            return spec
        original = loader.exec_module
        patch = self.patch

        def exec_module(module):
            original(module)
            try:
                patch(module)
            except Exception:
                pass

        loader.exec_module = exec_module
        return spec
