"""Where a call comes from: the innermost frame in the user's workspace, the innermost library frame inside it,
and the path of the nn.Module running it (``model.transformer.h.3.attn``)."""

import os
import sys
import weakref

import torch

_OWN_DIR = os.path.dirname(os.path.abspath(__file__))
_TORCH_DIR = os.path.dirname(os.path.abspath(torch.__file__))
_MODULE_CALL_CODES = tuple(
    f.__code__ for f in (getattr(torch.nn.Module, "_call_impl", None), getattr(torch.nn.Module, "_wrapped_call_impl", None))
    if f is not None and hasattr(f, "__code__")
)
_LIBRARY_MARKERS = (os.sep + "site-packages" + os.sep, os.sep + "dist-packages" + os.sep)
_STDLIB_DIRS = tuple(
    os.path.abspath(p) for p in {getattr(sys, "base_prefix", sys.prefix), sys.prefix, getattr(sys, "exec_prefix", sys.prefix)}
)

OWN, TORCH_INTERNAL, WORKSPACE, LIBRARY = 0, 1, 2, 3


class FrameLocator:
    """Classifies source files once each and walks the stack of the current call."""

    def __init__(self, workspace_dirs):
        self.workspace_dirs = [os.path.realpath(d) for d in workspace_dirs if d]
        self._kinds = {}
        self._module_names = weakref.WeakKeyDictionary()  # root module -> {id(module): qualified name}
        self._root_names = weakref.WeakKeyDictionary()  # root module -> the variable it is bound to

    def kind(self, filename):
        k = self._kinds.get(filename)
        if k is None:
            k = self._kinds[filename] = self._classify(filename)
        return k

    def _classify(self, filename):
        if filename.startswith("<"):
            return TORCH_INTERNAL if filename.startswith("<frozen") else LIBRARY
        path = os.path.realpath(os.path.abspath(filename))
        if path.startswith(_OWN_DIR + os.sep):
            return OWN
        if path.startswith(_TORCH_DIR + os.sep):
            rel = path[len(_TORCH_DIR) + 1:]
            # torch's modules (nn/modules/activation.py: MultiheadAttention.forward) are library frames worth
            # showing; the dispatch plumbing around every call is not.
            if rel.startswith(os.path.join("nn", "modules") + os.sep) and not rel.endswith("module.py"):
                return LIBRARY
            return TORCH_INTERNAL
        if any(m in path for m in _LIBRARY_MARKERS):
            return LIBRARY
        for d in self.workspace_dirs:
            if path == d or path.startswith(d + os.sep):
                return WORKSPACE
        return LIBRARY

    def line_of_caller(self, depth=2):
        """(path, line) of the innermost frame that is neither ours nor torch's plumbing."""
        f = sys._getframe(1)  # our own frames are skipped by kind
        while f is not None:
            code = f.f_code
            if code not in _MODULE_CALL_CODES and self.kind(code.co_filename) >= WORKSPACE:
                return (os.path.abspath(code.co_filename), f.f_lineno, _column(f))
            f = f.f_back
        return (None, None, None)

    def site(self, depth=2):
        """{user, library, module, moduleClass} for the current call."""
        f = sys._getframe(1)  # our own frames are skipped by kind
        user = library = None
        modules = []
        first_other = None
        while f is not None:
            code = f.f_code
            if code in _MODULE_CALL_CODES:
                module = f.f_locals.get("self")
                if isinstance(module, torch.nn.Module):
                    modules.append((module, f.f_back))
            else:
                k = self.kind(code.co_filename)
                if k == WORKSPACE and user is None:
                    user = _frame_info(f)
                elif k == LIBRARY and user is None:
                    if library is None:
                        library = _frame_info(f)
                    if first_other is None and not _is_library_path(code.co_filename):
                        first_other = _frame_info(f)
            f = f.f_back
        if user is None and first_other is not None:
            # No frame in the workspace folders: the innermost frame outside site-packages stands for the user.
            user, library = first_other, (library if library is not None and library != first_other else None)
        module_path = module_class = None
        if modules:
            module_path = self._module_path(modules)
            module_class = type(modules[0][0]).__name__
        return {"user": user, "library": library, "module": module_path, "moduleClass": module_class}

    def _module_path(self, modules):
        inner = modules[0][0]
        root, root_caller = modules[-1]
        try:
            names = self._module_names.get(root)
            if names is None:
                names = {id(m): n for n, m in root.named_modules()}
                self._module_names[root] = names
            root_name = self._root_names.get(root)
            if root_name is None:
                root_name = _variable_name(root, root_caller) or type(root).__name__
                self._root_names[root] = root_name
        except TypeError:  # a module that cannot be weakly referenced
            names, root_name = {id(m): n for n, m in root.named_modules()}, type(root).__name__
        rel = names.get(id(inner))
        if rel is None:
            return type(inner).__name__
        return root_name + ("." + rel if rel else "")


def _is_library_path(filename):
    if any(m in filename for m in _LIBRARY_MARKERS) or filename.startswith("<"):
        return True
    path = os.path.abspath(filename)
    return any(path.startswith(d + os.sep) for d in _STDLIB_DIRS)


def _frame_info(f):
    info = {"path": os.path.abspath(f.f_code.co_filename), "line": f.f_lineno, "function": f.f_code.co_name}
    col = _column(f)
    if col is not None:
        info["column"] = col
    return info


def _column(f):
    """1-based column of the instruction a frame is executing (Python >= 3.11), else None."""
    positions = getattr(f.f_code, "co_positions", None)
    if positions is None or f.f_lasti < 0:
        return None
    try:
        for i, pos in enumerate(positions()):
            if i == f.f_lasti // 2:
                return pos[2] + 1 if pos[0] == f.f_lineno and pos[2] is not None else None
    except Exception:
        return None
    return None


def _variable_name(module, frame):
    """The name the caller of the root module bound it to (``model`` in ``model(ids)``), if any."""
    for _ in range(3):
        if frame is None:
            return None
        try:
            for scope in (frame.f_locals, frame.f_globals):
                for name, value in scope.items():
                    if value is module and not name.startswith("_"):
                        return name
            self_obj = frame.f_locals.get("self")
            if self_obj is not None and not isinstance(self_obj, torch.nn.Module):
                for name, value in vars(self_obj).items():
                    if value is module:
                        return "self." + name
        except Exception:
            return None
        frame = frame.f_back
    return None
