class CacheMixin:
    """Per-module cache slots kept in a dict shared by the whole model."""

    def _init_cache(self, shared):
        self.shared = shared
        self.slot = shared["next_id"]
        shared["next_id"] += 1

    def cache_on(self) -> bool:
        return self.shared["cache_on"]

    def get_cache(self, key):
        return self.shared["cache"].get(self.slot, {}).get(key)

    def set_cache(self, key, value):
        self.shared["cache"].setdefault(self.slot, {})[key] = value

    def has_cache(self, key) -> bool:
        return self.get_cache(key) is not None


def new_shared_state():
    return {"cache_on": False, "cache": {}, "next_id": 0}
