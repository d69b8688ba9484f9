"""Files of named numpy arrays with a JSON header that says what they are: written whole
(a temporary file renamed into place, so a reader never sees half a file) and read back
with one clear error for a damaged file or one of another kind or version.
training/value_shards.py and training/labels.py keep their records so."""

import io
import json
import os
import zipfile

import numpy as np


def write(path, arrays, header, compressed=False):
    """Write `arrays` (a dict of name: array) and `header` (JSON data) to `path` atomically."""
    tmp = f"{path}.tmp{os.getpid()}"
    save = np.savez_compressed if compressed else np.savez
    try:
        with open(tmp, "wb") as f:
            save(f, meta=np.array(json.dumps(header)), **arrays)
        os.replace(tmp, path)
    except BaseException:  # interrupted or failed: leave no half file behind
        if os.path.exists(tmp):
            os.remove(tmp)
        raise


def read(path, names, kind, version, error):
    """(header, arrays) of a file written by write() with header format `kind` and
    `version`; raises `error` (an exception class) with the file's name and the reason
    when it is unreadable, truncated, lacks one of `names`, or is of another kind or
    version ("a value shard", "a labels file": `kind`'s words for the messages)."""
    name = os.path.basename(path)
    format_name, words = kind
    try:
        with open(path, "rb") as f:
            data = f.read()
        with np.load(io.BytesIO(data), allow_pickle=False) as f:
            header = json.loads(str(f["meta"]))
            arrays = {key: f[key] for key in names}
    except KeyError as exc:
        raise error(f"{name}: not {words} (no {exc.args[0]} array)") from None
    except (OSError, ValueError, EOFError, zipfile.BadZipFile) as exc:
        raise error(f"{name}: unreadable or truncated ({exc})") from None
    if not isinstance(header, dict) or header.get("format") != format_name:
        raise error(f"{name}: not {words} (format "
                    f"{header.get('format') if isinstance(header, dict) else None!r})")
    if header.get("version") != version:
        raise error(f"{name}: format version {header.get('version')} of {words}, "
                    f"this program reads version {version}")
    return header, arrays
