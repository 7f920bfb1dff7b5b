"""Starting and finishing a recording in this process: the mode in every thread that runs torch code, the trace
folder, and merging the traces of child processes."""

import glob
import json
import os
import platform
import sys
import threading

import torch

from .capture import Recorder, RecordingMode
from .store import Store
from .tokenizers import TokenizerWatch

CHILD_ENV = "ATTENTION_RECORDER_CHILD"


class Session:
    def __init__(self, out_dir, workspace_dirs, max_calls_per_site, max_bytes, max_tensor_elements, file_prefix="",
                 test_name=lambda: None):
        self.store = Store(out_dir, max_calls_per_site, max_bytes, max_tensor_elements, file_prefix)
        self.recorder = Recorder(self.store, workspace_dirs, test_name)
        self.recorder.tokenizers = TokenizerWatch(self.store)
        self.out_dir = out_dir
        self._mode = None
        self._original_bootstrap = None

    def start(self):
        """Enters the recording mode in this thread and in every thread started from now on."""
        self.recorder.tokenizers.start()
        self._mode = RecordingMode(self.recorder)
        self._mode.__enter__()
        recorder = self.recorder
        original = getattr(threading.Thread, "_bootstrap_inner", None)
        if original is not None:
            def _bootstrap_inner(thread, _original=original):
                # The mode is entered when the thread's run starts and left when it ends, before the thread counts
                # as finished: a mode left on a thread's stack was released during interpreter shutdown on torch
                # 1.13, which then aborted the process ("terminate called without an active exception").
                run = thread.run

                def run_recorded():
                    mode = RecordingMode(recorder)
                    try:
                        mode.__enter__()
                    except Exception as e:
                        recorder.store.internal_error("thread", e)
                        mode = None
                    try:
                        return run()
                    finally:
                        if mode is not None:
                            try:
                                mode.__exit__(None, None, None)
                            except Exception as e:
                                recorder.store.internal_error("thread", e)

                thread.run = run_recorded
                return _original(thread)
            self._original_bootstrap = original
            threading.Thread._bootstrap_inner = _bootstrap_inner
        else:  # a Python without the private hook: the first trace event of each new thread enters the mode
            def _tracer(frame, event, arg):
                sys.settrace(None)
                RecordingMode(recorder).__enter__()
                return None
            threading.settrace(_tracer)

    def stop(self):
        self.recorder.tokenizers.stop()
        if self._original_bootstrap is not None:
            threading.Thread._bootstrap_inner = self._original_bootstrap
            self._original_bootstrap = None
        if self._mode is not None:
            try:
                self._mode.__exit__(None, None, None)
            except Exception:
                pass
            self._mode = None

    def child_environment(self, workspace_dirs):
        """Environment for child processes: they record into the same folder (see child.py)."""
        s = self.store
        return json.dumps({"out": self.out_dir, "workspace": workspace_dirs, "maxCallsPerSite": s.max_calls_per_site,
                           "maxBytes": max(s.max_bytes // 4, 1 << 20), "maxTensorElements": s.max_tensor_elements})

    def write(self, program):
        """Writes trace.json, with the calls of finished child processes (proc-*.json) appended."""
        extra = []
        for path in sorted(glob.glob(os.path.join(self.out_dir, "proc-*.json"))):
            try:
                with open(path, encoding="utf-8") as f:
                    doc = json.load(f)
                for call in doc.get("calls", []):
                    call["pid"] = doc.get("program", {}).get("pid")
                    extra.append(call)
            except Exception as e:
                self.store.internal_error("merge " + os.path.basename(path), e)
        return self.store.write_json("trace.json", program, extra)


def environment_info():
    return {"python": platform.python_version(), "torch": torch.__version__, "pid": os.getpid(),
            "executable": sys.executable}
