"""Outputs checked before a run: a report that cannot be written is found out before the
scenarios run, not after."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def unwritable_file(path: Path) -> str | None:
    """Why `path` cannot be written, or None. Found by opening it for appending (and
    removing it again if it was not there): os.access says yes to root for any file."""
    if path.is_dir():
        return "it is a folder"
    existed = path.exists()
    try:
        with open(path, "a", encoding="utf-8"):
            pass
    except OSError as error:
        return error.strerror or str(error)
    if not existed:
        os.unlink(path)
    return None


def unwritable_folder(path: Path) -> str | None:
    """Why files cannot be written into the folder `path` (made if missing), or None."""
    if path.exists() and not path.is_dir():
        return "it is not a folder"
    try:
        path.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=path):
            pass
    except OSError as error:
        return error.strerror or str(error)
    return None


def replace(path: Path, text: str) -> None:
    """Write a file whose name the harness chose (a saved case, a page of the HTML report)
    whole, as a new file renamed over the name: never through a symbolic link planted
    there (it is replaced, its target untouched), never half written. Not for a file the
    user names (`--report-json /dev/stdout` is written through its link)."""
    with tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=path.parent,
                                     prefix=f".{path.stem[:64]}-", suffix=".tmp",
                                     delete=False) as stream:
        try:
            stream.write(text)
        except BaseException:
            stream.close()
            os.unlink(stream.name)
            raise
    try:
        mask = os.umask(0)
        os.umask(mask)
        os.chmod(stream.name, 0o666 & ~mask)  # as an ordinary new file, not the temp's 0600
        os.replace(stream.name, path)
    except BaseException:
        os.unlink(stream.name)
        raise
