# The attention recorder's sitecustomize: the recorder's folder is on PYTHONPATH, so this file shadows any other
# sitecustomize.py (Debian ships one in /usr/lib/python3.X/). It runs the next one on sys.path first, then, in
# child processes of a recorded program (ATTENTION_RECORDER_CHILD set), starts recording once torch is imported.
import os as _os
import sys as _sys


def _run_next_sitecustomize():
    here = _os.path.dirname(_os.path.abspath(__file__))
    seen_self = False
    for entry in list(_sys.path):
        try:
            directory = _os.path.abspath(entry or _os.getcwd())
        except OSError:
            continue
        if directory == here:
            seen_self = True
            continue
        candidate = _os.path.join(directory, "sitecustomize.py")
        if seen_self and _os.path.isfile(candidate):
            import importlib.util

            spec = importlib.util.spec_from_file_location("_chained_sitecustomize", candidate)
            module = importlib.util.module_from_spec(spec)
            try:
                spec.loader.exec_module(module)
            except Exception as e:  # the same as Python does for a failing sitecustomize: warn and go on
                _sys.stderr.write("Error in sitecustomize (%s); set PYTHONVERBOSE for traceback:\n%s: %s\n"
                                  % (candidate, type(e).__name__, e))
            return


_run_next_sitecustomize()
if _os.environ.get("ATTENTION_RECORDER_CHILD"):
    try:
        from attention_recorder.child import install as _install

        _install()
    except Exception as _e:
        _sys.stderr.write("[attention-recorder] not recording in this child process: %s\n" % _e)
