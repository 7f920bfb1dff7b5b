"""python -m attention_recorder --out DIR [options] (--script PATH [ARGS...] | --pytest NODEID [PYTEST ARGS...])

Options:
  --out DIR                  trace folder (created; trace.json + .npy files)
  --max-calls N              calls kept per source site (default 4)
  --max-bytes N              bytes of tensors kept in all (default 256 MiB)
  --max-tensor-elements N    larger tensors are kept as block averages (default 4Mi elements)
  --workspace DIR            the user's folder (repeatable; default: the current directory); frames in it are
                             the user's, every other frame is a library's

Exit code: the program's own (SystemExit code, 1 when it raised); 2 for bad usage of this command.
"""

import os
import runpy
import signal
import sys
import time
import traceback

from . import store as _store

USAGE = __doc__


def parse(argv):
    opts = {"out": None, "max_calls": _store.DEFAULT_MAX_CALLS_PER_SITE, "max_bytes": _store.DEFAULT_MAX_BYTES,
            "max_tensor_elements": _store.DEFAULT_MAX_TENSOR_ELEMENTS, "workspace": [], "script": None,
            "pytest": None, "args": []}
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("--script", "--pytest"):
            if i + 1 >= len(argv):
                raise ValueError("%s needs a value" % a)
            opts[a[2:]] = argv[i + 1]
            opts["args"] = argv[i + 2:]
            return opts
        if a in ("--out", "--max-calls", "--max-bytes", "--max-tensor-elements", "--workspace"):
            if i + 1 >= len(argv):
                raise ValueError("%s needs a value" % a)
            v = argv[i + 1]
            if a == "--out":
                opts["out"] = v
            elif a == "--workspace":
                opts["workspace"].append(v)
            else:
                try:
                    n = int(v)
                except ValueError:
                    raise ValueError("%s must be a whole number, got %r" % (a, v))
                if n < 1:
                    raise ValueError("%s must be at least 1, got %d" % (a, n))
                opts[a[2:].replace("-", "_")] = n
            i += 2
            continue
        raise ValueError("unknown option %r" % a)
    raise ValueError("missing --script PATH or --pytest NODEID")


def main(argv):
    try:
        opts = parse(argv)
        if not opts["out"]:
            raise ValueError("missing --out DIR")
    except ValueError as e:
        sys.stderr.write("attention_recorder: %s\n\n%s" % (e, USAGE))
        return 2
    out = os.path.abspath(opts["out"])
    workspace = [os.path.abspath(d) for d in (opts["workspace"] or [os.getcwd()])]

    from .session import CHILD_ENV, Session, environment_info

    current_test = [None]
    session = Session(out, workspace, opts["max_calls"], opts["max_bytes"], opts["max_tensor_elements"],
                      test_name=lambda: current_test[0])
    os.environ[CHILD_ENV] = session.child_environment(workspace)
    signal.signal(signal.SIGTERM, _terminate)

    program = dict(environment_info(), workspace=workspace)
    started = time.time()
    exit_code, error = 0, None
    session.start()
    try:
        if opts["script"] is not None:
            program.update(kind="script", target=os.path.abspath(opts["script"]), argv=[opts["script"]] + opts["args"])
            exit_code = _run_script(opts["script"], opts["args"])
        else:
            program.update(kind="pytest", target=opts["pytest"], argv=[opts["pytest"]] + opts["args"])
            exit_code = _run_pytest(opts["pytest"], opts["args"], current_test)
    except SystemExit as e:
        exit_code = _exit_code(e)
    except BaseException as e:  # the program raised: keep what was captured, and its traceback
        error = {"type": type(e).__name__, "message": str(e)[:2000],
                 "traceback": _format_user_traceback(e)[-20000:]}
        sys.stderr.write(error["traceback"])
        exit_code = 1
    finally:
        session.stop()
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except Exception:
        pass
    program.update(exitCode=exit_code, exception=error, durationMs=int((time.time() - started) * 1000))
    path = session.write(program)
    sys.stderr.write("[attention-recorder] %d attention call(s) recorded: %s\n" % (len(session.store.calls), path))
    return exit_code


def _run_script(script, args):
    path = os.path.abspath(script)
    if not os.path.isfile(path):
        raise FileNotFoundError("no such script: %s" % script)
    sys.argv = [script] + list(args)
    sys.path[0] = os.path.dirname(path)
    runpy.run_path(script, run_name="__main__")
    return 0


def _run_pytest(nodeid, args, current_test):
    import pytest

    class RecorderPlugin:
        @pytest.hookimpl(hookwrapper=True)
        def pytest_runtest_call(self, item):
            current_test[0] = item.nodeid
            try:
                yield
            finally:
                current_test[0] = None

    return int(pytest.main(list(args) + [nodeid], plugins=[RecorderPlugin()]))


def _exit_code(e):
    if e.code is None:
        return 0
    if isinstance(e.code, int):
        return e.code
    sys.stderr.write("%s\n" % e.code)
    return 1


def _terminate(signum, frame):
    raise SystemExit(128 + signum)


def _format_user_traceback(e):
    """The traceback as Python prints it, without the recorder's, runpy's and torch.overrides' frames."""
    own = os.path.dirname(os.path.abspath(__file__))

    def ours(filename):
        return (os.path.abspath(filename).startswith(own + os.sep) or filename.endswith(("runpy.py", os.sep + "torch" + os.sep + "overrides.py"))
                or filename.startswith("<frozen runpy"))

    stack = [fs for fs in traceback.extract_tb(e.__traceback__) if not ours(fs.filename)]
    lines = ["Traceback (most recent call last):\n"] + traceback.format_list(stack)
    lines += traceback.format_exception_only(type(e), e)
    return "".join(lines)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
