"""A stand-in for the few torch calls that corpus.py and oracle.py make, so
that the corpus's runner (the fork per run, the settings, the phases, the
deadline) is checked on a machine with no GPU: tests/oracle/corpus_dry_run.sh.
Its allocator is no allocator: a block takes its size rounded up to 2 MiB,
and nothing is cached. It is not PyTorch and proves nothing about it."""
import os
import pickle

__version__ = "0.0-stand-in"
_state = {"initialized": False, "conf": None, "allocated": 0, "peak": 0, "next": 1 << 40, "blocks": {},
          "fraction": None, "events": [], "recording": False}
_TOTAL = 80 * (1 << 30)


class OutOfMemoryError(RuntimeError):
    pass


def _init():
    if not _state["initialized"]:
        _state["initialized"] = True
        if _state["conf"] is None:
            _state["conf"] = os.environ.get("PYTORCH_CUDA_ALLOC_CONF", "")


class _C:
    @staticmethod
    def _accelerator_setAllocatorSettings(conf):
        _state["conf"] = conf


class _Props:
    total_memory = _TOTAL


class _Memory:
    @staticmethod
    def _record_memory_history(**_):
        _state["recording"] = True

    @staticmethod
    def _snapshot():
        return {"segments": [], "device_traces": [list(_state["events"])]}

    @staticmethod
    def _dump_snapshot(path):
        with open(path, "wb") as f:
            pickle.dump(_Memory._snapshot(), f, protocol=4)

    @staticmethod
    def _set_allocator_settings(conf):
        _state["conf"] = conf


class _Stream:
    def __init__(self):
        _init()


class cuda:  # noqa: N801 - named as torch names it
    memory = _Memory
    Stream = _Stream

    @staticmethod
    def is_initialized():
        return _state["initialized"]

    @staticmethod
    def get_device_properties(_):
        _init()
        return _Props

    @staticmethod
    def set_per_process_memory_fraction(fraction, _):
        _init()
        _state["fraction"] = fraction

    @staticmethod
    def default_stream():
        _init()
        return 0

    @staticmethod
    def caching_allocator_alloc(size, _device, _stream):
        _init()
        rounded = (size + (2 << 20) - 1) // (2 << 20) * (2 << 20)
        if _state["fraction"] is not None and _state["allocated"] + rounded > _state["fraction"] * _TOTAL:
            raise OutOfMemoryError("CUDA out of memory (stand-in)")
        ptr = _state["next"]
        _state["next"] += rounded
        _state["blocks"][ptr] = rounded
        _state["allocated"] += rounded
        _state["peak"] = max(_state["peak"], _state["allocated"])
        expandable = "expandable_segments:True" in (_state["conf"] or "")
        if _state["recording"]:
            _state["events"].append({"action": "segment_map" if expandable else "segment_alloc", "addr": ptr,
                                     "size": rounded, "stream": 0})
            _state["events"].append({"action": "alloc", "addr": ptr, "size": size, "stream": 0})
        return ptr

    @staticmethod
    def caching_allocator_delete(ptr):
        _state["allocated"] -= _state["blocks"].pop(ptr)
        if _state["recording"]:
            _state["events"].append({"action": "free_completed", "addr": ptr, "size": 0, "stream": 0})

    @staticmethod
    def empty_cache():
        pass

    @staticmethod
    def synchronize():
        pass

    @staticmethod
    def memory_stats():
        conf = _state["conf"] or ""
        split = None
        for item in conf.split(","):
            if item.startswith("max_split_size_mb:"):
                split = int(item.split(":")[1]) << 20
        return {"num_alloc_retries": 0, "num_ooms": 0, "max_split_size": split if split else -1}

    @staticmethod
    def max_memory_allocated():
        return _state["peak"]

    @staticmethod
    def max_memory_reserved():
        return _state["peak"]
