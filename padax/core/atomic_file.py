"""Files written all at once: `atomic_write` puts the bytes in a temporary in the same folder, fsyncs
and renames it over the target, so a reader sees the old file or the new one, never half of one.

Used by padax.save/load's formats, padax.numpy.save/savez and the distributed checkpoints (it imports
nothing of padax, so every floor may use it)."""
from __future__ import annotations

import os
import tempfile


def _file_mode() -> int:
    """rw for whom the umask allows (a temp file starts private; the saved file should not be)."""
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


_FILE_MODE = _file_mode()


def _temp_prefix(path: str) -> str:
    """Temporaries are named after their target and writer: `.NAME.PID.` + random + `.tmp`."""
    return f".{os.path.basename(path)}."


def _remove_stale_temporaries(path: str) -> None:
    """Delete temporaries of `path` left by writers that died mid-save (their process is gone)."""
    directory = os.path.dirname(path) or "."
    prefix = _temp_prefix(path)
    try:
        names = [n for n in os.listdir(directory) if n.startswith(prefix) and n.endswith(".tmp")]
    except OSError:
        return
    for name in names:
        pid_text = name[len(prefix):].split(".", 1)[0]
        if pid_text.isdigit() and int(pid_text) != os.getpid() and _process_alive(int(pid_text)):
            continue  # another live process is writing this target right now
        try:
            os.unlink(os.path.join(directory, name))
        except OSError:
            pass


def _process_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def atomic_write(path: str, data: bytes) -> None:
    """Write `data` to `path` all at once (temp file in the same folder, fsync, rename): never half a file.

    A writer killed mid-save leaves only its temporary (named after the target and its pid), which the
    next save of the same target removes.
    """
    directory = os.path.dirname(path) or "."
    os.makedirs(directory, exist_ok=True)
    _remove_stale_temporaries(path)
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=f"{_temp_prefix(path)}{os.getpid()}.", suffix=".tmp")
    try:
        os.fchmod(fd, _FILE_MODE)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
