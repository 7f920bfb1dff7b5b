// Classes of correct code read wrongly by the fill rule, found by the false-positive scan of session 28
// (test/lint-scan/results/2026-12-04-scan-precscan8a.md). Small examples written fresh, each with its buggy forms,
// which must still be reported.
//  1. ATT007: a zero-filled copy of the scores made in a helper for a statistic (`s = scores.float().masked_fill(~valid,
//     0.0)`, summed per chunk of keys and ranked with topk, as a chunk router's oracle does). Zero is the neutral
//     element of the sum; the copy never reaches a softmax: the helper neither normalises nor returns it, and the
//     softmax of the scores sits in the function that formed them, reading its own tensor masked with -inf.
//     The same copy in the function that normalises the scores (`mass = scores.detach().masked_fill(~valid, 0.0)`,
//     ranked into a keep mask for the softmax's own -inf fill) is no softmax input either: the scores the softmax
//     normalises, followed back, never pass through the zero fill.
import { strict as assert } from 'node:assert';
import { findingLines } from './helpers';

const codes = findingLines;

const CHUNK_ORACLE = `import math
import torch
import torch.nn.functional as F


def chunk_mass(scores, valid, n_chunks):
    # Summed scores per chunk of keys, to rank the chunks (no softmax here).
    s = scores.float().masked_fill(~valid, 0.0)
    B, H, T, S = s.shape
    mass = s.view(B, H, T, n_chunks, S // n_chunks).sum(-1)
    return mass.topk(2, dim=-1).indices


def attention(q, k, v, n_chunks=4):
    T, S = q.size(-2), k.size(-2)
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
    valid = torch.ones(T, S, dtype=torch.bool, device=q.device).tril()
    top = chunk_mass(scores.detach(), valid, n_chunks)
    scores = scores.masked_fill(~valid, float("-inf"))
    return F.softmax(scores, dim=-1) @ v, top
`;

describe('lint: a zero-filled copy of the scores summed in a helper is no softmax input (ATT007)', () => {
  it('the helper sums and ranks the copy; the caller masks its own scores with -inf and normalises them: silent', async () => {
    assert.deepEqual(await codes(CHUNK_ORACLE, 'ATT007'), []);
  });
  it('buggy: the helper returns the zero-filled scores (assigned, then returned) and the caller normalises them', async () => {
    const src = CHUNK_ORACLE.replace('return mass.topk(2, dim=-1).indices', 'return s')
      .replace('top = chunk_mass(scores.detach(), valid, n_chunks)', 'scores = chunk_mass(scores, valid, n_chunks)')
      .replace('    scores = scores.masked_fill(~valid, float("-inf"))\n', '    top = None\n');
    assert.deepEqual(await codes(src, 'ATT007'), [8]);
  });
  it('buggy: the zero-filled scores returned inside a tuple with the ranking, and normalised by the caller', async () => {
    const src = CHUNK_ORACLE.replace('return mass.topk(2, dim=-1).indices', 'return s, mass.topk(2, dim=-1).indices')
      .replace('top = chunk_mass(scores.detach(), valid, n_chunks)', 'scores, top = chunk_mass(scores, valid, n_chunks)')
      .replace('    scores = scores.masked_fill(~valid, float("-inf"))\n', '');
    assert.deepEqual(await codes(src, 'ATT007'), [8]);
  });
  it('buggy: the helper normalises the zero-filled copy itself', async () => {
    const src = CHUNK_ORACLE.replace('return mass.topk(2, dim=-1).indices', 'return F.softmax(s, dim=-1)');
    assert.deepEqual(await codes(src, 'ATT007'), [8]);
  });
  it("buggy: the helper fills the caller's scores in place (`masked_fill_`), which the caller then normalises", async () => {
    const src = CHUNK_ORACLE.replace('    s = scores.float().masked_fill(~valid, 0.0)\n', '    scores.masked_fill_(~valid, 0.0)\n    s = scores\n')
      .replace('top = chunk_mass(scores.detach(), valid, n_chunks)', 'top = chunk_mass(scores, valid, n_chunks)')
      .replace('    scores = scores.masked_fill(~valid, float("-inf"))\n', '');
    assert.deepEqual(await codes(src, 'ATT007'), [8]);
  });
  it('buggy: the same zero fill where the scores are formed and normalised is still reported', async () => {
    const src = CHUNK_ORACLE.replace('scores = scores.masked_fill(~valid, float("-inf"))', 'scores = scores.masked_fill(~valid, 0.0)');
    assert.deepEqual(await codes(src, 'ATT007'), [19]);
  });
});

const SAME_FUNCTION = `import math
import torch
import torch.nn.functional as F


def attention(q, k, v, keep_top=2):
    T, S = q.size(-2), k.size(-2)
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
    valid = torch.ones(T, S, dtype=torch.bool, device=q.device).tril()
    mass = scores.detach().masked_fill(~valid, 0.0)
    top = mass.topk(keep_top, dim=-1).indices
    keep = torch.zeros_like(valid.expand_as(scores)).scatter(-1, top, True) & valid
    scores = scores.masked_fill(~keep, torch.finfo(scores.dtype).min)
    return F.softmax(scores, dim=-1) @ v
`;

describe('lint: a zero-filled copy ranked in the function that normalises the scores is no softmax input (ATT007)', () => {
  it('the copy is ranked into a keep mask; the softmax reads the scores filled with the dtype minimum: silent', async () => {
    assert.deepEqual(await codes(SAME_FUNCTION, 'ATT007'), []);
  });
  it('a zero-filled copy summed inline before the softmax of the -inf-masked scores: silent', async () => {
    const src = SAME_FUNCTION.replace(
      /    mass = [^]*?    scores = scores.masked_fill\(~keep, torch.finfo\(scores.dtype\).min\)\n/,
      '    stat = scores.masked_fill(~valid, 0.0).sum(-1)\n    scores = scores.masked_fill(~valid, float("-inf"))\n',
    );
    assert.match(src, /stat = /);
    assert.deepEqual(await codes(src, 'ATT007'), []);
  });
  it('buggy: the zero-filled copy itself is normalised', async () => {
    const src = SAME_FUNCTION.replace('return F.softmax(scores, dim=-1) @ v', 'return F.softmax(mass, dim=-1) @ v');
    assert.deepEqual(await codes(src, 'ATT007'), [10]);
  });
  it('buggy: the scores are zero-filled in place of the -inf fill and normalised', async () => {
    const src = SAME_FUNCTION.replace('scores.masked_fill(~keep, torch.finfo(scores.dtype).min)', 'scores.masked_fill(~keep, 0.0)');
    assert.deepEqual(await codes(src, 'ATT007'), [13]);
  });
  it('buggy: the copy reaches the softmax through torch.where', async () => {
    const src = SAME_FUNCTION.replace('return F.softmax(scores, dim=-1) @ v', 'return F.softmax(torch.where(keep, mass, scores), dim=-1) @ v');
    assert.deepEqual(await codes(src, 'ATT007'), [10]);
  });
  it('buggy: in a loop, the copy made after the softmax is what the next iteration normalises', async () => {
    const src = `import math
import torch
import torch.nn.functional as F


def attention(q, k, v):
    T, S = q.size(-2), k.size(-2)
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
    valid = torch.ones(T, S, dtype=torch.bool, device=q.device).tril()
    out = scores
    for _ in range(2):
        out = F.softmax(out, dim=-1)
        out = scores.masked_fill(~valid, 0.0)
    return out @ v
`;
    assert.deepEqual(await codes(src, 'ATT007'), [13]);
  });
});
