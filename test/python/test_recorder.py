"""The recorder run as users run it (python -m attention_recorder, in a child process) on small programs; the
trace it writes is checked field by field. Runtime diagnostics are checked by record-cli.test.ts through the CLI.
"""
import json
import os
import subprocess
import sys
import textwrap

import pytest
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
RECORDER_DIR = os.path.normpath(os.path.join(HERE, "..", "..", "python"))


def record(tmp_path, source, *options, args=(), files=None):
    """Writes `source` as prog.py in tmp_path, records it; returns (trace, completed process)."""
    (tmp_path / "prog.py").write_text(textwrap.dedent(source))
    for name, text in (files or {}).items():
        (tmp_path / name).write_text(textwrap.dedent(text))
    out = tmp_path / "trace"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [RECORDER_DIR, os.environ.get("PYTHONPATH")])))
    env.pop("ATTENTION_RECORDER_CHILD", None)
    proc = subprocess.run(
        [sys.executable, "-m", "attention_recorder", "--out", str(out), "--workspace", str(tmp_path), *options,
         "--script", "prog.py", *args],
        cwd=str(tmp_path), env=env, capture_output=True, text=True, timeout=600)
    with open(out / "trace.json", encoding="utf-8") as f:
        trace = json.load(f)
    return trace, proc


def load(tmp_path, entry):
    import numpy as np

    return np.load(tmp_path / "trace" / entry["file"])


HAND_WRITTEN = """
    import math, torch
    torch.manual_seed(0)
    q, k, v = torch.randn(3, 2, 4, 5, 8).unbind(0)
    scores = q @ k.transpose(-2, -1)
    scores = scores / math.sqrt(8)
    weights = scores.softmax(dim=-1)
    out = weights @ v
    torch.save(out, "out.pt")
"""


def test_hand_written_attention_is_recorded_with_each_op_and_its_line(tmp_path):
    trace, proc = record(tmp_path, HAND_WRITTEN)
    assert proc.returncode == 0, proc.stderr
    assert trace["format"] == "attention-inspector-trace" and trace["version"] == 1
    assert trace["program"]["exitCode"] == 0 and trace["program"]["torch"] == torch.__version__
    [call] = trace["calls"]
    assert call["kind"] == "manual"
    assert [(o["op"] in ("matmul", "__matmul__"), o["kind"], o["line"]) for o in call["ops"]] == [
        (True, "scores", 5), (False, "scale", 6), (False, "softmax", 7), (True, "values", 8)]
    assert call["ops"][1]["value"] == pytest.approx(math_sqrt8())
    assert call["softmax"] == {"dim": 3, "role": "col"} and call["contracted"] == {"role": "col"}
    assert call["site"]["user"]["path"] == str(tmp_path / "prog.py") and call["site"]["user"]["line"] == 7
    # The captured tensors are the program's own values.
    q, k, v = torch.randn(3, 2, 4, 5, 8, generator=torch.Generator().manual_seed(0)).unbind(0)
    out = torch.load(tmp_path / "out.pt")
    assert load(tmp_path, call["tensors"]["rows_operand"]) == pytest.approx(q.numpy(), abs=0)
    assert load(tmp_path, call["tensors"]["cols_operand"]) == pytest.approx(k.numpy(), abs=0)
    assert load(tmp_path, call["tensors"]["out"]) == pytest.approx(out.numpy(), abs=0)
    probs = load(tmp_path, call["tensors"]["probs"])
    assert probs.sum(-1) == pytest.approx(1, abs=1e-5)


def math_sqrt8():
    return 8 ** 0.5


