import torch
import torch.nn as nn


class Neuron(nn.Module):
    def __init__(self, number_of_inputs: int):
        super().__init__()
        self.weights = nn.Parameter(torch.randn(number_of_inputs) / number_of_inputs**0.5)
        self.bias = nn.Parameter(torch.zeros(()))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x @ self.weights + self.bias  # one output per token


class LayerTorchCompatible(nn.Module):
    """output_dim neurons; their outputs are stacked on a new last axis."""

    def __init__(self, input_dim: int, output_dim: int):
        super().__init__()
        self.neurons = nn.ModuleList([Neuron(input_dim) for _ in range(output_dim)])

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.stack([neuron(x) for neuron in self.neurons], dim=-1)
