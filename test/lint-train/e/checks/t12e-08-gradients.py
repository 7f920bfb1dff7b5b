"""Why t12e-08-fill is labelled correct: runs the case's own layers.py under real PyTorch and reports whether outputs and
gradients stay finite, with its torch.where(isnan) patch after the softmax and without it (the patch line removed).

    python3 test/lint-train/e/checks/t12e-08-gradients.py     (the log next to this file is its output)
"""
import pathlib
import types

import torch

CASE = pathlib.Path(__file__).resolve().parent.parent / "cases" / "t12e-08-fill" / "layers.py"
PATCH = "attention = torch.where(torch.isnan(attention), torch.zeros_like(attention), attention)"


def load(with_patch: bool) -> types.ModuleType:
    source = CASE.read_text()
    assert PATCH in source, "the case no longer has the patch line"
    if not with_patch:
        source = "\n".join(line for line in source.splitlines() if PATCH not in line)
    module = types.ModuleType("layers")
    exec(compile(source, str(CASE), "exec"), module.__dict__)
    return module


def run(with_patch: bool) -> tuple[bool, bool]:
    torch.manual_seed(0)
    layers = load(with_patch)
    d, heads = 16, 2
    args = {"attention": {"d_k": 8, "d_v": 8, "n_head": heads}, "self_attention": {"d_k": 8, "d_v": 8, "n_head": heads}}
    enc, dec = layers.EncoderLayer(d, args), layers.DecoderLayer(d, args)
    src, trg = torch.randn(3, 7, d), torch.randn(3, 5, d)
    # Right-padded batches: (batch, len), True for real tokens.
    src_mask = torch.arange(7)[None, :] < torch.tensor([7, 4, 2])[:, None]
    trg_mask = torch.arange(5)[None, :] < torch.tensor([5, 3, 1])[:, None]
    out = dec(trg, enc(src, src_mask), src_mask, trg_mask)
    out.sum().backward()
    grads = [p.grad for m in (enc, dec) for p in m.parameters() if p.grad is not None]
    return bool(torch.isfinite(out).all()), all(bool(torch.isfinite(g).all()) for g in grads)


if __name__ == "__main__":
    print(f"torch {torch.__version__}")
    for with_patch in (True, False):
        out_ok, grads_ok = run(with_patch)
        print(f"{'with' if with_patch else 'without'} the patch: outputs finite {out_ok}, every gradient finite {grads_ok}")
