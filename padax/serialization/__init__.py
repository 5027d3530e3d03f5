"""`padax.save` / `padax.load`: state dicts and other trees of arrays in one file, never pickled.

(padax's own format, below; `format='paddle'` / `'safetensors'` write Paddle's pickle or a .safetensors
file instead, and `load` reads all three: see padax.paddle_format and padax.safetensors_format.)

The file is a numpy npz archive: each array stored as its raw bytes (`a0`,
`a1`, ...), and a JSON `tree` entry describing the structure with each
array's dtype and shape. Every dtype round-trips (bfloat16 and float8
included), reading it back runs no pickle, and the file is written atomically
(temp file, fsync, rename), so an interrupted save leaves the previous file
whole. What can be saved: Tensors, numpy arrays and scalars, None, bool, int,
float, complex, str, and lists, tuples and dicts (str or int keys) of them.
"""
from __future__ import annotations

from padax.core.atomic_file import atomic_write  # a public name here since padax.serialization was one module
from padax.serialization._archive import (LoadError, array_entries, describe_damage, json_entry, open_archive,
                                          read_arrays, read_json, read_member, write_archive)
from padax.serialization._save_load import FORMAT, FORMAT_VERSION, FORMATS, load, save
from padax.serialization._tree import decode_tree, encode_tree, tree_is_valid
