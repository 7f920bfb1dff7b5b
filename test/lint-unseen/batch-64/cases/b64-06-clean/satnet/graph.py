import numpy as np
import tensorflow as tf


def clause_literal_adjacency(clauses, n_vars):
    """Sparse (n_clauses, 2 * n_vars) incidence of a CNF formula: 1 where the clause holds the literal.

    Literal v > 0 is column v - 1, literal -v is column n_vars + v - 1.
    """
    rows, cols = [], []
    for c, clause in enumerate(clauses):
        for lit in clause:
            rows.append(c)
            cols.append(lit - 1 if lit > 0 else n_vars - lit - 1)
    idx = np.stack([rows, cols], axis=1).astype(np.int64)
    adj = tf.sparse.SparseTensor(idx, tf.ones(len(rows), tf.float32), (len(clauses), 2 * n_vars))
    return tf.sparse.reorder(adj)


def literal_clause_adjacency(adj):
    return tf.sparse.reorder(tf.sparse.transpose(adj))