def test_the_users_own_tensors_at_each_debugger_step_are_captured(tmp_path):
    # Scores from bmm over [B*H, T, S], viewed as [B, H, T, S], scaled and masked in place, a mask after the
    # softmax: each step's tensor is the program's own value at that point (the in-place ops did not change the
    # earlier ones), in the layout [batch..., T, S].
    source = """
        import math, torch
        torch.manual_seed(0)
        B, H, T, d = 2, 3, 5, 8
        q, k, v = torch.randn(3, B * H, T, d).unbind(0)
        raw = torch.bmm(q, k.transpose(1, 2))
        torch.save(raw.clone(), "raw.pt")
        scores = raw.view(B, H, T, T)
        scores /= math.sqrt(d)
        torch.save(scores.clone(), "scaled.pt")
        causal = torch.ones(T, T, dtype=torch.bool).triu(1)
        scores.masked_fill_(causal, -1e9)
        torch.save(scores.clone(), "masked.pt")
        weights = scores.softmax(-1)
        torch.save(weights.clone(), "weights.pt")
        weights = weights.masked_fill(torch.arange(T) == 4, 0.0)
        out = weights @ v.view(B, H, T, d)
        torch.save(out, "out.pt")
    """
    trace, proc = record(tmp_path, source)
    assert proc.returncode == 0, proc.stderr
    [call] = trace["calls"]
    assert call["stepTensors"] == {"raw": "step_raw", "scaled": "step_scaled"}
    t = call["tensors"]
    import numpy as np

    # The raw scores as bmm gave them, [B*H, T, S] (the extension reads them as B·H matrices of T × S).
    assert t["step_raw"]["shape"] == [6, 5, 5] and t["scores"]["shape"] == [2, 3, 5, 5]
    assert np.array_equal(load(tmp_path, t["step_raw"]), torch.load(tmp_path / "raw.pt").numpy())
    assert np.array_equal(load(tmp_path, t["step_scaled"]), torch.load(tmp_path / "scaled.pt").numpy())
    assert np.array_equal(load(tmp_path, t["scores"]), torch.load(tmp_path / "masked.pt").numpy())
    assert np.array_equal(load(tmp_path, t["probs"]), torch.load(tmp_path / "weights.pt").numpy())
    used = load(tmp_path, t["weights_used"])
    assert (used[..., 4] == 0).all() and np.array_equal(used[..., :4], torch.load(tmp_path / "weights.pt").numpy()[..., :4])
    assert np.array_equal(load(tmp_path, t["out"]), torch.load(tmp_path / "out.pt").numpy())


def test_step_tensors_name_the_softmax_input_or_the_raw_scores_when_the_chain_has_no_separate_step(tmp_path):
    # No scale op (the scale is applied to q first): the raw scores stand for the scaled ones; and the scale op's
    # output that goes straight into the softmax is the softmax input itself. An item assignment into the scaled
    # scores leaves the kept raw scores as they were.
    source = """
        import torch
        q, k, v = torch.randn(3, 1, 4, 8).unbind(0)
        w = ((q * 8 ** -0.5) @ k.transpose(-2, -1)).softmax(-1)
        out = w @ v
        w2 = (q @ k.transpose(-2, -1) * 8 ** -0.5).softmax(-1)
        out2 = w2 @ v
        raw = q @ k.transpose(-2, -1)
        torch.save(raw.clone(), "raw.pt")
        raw[..., 0] = -1e9
        out3 = raw.softmax(-1) @ v
    """
    trace, proc = record(tmp_path, source)
    assert proc.returncode == 0, proc.stderr
    first, second, third = trace["calls"]
    import numpy as np

    assert third["stepTensors"] == {"raw": "step_raw", "scaled": "step_raw"}
    assert np.array_equal(load(tmp_path, third["tensors"]["step_raw"]), torch.load(tmp_path / "raw.pt").numpy())
    assert first["stepTensors"] == {"raw": "scores", "scaled": "scores"}
    assert "step_raw" not in first["tensors"] and first["ops"][0]["operandScale"] == pytest.approx(8 ** -0.5)
    assert second["stepTensors"] == {"raw": "step_raw", "scaled": "scores"}
    assert "step_scaled" not in second["tensors"]


