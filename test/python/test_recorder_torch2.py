"""Recorder tests that need torch 2.x (F.scaled_dot_product_attention, HF transformers with SDPA). Run with the
Debian sid root's interpreter (.cache/torch-sid/bin/python3 -m pytest test/python); torch 1.13 runs only
test_recorder.py."""
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
