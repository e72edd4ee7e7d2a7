"""What tests/analysis/ reads of a compile database: an entry's command
without its output, its dependency files and (where asked) its source."""
import os
import shlex

# The options that name an output or a dependency file, each followed by it.
_OUTPUT_OPTIONS = ("-o", "-MF", "-MT", "-MQ")
# The options that ask for an output, a dependency file or an object.
_OUTPUT_FLAGS = ("-c", "-MD", "-MMD")


def bare_command(entry, source=None):
    """The entry's arguments, compiler first, less its output and dependency
    files, and less `source` (a normalised path) when given."""
    args = shlex.split(entry["command"]) if "command" in entry else list(entry["arguments"])
    out, skip = [], False
    for a in args:
        if skip:
            skip = False
            continue
        if a in _OUTPUT_OPTIONS:
            skip = True
            continue
        if a in _OUTPUT_FLAGS or (source is not None and os.path.normpath(os.path.join(entry["directory"], a)) == source):
            continue
        out.append(a)
    return out