def test_nn_multihead_attention_gives_per_head_weights_without_changing_its_output(tmp_path):
    source = """
        import torch, torch.nn as nn
        torch.manual_seed(0)
        mha = nn.MultiheadAttention(16, 4, batch_first=True).eval()
        x = torch.randn(2, 5, 16)
        kpm = torch.tensor([[False] * 5, [False, False, False, True, True]])
        with torch.no_grad():
            out, w = mha(x, x, x, key_padding_mask=kpm)
            torch.save((out, w), "result.pt")
    """
    trace, proc = record(tmp_path, source)
    assert proc.returncode == 0, proc.stderr
    [call] = trace["calls"]
    assert call["kind"] == "mha" and call["module"] == "mha" and call["moduleClass"] == "MultiheadAttention"
    assert call["params"]["numHeads"] == 4 and call["params"]["averageAttnWeights"] is True
    assert call["site"]["user"]["line"] == 8
    assert call["site"]["library"]["path"].endswith(os.path.join("torch", "nn", "modules", "activation.py"))
    out, averaged = torch.load(tmp_path / "result.pt")
    per_head = load(tmp_path, call["tensors"]["weights"])
    assert per_head.shape == (2, 4, 5, 5)
    # What the program received is what nn.MultiheadAttention returns unrecorded (fast path: within 1e-6).
    torch.manual_seed(0)
    mha = torch.nn.MultiheadAttention(16, 4, batch_first=True).eval()
    x = torch.randn(2, 5, 16)
    with torch.no_grad():
        ref_out, ref_w = mha(x, x, x, key_padding_mask=torch.tensor([[False] * 5, [False, False, False, True, True]]))
    assert torch.allclose(out, ref_out, atol=1e-6) and torch.allclose(averaged, ref_w, atol=1e-6)
    assert per_head.mean(1) == pytest.approx(ref_w.numpy(), abs=1e-6)
    # torch 1.13 passes the bool mask on; torch 2.x turns it into an additive float mask (-inf) first.
    kpm = load(tmp_path, call["tensors"]["key_padding_mask"])
    masked = kpm if kpm.dtype == bool else (kpm == float("-inf"))
    assert masked.tolist() == [[False] * 5, [False, False, False, True, True]]


def test_need_weights_false_still_returns_none_to_the_program(tmp_path):
    source = """
        import torch, torch.nn as nn
        mha = nn.MultiheadAttention(8, 2)
        x = torch.randn(3, 1, 8)
        out, w = mha(x, x, x, need_weights=False)
        assert w is None, w
        out, w = mha(x, x, x, average_attn_weights=False)
        assert w.shape == (1, 2, 3, 3), w.shape
    """
    trace, proc = record(tmp_path, source)
    assert proc.returncode == 0, proc.stderr
    assert [c["kind"] for c in trace["calls"]] == ["mha", "mha"]
    assert all(c["tensors"]["weights"]["shape"] == [1, 2, 3, 3] for c in trace["calls"])


def test_module_paths_and_token_ids_with_padding_idx(tmp_path):
    source = """
        import math, torch, torch.nn as nn
        class Block(nn.Module):
            def __init__(self):
                super().__init__()
                self.proj = nn.Linear(8, 8)
            def forward(self, x):
                q = self.proj(x)
                w = (q @ x.transpose(-2, -1) / math.sqrt(8)).softmax(-1)
                return w @ x
        class Model(nn.Module):
            def __init__(self):
                super().__init__()
                self.emb = nn.Embedding(10, 8, padding_idx=0)
                self.layers = nn.ModuleList([Block(), Block()])
            def forward(self, ids):
                x = self.emb(ids)
                for layer in self.layers:
                    x = layer(x)
                return x
        net = Model()
        net(torch.tensor([[3, 4, 0], [5, 0, 0]]))
    """
    trace, proc = record(tmp_path, source)
    assert proc.returncode == 0, proc.stderr
    assert [c["module"] for c in trace["calls"]] == ["net.layers.0", "net.layers.1"]
    assert [c["moduleClass"] for c in trace["calls"]] == ["Block", "Block"]
    call = trace["calls"][0]
    assert call["tokens"] == {"paddingIdx": 0, "numEmbeddings": 10, "module": "net.emb"}
    assert load(tmp_path, call["tensors"]["token_ids"]).tolist() == [[3, 4, 0], [5, 0, 0]]


