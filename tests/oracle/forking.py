"""Fresh processes for GPU runs without paying for `import torch` each time.

The caller imports torch in its own process and never touches CUDA there;
run_forked(fn, *args) forks a child, which creates its own CUDA context
(the allocator starts afresh, PYTORCH_CUDA_ALLOC_CONF read from the child's
environment), runs fn(*args) and hands back its JSON-able result through a
file. Safe to call from several threads at once: each waits for its own
child only.
"""
import json
import os
import sys
import tempfile
import traceback

_FOLDER = tempfile.mkdtemp(prefix="iteragpu-forked-")


def run_forked(fn, *args, env=None):
    """fn(*args) in a forked child; its result, or {"error": ...} when it
    raised or died. env: variables to set (None: unset) in the child."""
    fd, path = tempfile.mkstemp(dir=_FOLDER, suffix=".json")
    os.close(fd)
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:  # the child: never returns
        status = 0
        try:
            for k, v in (env or {}).items():
                if v is None:
                    os.environ.pop(k, None)
                else:
                    os.environ[k] = v
            result = fn(*args)
        except BaseException:  # noqa: BLE001 - reported to the parent
            result = {"error": traceback.format_exc()[-1500:]}
            status = 1
        try:
            with open(path, "w") as f:
                json.dump(result, f)
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(status)
    _, status = os.waitpid(pid, 0)
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return {"error": f"child ended with wait status {status} and no result"}
    finally:
        os.unlink(path)
