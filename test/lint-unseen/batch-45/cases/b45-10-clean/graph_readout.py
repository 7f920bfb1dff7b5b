# case: b45-10-clean
# modelled-on: danieldjohnson/gated-graph-transformer-network https://github.com/danieldjohnson/gated-graph-transformer-network/commit/1fd7df8b5629152a7afa9a2a8a67346d52bf0d94
# label: correct
# class: clean
# pattern: a Theano readout of a gated graph transformer network (a folder: the utility module with the EPSILON constant and the dense-layer helper, and this module): every node's id one-hot and state are flattened, a small network gives one attention logit and a representation per node, the node's soft existence strength enters as an additive log(strength + EPSILON) term, T.nnet.softmax normalises the (batch, nodes) logits, and the weighted tanh representations are summed over the nodes
# why: correct: T.nnet.softmax of a 2-D (batch, nodes) matrix normalises each row over the nodes; nodes exist with a continuous strength in [0, 1] in this model, and adding log(strength) multiplies each node's exp-weight by its strength, so a node of strength 0 gets weight of order 1e-8 through log(1e-8 + 0), a deliberate soft mask rather than a fill that fails to mask; the logits are scalar per node, so no 1/sqrt(d) scale applies
# looks-like: ATT001, ATT003, ATT007
# source: https://github.com/danieldjohnson/gated-graph-transformer-network https://github.com/danieldjohnson/gated-graph-transformer-network/commit/1fd7df8b5629152a7afa9a2a8a67346d52bf0d94 transformation_modules/aggregate_representation_softmax.py
import theano.tensor as T

from util import EPSILON, dense, init_params


class SoftmaxGraphReadout(object):
    """Summarises a graph state (n_batch, n_nodes, ...) as one vector per batch element."""

    def __init__(self, width, num_node_ids, node_state_size, hidden=64):
        self.width = width
        self.num_node_ids = num_node_ids
        self.node_state_size = node_state_size
        n_in = num_node_ids + node_state_size
        self.w_hidden = init_params((n_in, hidden))
        self.b_hidden = init_params((hidden,))
        self.w_out = init_params((hidden, width + 1))
        self.b_out = init_params((width + 1,))

    @property
    def params(self):
        return [self.w_hidden, self.b_hidden, self.w_out, self.b_out]

    def process(self, node_ids, node_states, node_strengths):
        """
        node_ids: (n_batch, n_nodes, num_node_ids) one-hot, node_states: (n_batch, n_nodes, node_state_size),
        node_strengths: (n_batch, n_nodes) soft existence in [0, 1]. Returns (n_batch, width).
        """
        n_batch, n_nodes = node_strengths.shape[0], node_strengths.shape[1]
        flat = T.concatenate([node_ids.reshape([-1, self.num_node_ids]),
                              node_states.reshape([-1, self.node_state_size])], axis=1)
        hidden = dense(flat, self.w_hidden, self.b_hidden)
        per_node = dense(hidden, self.w_out, self.b_out, activation=lambda x: x)
        per_node = per_node.reshape([n_batch, n_nodes, self.width + 1])

        logits = per_node[:, :, 0] + T.log(node_strengths + EPSILON)
        weights = T.nnet.softmax(logits)  # (n_batch, n_nodes)
        values = T.tanh(per_node[:, :, 1:])
        return T.sum(T.shape_padright(weights) * values, axis=1)