def test_threads_are_recorded(tmp_path):
    source = """
        import threading, torch
        from concurrent.futures import ThreadPoolExecutor
        def attend(seed):
            g = torch.Generator().manual_seed(seed)
            q = torch.randn(1, 3, 4, generator=g)
            return (q @ q.transpose(1, 2) * 0.5).softmax(-1) @ q
        t = threading.Thread(target=attend, args=(1,), name="worker-thread")
        t.start(); t.join()
        with ThreadPoolExecutor(2) as pool:
            list(pool.map(attend, [2, 3]))
    """
    trace, proc = record(tmp_path, source)
    assert proc.returncode == 0, proc.stderr
    threads = [c["thread"] for c in trace["calls"]]
    assert len(threads) == 3 and "worker-thread" in threads
    assert "MainThread" not in threads
    assert all(c["site"]["user"]["line"] == 7 for c in trace["calls"])


def test_a_program_that_raises_keeps_what_was_captured_and_its_traceback(tmp_path):
    source = """
        import torch
        q = torch.randn(1, 3, 4)
        out = (q @ q.transpose(1, 2)).softmax(-1) @ q
        def fail():
            raise ValueError("shape mismatch in the decoder")
        fail()
    """
    trace, proc = record(tmp_path, source)
    assert proc.returncode == 1
    assert "ValueError: shape mismatch in the decoder" in proc.stderr
    program = trace["program"]
    assert program["exitCode"] == 1
    assert program["exception"]["type"] == "ValueError"
    tb = program["exception"]["traceback"]
    assert 'prog.py", line 7' in tb and 'prog.py", line 6, in fail' in tb
    assert "attention_recorder" not in tb and "runpy" not in tb
    assert len(trace["calls"]) == 1


@pytest.mark.parametrize("code,expected", [("raise SystemExit(4)", 4), ("import sys; sys.exit('bye')", 1),
                                           ("raise SystemExit", 0)])
def test_system_exit_sets_the_exit_code(tmp_path, code, expected):
    source = "import torch\nq = torch.randn(1, 2, 3)\n(q @ q.transpose(1, 2)).softmax(-1) @ q\n" + code + "\n"
    trace, proc = record(tmp_path, source)
    assert proc.returncode == expected
    assert trace["program"]["exitCode"] == expected and trace["program"]["exception"] is None
    assert len(trace["calls"]) == 1


def test_child_processes_are_recorded_into_the_same_trace(tmp_path):
    source = """
        import subprocess, sys, torch
        q = torch.randn(1, 2, 3)
        (q @ q.transpose(1, 2)).softmax(-1) @ q
        subprocess.run([sys.executable, "child.py"], check=True)
        subprocess.run([sys.executable, "-c", "print('no torch here')"], check=True)
    """
    child = """
        import torch
        k = torch.randn(2, 4, 6)
        w = (k @ k.transpose(-2, -1)).softmax(-1)
        print((w @ k).shape)
    """
    trace, proc = record(tmp_path, source, files={"child.py": child})
    assert proc.returncode == 0, proc.stderr
    assert "no torch here" in proc.stdout
    calls = trace["calls"]
    assert len(calls) == 2
    assert calls[0]["site"]["user"]["path"].endswith("prog.py")
    assert calls[1]["site"]["user"]["path"].endswith("child.py") and calls[1]["site"]["user"]["line"] == 4
    assert calls[1]["pid"] not in (None, trace["program"]["pid"])
    assert calls[1]["tensors"]["probs"]["shape"] == [2, 4, 4]
    assert load(tmp_path, calls[1]["tensors"]["probs"]).shape == (2, 4, 4)


def test_limits_per_site_bytes_and_large_tensors(tmp_path):
    source = """
        import torch
        for i in range(10):
            q = torch.randn(1, 4, 8)
            (q @ q.transpose(1, 2)).softmax(-1) @ q
        big = torch.randn(1, 600, 16)
        (big @ big.transpose(1, 2)).softmax(-1) @ big
    """
    trace, proc = record(tmp_path, source, "--max-calls", "3", "--max-tensor-elements", "100000")
    assert proc.returncode == 0, proc.stderr
    calls = trace["calls"]
    assert len(calls) == 4 and trace["limits"]["skippedCalls"] == 7
    big = calls[3]
    probs = big["tensors"]["probs"]
    assert probs["summary"] == {"blockRows": 5, "blockCols": 5, "of": [1, 600, 600]} and probs["shape"] == [1, 120, 120]
    averaged = load(tmp_path, probs)
    # Block averages of softmax rows: each block row of 5 rows sums to 5 over all columns, i.e. mean 1/600 * 5.
    assert averaged.sum(-1) * 5 == pytest.approx(1.0, abs=1e-4)
    assert "file" in big["tensors"]["rows_operand"] and "summary" not in big["tensors"]["rows_operand"]

    trace, proc = record(tmp_path, source, "--max-bytes", "5000")
    assert proc.returncode == 0, proc.stderr
    assert trace["limits"]["omittedTensors"] > 0 and trace["limits"]["bytesWritten"] <= 5000
    omitted = [e for c in trace["calls"] for e in c["tensors"].values() if e.get("omitted") == "budget"]
    assert omitted and all("file" not in e for e in omitted)


