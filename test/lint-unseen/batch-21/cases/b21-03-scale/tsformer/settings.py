import configparser

# The defaults of the project's series.config: the model width, then the width of each head's
# query/key and value projections, the heads.
DEFAULTS = {
    "in_features": 13,
    "d_model": 32,
    "d_qk": 12,
    "d_v": 12,
    "d_ff": 64,
    "n_heads": 4,
    "n_encoders": 6,
    "dropout": 0.1,
}


class Settings:
    def __init__(self, path=None):
        self.values = dict(DEFAULTS)
        if path:
            parser = configparser.ConfigParser()
            parser.read(path)
            section = parser["DIMENSIONS AND SIZES"]
            for key in ("in_features", "d_model", "d_qk", "d_v", "d_ff", "n_heads", "n_encoders"):
                self.values[key] = int(section[key])

    def get(self, key):
        return self.values[key]
