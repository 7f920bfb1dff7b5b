# case: t26s-01-clean
# modelled-on: lisensei/decision-transformer https://github.com/lisensei/decision-transformer/commit/a30c1d49c18d42d7d29a3dc87a8c8bed4fb775df
# label: correct
# class: clean
# pattern: a small sequence policy for CartPole on nn.TransformerEncoder (batch_first): the collate module right-pads episodes with all-zero states; the agent rebuilds the padding mask from the states as torch.sum(source, dim=2) == 0 and passes it as src_key_padding_mask, together with nn.Transformer.generate_square_subsequent_mask(T) unsqueezed and expanded to (batch * heads, T, T) as mask=; at play time the whole state history goes in with no padding and the action is read from the last position
# why: correct: for nn.TransformerEncoder a boolean src_key_padding_mask is True where a key is ignored, and sum(states) == 0 is True on the zero-padded steps; the float causal mask (-inf above the diagonal, 0 elsewhere) is additive, and a 3-D mask of shape (batch * num_heads, T, T) is an accepted form; both masks block keys, neither is inverted (a real CartPole state summing to exactly 0.0 is the only, measure-zero, exception)
# looks-like: ATT002, ATT008
# source: https://github.com/lisensei/decision-transformer https://github.com/lisensei/decision-transformer/commit/a30c1d49c18d42d7d29a3dc87a8c8bed4fb775df model.py
import numpy as np
import torch
import torch.nn as nn


class SequencePolicy(nn.Module):
    def __init__(self, state_dim, n_actions, n_layers=2, n_heads=4, widen=4, ff_dim=32, context=100):
        super().__init__()
        self.n_heads = n_heads
        self.d_model = widen * state_dim
        self.lift = nn.Sequential(nn.Linear(state_dim, self.d_model), nn.ReLU(), nn.BatchNorm1d(self.d_model))
        self.pos = nn.Embedding(context, self.d_model)
        layer = nn.TransformerEncoderLayer(self.d_model, n_heads, ff_dim, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, n_layers)
        self.head = nn.Linear(self.d_model, n_actions)

    def forward(self, source):
        b, t = source.size(0), source.size(1)
        x = self.lift(source.reshape(b * t, -1)).reshape(b, t, -1)
        x = x + self.pos(torch.arange(t, device=source.device)).unsqueeze(0).expand(b, -1, -1)
        causal = nn.Transformer.generate_square_subsequent_mask(t).to(source.device)
        causal = causal.unsqueeze(0).expand(b * self.n_heads, -1, -1)
        padded = torch.sum(source, dim=2) == 0
        x = self.encoder(x, mask=causal, src_key_padding_mask=padded)
        return self.head(x)

    @torch.no_grad()
    def act(self, env, device, greedy=True):
        self.eval()
        state, _ = env.reset()
        history, total, done, truncated = [state], 0.0, False, False
        while not (done or truncated):
            obs = torch.tensor(np.array(history), device=device, dtype=torch.float32).reshape(1, -1, len(state))
            logits = self.forward(obs)[0, -1]
            if greedy:
                action = torch.argmax(logits).item()
            else:
                action = torch.multinomial(torch.softmax(logits, dim=0), 1).item()
            state, reward, done, truncated, _ = env.step(action)
            history.append(state)
            total += reward
        return total
