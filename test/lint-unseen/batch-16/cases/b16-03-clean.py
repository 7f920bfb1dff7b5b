# case: b16-03-clean
# modelled-on: LuozhuZhang/transformer-implementation https://github.com/LuozhuZhang/transformer-implementation/commit/0b26fb1fbd70e9154ec6cbb9ba6cd910b667ac7d
# label: correct
# class: clean
# pattern: a learning-project GPT built from nn.MultiheadAttention (sequence-first layout): the training loop and the greedy generation loop each build torch.triu(torch.ones(T, T), diagonal=1).bool(), the generation loop naming it attention_mask, and hand it through the decoder to self_attn(x, x, x, attn_mask=mask)
# why: correct: nn.MultiheadAttention's boolean attn_mask marks with True the positions that may not be attended, and triu(..., diagonal=1) is True exactly on the future keys; the variable called attention_mask is this causal ignore mask, not a tokenizer keep mask; the real training loop also scored the unshifted inputs and indexed the sequence-first output by batch, which the case writes correctly so that the mask is its subject
# looks-like: ATT002
# source: https://github.com/LuozhuZhang/transformer-implementation https://github.com/LuozhuZhang/transformer-implementation/commit/0b26fb1fbd70e9154ec6cbb9ba6cd910b667ac7d decoder/gpt/gpt.py
import torch
import torch.nn as nn


class DecoderLayer(nn.Module):
    def __init__(self, d_model, num_heads, d_ff):
        super().__init__()
        self.self_attn = nn.MultiheadAttention(d_model, num_heads)
        self.ffn = nn.Sequential(nn.Linear(d_model, d_ff), nn.ReLU(), nn.Linear(d_ff, d_model))
        self.norm1 = nn.LayerNorm(d_model)
        self.norm2 = nn.LayerNorm(d_model)

    def forward(self, x, mask=None):
        attn_output, _ = self.self_attn(x, x, x, attn_mask=mask)
        x = self.norm1(x + attn_output)
        return self.norm2(x + self.ffn(x))


class Decoder(nn.Module):
    def __init__(self, num_layers, d_model, num_heads, d_ff, vocab_size, max_len=512):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, d_model)
        self.position = nn.Embedding(max_len, d_model)
        self.layers = nn.ModuleList([DecoderLayer(d_model, num_heads, d_ff) for _ in range(num_layers)])
        self.fc = nn.Linear(d_model, vocab_size)

    def forward(self, ids, mask=None):
        pos = torch.arange(ids.size(1), device=ids.device)
        x = self.embedding(ids) + self.position(pos)
        x = x.transpose(0, 1)  # (T, B, D) for nn.MultiheadAttention
        for layer in self.layers:
            x = layer(x, mask)
        return self.fc(x.transpose(0, 1))


def train_epoch(model, loader, criterion, optimizer, vocab_size, device):
    model.train()
    for input_ids, _ in loader:
        input_ids = input_ids.to(device)
        inputs, targets = input_ids[:, :-1], input_ids[:, 1:]
        mask = torch.triu(torch.ones(inputs.size(1), inputs.size(1)), diagonal=1).bool().to(device)
        logits = model(inputs, mask)
        loss = criterion(logits.reshape(-1, vocab_size), targets.reshape(-1))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


@torch.no_grad()
def generate(model, tokenizer, prompt, device, max_new=50):
    model.eval()
    generated = tokenizer.encode(prompt, return_tensors="pt").to(device)
    for _ in range(max_new):
        attention_mask = torch.triu(torch.ones(generated.size(1), generated.size(1)), diagonal=1).bool().to(device)
        logits = model(generated, attention_mask)
        next_token = torch.argmax(logits[:, -1, :], dim=-1, keepdim=True)
        generated = torch.cat((generated, next_token), dim=1)
    return tokenizer.decode(generated[0], skip_special_tokens=True)
