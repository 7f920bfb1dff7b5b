import numpy as np
import theano
import theano.tensor as T

# keeps log() finite for nodes whose existence strength is exactly zero
EPSILON = np.array(1e-8, np.float32)


def init_params(shape, stddev=0.1, shift=0.0):
    values = np.random.normal(shift, stddev, shape).astype(np.float32)
    return theano.shared(values)


def dense(ipt, weights, biases, activation=T.tanh):
    return activation(T.dot(ipt, weights) + T.shape_padleft(biases))
