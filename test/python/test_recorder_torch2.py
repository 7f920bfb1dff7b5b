"""Recorder tests that need torch 2.x (F.scaled_dot_product_attention, HF transformers with SDPA). Run with the
Debian sid root's interpreter (.cache/torch-sid/bin/python3 -m pytest test/python); torch 1.13 runs only
test_recorder.py."""
import json
import os

from test_recorder import load, record


def test_sdpa_arguments_are_recorded(tmp_path):
    source = """
        import torch, torch.nn.functional as F
        q, k, v = torch.randn(3, 1, 2, 4, 8).unbind(0)
        m = torch.ones(4, 4, dtype=torch.bool).tril()
        F.scaled_dot_product_attention(q, k, v, attn_mask=m, scale=0.3)
        F.scaled_dot_product_attention(q, k, v, is_causal=True)
    """
    trace, proc = record(tmp_path, source)
    assert proc.returncode == 0, proc.stderr
    a, b = trace["calls"]
    assert a["kind"] == "sdpa" and a["params"]["scale"] == 0.3 and a["params"]["isCausal"] is False
    assert a["tensors"]["attn_mask"]["dtype"] == "bool" and a["site"]["user"]["line"] == 5
    assert b["params"]["isCausal"] is True and b["params"]["scale"] is None and "attn_mask" not in b["tensors"]


def test_hf_gpt2_sdpa_calls_have_module_paths_token_ids_and_the_padded_mask(tmp_path):
    source = """
        import torch
        from transformers import GPT2Config, GPT2Model
        torch.manual_seed(0)
        model = GPT2Model(GPT2Config(n_layer=3, n_head=2, n_embd=32, vocab_size=100, n_positions=16, bos_token_id=1, eos_token_id=2)).eval()
        ids = torch.tensor([[5, 6, 7, 8], [0, 0, 9, 10]])
        with torch.no_grad():
            model(ids, attention_mask=(ids != 0).long())
    """
    trace, proc = record(tmp_path, source)
    assert proc.returncode == 0, proc.stderr
    calls = trace["calls"]
    assert [c["module"] for c in calls] == ["model.h.0.attn", "model.h.1.attn", "model.h.2.attn"]
    for c in calls:
        assert c["kind"] == "sdpa" and c["site"]["user"]["line"] == 8
        assert c["site"]["library"]["path"].endswith(os.path.join("transformers", "integrations", "sdpa_attention.py"))
        assert c["params"]["isCausal"] is False and c["params"]["scale"] == 0.25
        assert c["tensors"]["attn_mask"]["dtype"] == "bool" and c["tensors"]["attn_mask"]["shape"] == [2, 1, 4, 4]
        assert c["tokens"]["module"] == "model.wte" and c["tokens"]["paddingIdx"] is None
    mask = load(tmp_path, calls[0]["tensors"]["attn_mask"])
    # Left padding: row 1's real queries see keys 2.. up to themselves; the mask is causal and excludes padding.
    assert mask[1, 0, 3].tolist() == [False, False, True, True]
    assert mask[0, 0, 1].tolist() == [True, True, False, False]


LLAMA = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures", "modern", "llama"))


def test_the_tokenizer_that_made_the_ids_is_named_and_its_tokenizer_json_saved(tmp_path):
    source = """
        import torch
        from transformers import AutoModel, AutoTokenizer
        tok = AutoTokenizer.from_pretrained(%r)
        model = AutoModel.from_pretrained(%r).eval()
        with torch.no_grad():
            model(**tok(["The cat sat", "A dog"], padding=True, return_tensors="pt"))
            model(torch.tensor([tok.encode("on the mat")]))    # encode: a list of ids
            model(torch.tensor([[5, 6, 7, 8, 9, 10, 11]]))      # ids no tokenizer made
        import inspect
        print("signature", list(inspect.signature(tok.__call__).parameters)[:2], tok.__call__.__name__)
    """ % (LLAMA, LLAMA)
    trace, proc = record(tmp_path, source)
    assert proc.returncode == 0, proc.stderr
    calls = trace["calls"]
    by_line = {}
    for c in calls:
        by_line.setdefault(c["site"]["user"]["line"], []).append(c)
    assert sorted(by_line) == [7, 8, 9]
    for line in (7, 8):
        for c in by_line[line]:
            tok = c["tokens"]["tokenizer"]
            assert tok["name"] == LLAMA and tok["className"] and tok["vocabSize"] > 0
            with open(tmp_path / "trace" / tok["file"], encoding="utf-8") as f:
                saved = json.load(f)
            assert "model" in saved and saved["model"]["vocab"]
    for c in by_line[9]:  # the same embedding table: its ids are that tokenizer's vocabulary too
        assert c["tokens"]["tokenizer"]["file"] == by_line[7][0]["tokens"]["tokenizer"]["file"]
    assert len([n for n in os.listdir(tmp_path / "trace") if n.startswith("tokenizer-")]) == 1
    assert "signature ['text', 'text_pair'] __call__" in proc.stdout  # the wrapper keeps what introspection sees


def test_ids_no_tokenizer_made_have_no_tokenizer(tmp_path):
    source = """
        import torch
        from transformers import GPT2Config, GPT2Model
        model = GPT2Model(GPT2Config(n_layer=1, n_head=2, n_embd=16, vocab_size=50, n_positions=8)).eval()
        with torch.no_grad():
            model(torch.tensor([[1, 2, 3]]))
    """
    trace, proc = record(tmp_path, source)
    assert proc.returncode == 0, proc.stderr
    assert trace["calls"] and all("tokenizer" not in c["tokens"] for c in trace["calls"])