def test_a_program_without_attention_records_nothing(tmp_path):
    source = """
        import torch
        x = torch.randn(4, 8) @ torch.randn(8, 3)
        print(torch.softmax(x, dim=-1).sum().item())
        lin = torch.nn.Linear(8, 3)
        logits = torch.randn(2, 8) @ lin.weight.T  # a classifier: a product with a weight, not attention
        print(logits.softmax(-1).shape)
    """
    trace, proc = record(tmp_path, source)
    assert proc.returncode == 0, proc.stderr
    assert trace["calls"] == [] and trace["recorderErrors"] == []


def test_program_arguments_and_sys_path_are_those_of_python_script(tmp_path):
    source = """
        import sys, json, helper
        json.dump({"argv": sys.argv, "path0": sys.path[0], "name": __name__}, open("seen.json", "w"))
    """
    trace, proc = record(tmp_path, source, args=("--lr", "3"), files={"helper.py": "X = 1\n"})
    assert proc.returncode == 0, proc.stderr
    seen = json.loads((tmp_path / "seen.json").read_text())
    assert seen == {"argv": ["prog.py", "--lr", "3"], "path0": str(tmp_path), "name": "__main__"}


def test_other_sitecustomize_still_runs(tmp_path):
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text("import os\nos.environ['OTHER_SITECUSTOMIZE_RAN'] = 'yes'\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([RECORDER_DIR, str(site)]))
    proc = subprocess.run([sys.executable, "-c", "import os, sitecustomize; print(os.environ.get('OTHER_SITECUSTOMIZE_RAN'), sitecustomize.__file__)"],
                          env=env, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    ran, path = proc.stdout.split()
    assert ran == "yes" and path == os.path.join(RECORDER_DIR, "sitecustomize.py")


def test_pytest_target_records_the_test_and_names_it(tmp_path):
    (tmp_path / "test_model.py").write_text(textwrap.dedent("""
        import torch
        def test_attention():
            q = torch.randn(2, 3, 4)
            out = (q @ q.transpose(1, 2) / 2).softmax(-1) @ q
            assert out.shape == (2, 3, 4)
        def test_other():
            pass
    """))
    out = tmp_path / "trace"
    env = dict(os.environ, PYTHONPATH=RECORDER_DIR)
    env.pop("ATTENTION_RECORDER_CHILD", None)
    proc = subprocess.run([sys.executable, "-m", "attention_recorder", "--out", str(out), "--workspace", str(tmp_path),
                           "--pytest", "test_model.py::test_attention", "-p", "no:cacheprovider"],
                          cwd=str(tmp_path), env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    trace = json.loads((out / "trace.json").read_text())
    assert trace["program"]["kind"] == "pytest" and trace["program"]["exitCode"] == 0
    [call] = trace["calls"]
    assert call["test"] == "test_model.py::test_attention" and call["site"]["user"]["line"] == 5


def test_a_program_with_huge_output_runs_to_the_end(tmp_path):
    source = """
        import sys, torch
        for i in range(200_000):
            print("line", i, "of a very chatty training loop")
        sys.stderr.write("e" * 1_000_000 + "\\n")
        q = torch.randn(1, 3, 4)
        (q @ q.transpose(1, 2)).softmax(-1) @ q
    """
    trace, proc = record(tmp_path, source)
    assert proc.returncode == 0
    assert proc.stdout.count("\n") == 200_000 and "line 199999 of" in proc.stdout
    assert len(trace["calls"]) == 1
