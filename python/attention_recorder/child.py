"""Recording in child processes (subprocess.run([sys.executable, ...]) from the recorded program).

The recorder's sitecustomize.py calls install() when ATTENTION_RECORDER_CHILD is set. Nothing happens until the
child imports torch; then the mode is entered and, at exit, the child's calls go to proc-<pid>.json in the same
trace folder, which the parent merges into trace.json.
"""

import atexit
import importlib.abc
import importlib.util
import json
import os
import sys


class _TorchImportHook(importlib.abc.MetaPathFinder):
    def __init__(self, config):
        self.config = config

    def find_spec(self, name, path=None, target=None):
        if name != "torch":
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec("torch")
        if spec is None or spec.loader is None or not hasattr(spec.loader, "exec_module"):
            return spec
        loader = spec.loader
        original = loader.exec_module
        config = self.config

        def exec_module(module):
            original(module)
            try:
                _start(config)
            except Exception as e:  # never break the child
                sys.stderr.write("[attention-recorder] not recording in process %d: %s\n" % (os.getpid(), e))

        loader.exec_module = exec_module
        return spec


def install():
    try:
        config = json.loads(os.environ["ATTENTION_RECORDER_CHILD"])
    except (KeyError, ValueError):
        return
    if "torch" in sys.modules:
        _start(config)
    else:
        sys.meta_path.insert(0, _TorchImportHook(config))


def _start(config):
    from .session import Session, environment_info

    pid = os.getpid()
    session = Session(config["out"], config.get("workspace") or [os.getcwd()], int(config["maxCallsPerSite"]),
                      int(config["maxBytes"]), int(config["maxTensorElements"]), file_prefix="p%d-" % pid)
    session.start()

    def finish():
        session.stop()
        program = dict(environment_info(), argv=list(sys.argv))
        session.store.write_json("proc-%d.json" % pid, program)

    atexit.register(finish)
