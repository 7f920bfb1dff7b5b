import torch

IDX_PIECE = 0
IDX_SQUARE = 1
IDX_CASTLE_B = 0
IDX_CASTLE_W = 1
IDX_TURN = 2
IDX_MOVE = 3
PAD_PIECE = 12  # one past the 12 piece kinds
PAD_SQUARE = 64


def collate_inputs(states):
    """Stacks variable-length piece lists: (B, max_pieces, 2) with padding rows set to PAD_PIECE / PAD_SQUARE."""
    n = len(states)
    longest = max(s.board.size(0) for s in states)
    board = torch.zeros(n, longest, 2, dtype=torch.long)
    board[:, :, IDX_PIECE] = PAD_PIECE
    board[:, :, IDX_SQUARE] = PAD_SQUARE
    meta = torch.full((n, 8), PAD_SQUARE, dtype=torch.long)
    for i, s in enumerate(states):
        board[i, : s.board.size(0)] = s.board
        meta[i] = s.meta
    return board, meta
