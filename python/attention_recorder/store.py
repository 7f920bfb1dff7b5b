"""The recording's state: captured calls, tensor files, limits, and the trace.json writer."""

import json
import os
import threading
import time

import torch

from . import TRACE_FORMAT, TRACE_VERSION
from .npy import npy_descr, tensor_bytes, write_npy

DEFAULT_MAX_CALLS_PER_SITE = 4
DEFAULT_MAX_BYTES = 256 << 20
DEFAULT_MAX_TENSOR_ELEMENTS = 1 << 22  # larger tensors are kept as block averages of their last two axes
SUMMARY_SIDE = 128  # block-averaged tensors keep at most SUMMARY_SIDE x SUMMARY_SIDE blocks per matrix
MAX_INTERNAL_ERRORS = 20


class Store:
    def __init__(self, out_dir, max_calls_per_site=DEFAULT_MAX_CALLS_PER_SITE, max_bytes=DEFAULT_MAX_BYTES,
                 max_tensor_elements=DEFAULT_MAX_TENSOR_ELEMENTS, file_prefix=""):
        self.out_dir = out_dir
        os.makedirs(out_dir, exist_ok=True)
        self.max_calls_per_site = max_calls_per_site
        self.max_bytes = max_bytes
        self.max_tensor_elements = max_tensor_elements
        self.file_prefix = file_prefix
        self.lock = threading.RLock()
        self.calls = []
        self.site_counts = {}
        self.bytes_written = 0
        self.skipped_calls = 0  # beyond max_calls_per_site
        self.omitted_tensors = 0  # beyond max_bytes
        self.summarised_tensors = 0
        self.internal_errors = []
        self.started = time.time()

    # --- calls ---------------------------------------------------------------------------------------------
    def admit(self, site_key):
        """Whether a call at this site is still within the per-site limit (counts it either way)."""
        with self.lock:
            n = self.site_counts.get(site_key, 0)
            self.site_counts[site_key] = n + 1
            if n >= self.max_calls_per_site:
                self.skipped_calls += 1
                return False
            return True

    def new_call(self, record):
        with self.lock:
            record["id"] = len(self.calls)
            self.calls.append(record)
            self._write_progress()
            return record

    def _write_progress(self):
        """OUT/progress holds the number of calls recorded so far (the extension shows it while the program runs)."""
        if self.file_prefix:
            return  # child processes: their calls are counted when merged
        try:
            tmp = os.path.join(self.out_dir, "progress.tmp")
            with open(tmp, "w") as f:
                f.write(str(len(self.calls)))
            os.replace(tmp, os.path.join(self.out_dir, "progress"))
        except OSError:
            pass

    def internal_error(self, where, error):
        with self.lock:
            if len(self.internal_errors) < MAX_INTERNAL_ERRORS:
                self.internal_errors.append("%s: %s: %s" % (where, type(error).__name__, error))

    # --- tensors -------------------------------------------------------------------------------------------
    def save(self, call, name, t, optional=False):
        """Writes tensor `t` for `call` and returns its trace entry: {file, shape, dtype} (+ summary when it was
        block-averaged), or {omitted, shape, dtype} when the byte budget is spent. An `optional` tensor (for the
        debugger only) is written only while the tensors written so far, it included, stay within half the budget."""
        if not isinstance(t, torch.Tensor):
            return None
        shape = [int(s) for s in t.shape]
        dtype = str(t.dtype).replace("torch.", "")
        entry = {"shape": shape, "dtype": dtype}
        if npy_descr(t.dtype) is None:
            entry["omitted"] = "dtype"
            return entry
        t = t.detach()
        if t.numel() > self.max_tensor_elements and t.dim() >= 2 and t.is_floating_point():
            t, entry["summary"] = _block_average(t)
            entry["shape"] = [int(d) for d in t.shape]
            with self.lock:
                self.summarised_tensors += 1
        elif t.numel() > self.max_tensor_elements:
            entry["omitted"] = "size"
            return entry
        size = tensor_bytes(t)
        with self.lock:
            if self.bytes_written + size > (self.max_bytes // 2 if optional else self.max_bytes):
                self.omitted_tensors += 1
                entry["omitted"] = "budget"
                return entry
            self.bytes_written += size
        file_name = "%sc%d-%s.npy" % (self.file_prefix, call["id"], name)
        write_npy(os.path.join(self.out_dir, file_name), t)
        entry["file"] = file_name
        return entry

    def save_text(self, file_name, text):
        """Writes a text file (a tokenizer.json) into the trace folder within the byte budget; its name, or None."""
        data = text.encode("utf-8")
        with self.lock:
            if self.bytes_written + len(data) > self.max_bytes:
                self.omitted_tensors += 1
                return None
            self.bytes_written += len(data)
        name = self.file_prefix + file_name
        with open(os.path.join(self.out_dir, name), "wb") as f:
            f.write(data)
        return name

    # --- trace.json ----------------------------------------------------------------------------------------
    def limits(self):
        return {
            "maxCallsPerSite": self.max_calls_per_site,
            "maxBytes": self.max_bytes,
            "maxTensorElements": self.max_tensor_elements,
            "skippedCalls": self.skipped_calls,
            "omittedTensors": self.omitted_tensors,
            "summarisedTensors": self.summarised_tensors,
            "bytesWritten": self.bytes_written,
        }

    def drop_unconfirmed(self):
        """Forgets hand-written calls whose softmax output never met a matmul with v (a classifier's softmax over
        logits of two activations is not attention), and deletes their tensor files."""
        with self.lock:
            kept = []
            for call in self.calls:
                if call.get("kind") == "manual" and "contracted" not in call and not call.get("failed"):
                    for entry in call.get("tensors", {}).values():
                        if "file" in entry:
                            try:
                                os.remove(os.path.join(self.out_dir, entry["file"]))
                            except OSError:
                                pass
                else:
                    kept.append(call)
            self.calls = kept

    def write_json(self, file_name, program, extra_calls=()):
        self.drop_unconfirmed()
        with self.lock:
            calls = [{k: v for k, v in c.items() if not k.startswith("_")} for c in list(self.calls) + list(extra_calls)]
            for i, call in enumerate(calls):
                call["id"] = i
            doc = {
                "format": TRACE_FORMAT,
                "version": TRACE_VERSION,
                "program": program,
                "limits": self.limits(),
                "recorderErrors": list(self.internal_errors),
                "calls": calls,
            }
        path = os.path.join(self.out_dir, file_name)
        tmp = path + ".tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(doc, f, allow_nan=False, default=_json_default)
        os.replace(tmp, path)
        return path


def _json_default(value):
    if isinstance(value, float):
        return None
    return str(value)


def _block_average(t):
    """Block averages over the last two axes (at most SUMMARY_SIDE blocks each); the tensor's summary entry."""
    rows, cols = int(t.shape[-2]), int(t.shape[-1])
    lead = [int(s) for s in t.shape[:-2]]
    block_rows = -(-rows // SUMMARY_SIDE)
    block_cols = -(-cols // SUMMARY_SIDE)
    out_rows, out_cols = -(-rows // block_rows), -(-cols // block_cols)
    x = t.float().reshape(-1, 1, rows, cols)
    pad_r, pad_c = out_rows * block_rows - rows, out_cols * block_cols - cols
    # Sum of each block / number of real cells in it (the last blocks may be partial).
    ones = torch.ones(1, 1, rows, cols)
    if pad_r or pad_c:
        x = torch.nn.functional.pad(x, (0, pad_c, 0, pad_r))
        ones = torch.nn.functional.pad(ones, (0, pad_c, 0, pad_r))
    sums = torch.nn.functional.avg_pool2d(x, (block_rows, block_cols)) * (block_rows * block_cols)
    counts = torch.nn.functional.avg_pool2d(ones, (block_rows, block_cols)) * (block_rows * block_cols)
    averaged = (sums / counts).reshape(lead + [out_rows, out_cols])
    return averaged, {"blockRows": block_rows, "blockCols": block_cols, "of": lead + [rows, cols]}
