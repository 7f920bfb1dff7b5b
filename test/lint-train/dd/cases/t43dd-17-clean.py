# case: t43dd-17-clean
# modelled-on: mits58/Pointer-Networks https://github.com/mits58/Pointer-Networks/commit/476dee5b3c6c048feaea61594d00ac8dcd811829
# label: correct
# class: clean
# pattern: a Chainer pointer network (convex hull / planar point tasks): for each example of a list batch, encoder states e (n, H) and decoder states d (m, H); `W1(e)` repeated over the m decoder steps and `W2(d)` repeated over the n encoder positions and transposed to (m, n, H); `v(tanh(...))` squeezed to (m, n) pointer logits; `softmax(logits, axis=-1)` for the argmax pointer and `softmax_cross_entropy` on the logits for the loss
# why: correct: after the transpose both terms are laid out (m decoder steps, n encoder positions, H), so the squeezed scores are (m, n) and axis -1 runs over the n input positions the pointer chooses from; a pointer network outputs the distribution itself, there is no product with values to check against
# looks-like: ATT001
# source: https://github.com/mits58/Pointer-Networks https://github.com/mits58/Pointer-Networks/commit/476dee5b3c6c048feaea61594d00ac8dcd811829 ptrnet.py
import chainer
import chainer.functions as F
import chainer.links as L


class PointerScores(chainer.Chain):
    def __init__(self, hidden):
        super().__init__()
        with self.init_scope():
            self.W1 = L.Linear(hidden, hidden)
            self.W2 = L.Linear(hidden, hidden)
            self.v = L.Linear(hidden, 1)

    def __call__(self, enc_states, dec_states):
        logits, picks = [], []
        for e, d in zip(enc_states, dec_states):
            n = e.shape[0]
            m = d.shape[0]
            ee = F.repeat(F.expand_dims(self.W1(e), axis=0), m, axis=0)
            dd = F.transpose(F.repeat(F.expand_dims(self.W2(d), axis=0), n, axis=0), (1, 0, 2))
            s = F.squeeze(self.v(F.tanh(dd + ee), n_batch_axes=len(ee.shape) - 1))
            logits.append(s)
            picks.append(F.argmax(F.softmax(s, axis=-1), axis=-1))
        return logits, picks


class PointerNet(chainer.Chain):
    def __init__(self, in_dim, hidden):
        super().__init__()
        with self.init_scope():
            self.encoder = L.NStepLSTM(1, in_dim, hidden, 0.1)
            self.decoder = L.NStepLSTM(1, in_dim, hidden, 0.1)
            self.point = PointerScores(hidden)
        self.in_dim = in_dim

    def __call__(self, xs, ys):
        xp = self.device.xp
        xs = [chainer.Variable(x).reshape(-1, self.in_dim) for x in xs]
        start = chainer.Variable(xp.zeros((1, self.in_dim), dtype="float32"))
        dec_in = [F.concat([start, F.concat([x[i - 1] for i in y], axis=0).reshape(-1, self.in_dim)], axis=0) for x, y in zip(xs, ys)]
        targets = [F.concat([y, xp.array([0])], axis=0) for y in ys]
        hx, cx, enc = self.encoder(None, None, xs)
        _, _, dec = self.decoder(hx, None, dec_in)
        logits, _ = self.point(enc, dec)
        losses = [F.softmax_cross_entropy(s, t - 1) for s, t in zip(logits, targets)]
        return F.sum(F.stack(losses)) / len(xs)
