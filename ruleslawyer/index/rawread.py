"""Read a Whoosh index's files without importing Whoosh (a draft for a fast cold search).

Opening an index with Whoosh unpickles its TOC, which imports whoosh.fields, analysis,
formats and codecs (most of a search process's start-up). The files themselves are simple:
this module reads the latest TOC (its Whoosh objects unpickled as inert stand-ins, so no
Whoosh module is imported), and per segment the whoosh3 term index (.trm, a two-level hash
table keyed by field number + term bytes), posting blocks (.pst), field-length columns and
the stored-fields column. Everything is read the way the pinned Whoosh-Reloaded version
writes it (`writer.py` writes the same formats); `tests/test_search_rawread.py` compares every
statistic, posting, length and stored field with Whoosh's own reader.

Not used by the search yet: evaluating queries on it exactly as `evaluate.py` does (same
normalisation, same arithmetic, Whoosh as the fallback) is the remaining step.
"""
from __future__ import annotations

import io
import mmap
import os
import pickle
import re
import struct
import zlib
from array import array
from itertools import accumulate
from pathlib import Path

try:  # CPython's own MD5: `hashlib` loads OpenSSL first, 4 ms of a search's start
    from _md5 import md5
except ImportError:  # a build without it
    from hashlib import md5

INDEX_NAME = "MAIN"
_TOC_RE = re.compile(r"^_%s_(\d+)\.toc$" % INDEX_NAME)
_HEADER_MAGIC = b"W3Bl"  # whoosh3 WHOOSH3_HEADER_MAGIC, before a term's first posting block
_TERMINFO = struct.Struct("!BfIBBfII")  # W3TermInfo._struct
_LENGTHS = struct.Struct("!ii")  # key and value lengths of a hash-file row
_POINTER = struct.Struct("!Iq")  # hash-table slot: hash, row position
_DIR_ENTRY = struct.Struct("!qi")  # hash-table directory: position, slots
_INT = struct.Struct("!i")
_LONG = struct.Struct("!q")
_USHORT = struct.Struct("!H")
_NO_ID = 0xFFFFFFFF
# whoosh.util.numeric's byte -> length table (lengths are stored as one of 256 byte codes).
LENGTH_OF_BYTE = (
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 13, 14, 16, 17, 18, 20, 21, 23, 25, 26, 28, 30, 32, 34, 36, 38, 40,
    42, 45, 47, 49, 52, 54, 57, 60, 63, 66, 69, 72, 75, 79, 82, 86, 89, 93, 97, 101, 106, 110, 114, 119, 124,
    129, 134, 139, 145, 150, 156, 162, 169, 175, 182, 189, 196, 203, 211, 219, 227, 235, 244, 253, 262, 271,
    281, 291, 302, 313, 324, 336, 348, 360, 373, 386, 399, 414, 428, 443, 459, 475, 491, 508, 526, 544, 563,
    583, 603, 623, 645, 667, 690, 714, 738, 763, 789, 816, 844, 873, 903, 933, 965, 998, 1032, 1066, 1103,
    1140, 1178, 1218, 1259, 1302, 1345, 1391, 1438, 1486, 1536, 1587, 1641, 1696, 1753, 1811, 1872, 1935,
    1999, 2066, 2135, 2207, 2280, 2356, 2435, 2516, 2600, 2687, 2777, 2869, 2965, 3063, 3165, 3271, 3380,
    3492, 3608, 3728, 3852, 3980, 4112, 4249, 4390, 4536, 4686, 4842, 5002, 5168, 5340, 5517, 5700, 5889,
    6084, 6286, 6494, 6709, 6932, 7161, 7398, 7643, 7897, 8158, 8428, 8707, 8995, 9293, 9601, 9918, 10247,
    10586, 10936, 11298, 11671, 12057, 12456, 12868, 13294, 13733, 14187, 14656, 15141, 15641, 16159, 16693,
    17244, 17814, 18403, 19011, 19640, 20289, 20959, 21652, 22367, 23106, 23869, 24658, 25472, 26314, 27183,
    28081, 29009, 29967, 30957, 31979, 33035, 34126, 35254, 36418, 37620, 38863, 40146, 41472, 42841, 44256,
    45717, 47227, 48786, 50397, 52061, 53780, 55556, 57390, 59285, 61242, 63264, 65352, 67510, 69739, 72041,
    74419, 76876, 79414, 82035, 84743, 87541, 90430, 93416, 96499, 99684, 102975, 106374)
# Field classes whose pickled instance says `scorable` (ID and STORED never score).
_SCORABLE_CLASSES = {"TEXT", "KEYWORD"}
_KNOWN_CLASSES = _SCORABLE_CLASSES | {"ID", "STORED"}


class UnreadableIndex(Exception):
    """The files are not in the form this reader knows: use Whoosh instead."""


# ---------------------------------------------------------------- the TOC
class _Inert:
    """Stands in for a pickled Whoosh object: keeps its state, runs none of its code."""

    def __new__(cls, *args, **kwargs):
        return object.__new__(cls)

    def __init__(self, *args, **kwargs):
        self._args = args

    def __setstate__(self, state):
        if isinstance(state, tuple) and len(state) == 2:  # (dict, slots)
            state = {**(state[0] or {}), **(state[1] or {})}
        if isinstance(state, dict):
            self.__dict__.update(state)


class _InertUnpickler(pickle.Unpickler):
    classes: dict[tuple[str, str], type] = {}

    def find_class(self, module, name):
        if module.split(".")[0] == "whoosh":
            key = (module, name)
            if key not in self.classes:
                self.classes[key] = type(name, (_Inert,), {"whoosh_class": key})
            return self.classes[key]
        return super().find_class(module, name)


def _varint(stream) -> int:
    b = stream.read(1)[0]
    value, shift = b & 0x7F, 7
    while b & 0x80:
        b = stream.read(1)[0]
        value |= (b & 0x7F) << shift
        shift += 7
    return value


def latest_toc(folder: str | Path) -> tuple[int, Path] | None:
    """(generation, path) of the index's newest TOC file, or None (Whoosh's own choice)."""
    best = None
    for name in os.listdir(folder):
        m = _TOC_RE.match(name)
        if m and (best is None or int(m.group(1)) > best[0]):
            best = (int(m.group(1)), Path(folder) / name)
    return best


class Segment:
    """One segment: its documents, deletions, field lengths and files."""

    def __init__(self, folder: Path, state: dict):
        self.folder = folder
        self.name = f"{state['indexname']}_{state['segid']}"
        self.doc_count_all = int(state["_doccount"])
        self.deleted = frozenset(state.get("_deleted") or ())
        self.field_lengths = dict(state.get("_fieldlengths") or {})
        if state.get("compound"):
            raise UnreadableIndex("compound segment")
        self._files: dict[str, mmap.mmap | bytes] = {}
        self._terms = None
        self._lengths: dict[str, bytes] = {}
        self._stored = None

    def open_files(self, names: list[str]) -> None:
        """Map every file of this segment now (as Whoosh opens a segment's files when it opens
        the index): an update that merges segments may delete them later; open maps stay."""
        prefix = self.name + "."
        for name in names:
            if name.startswith(prefix):
                with open(self.folder / name, "rb") as handle:
                    size = os.fstat(handle.fileno()).st_size
                    self._files[name[len(self.name):]] = (
                        mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ) if size else b"")
        for ext in (".trm", ".pst", "._stored.col"):
            if ext not in self._files:
                raise FileNotFoundError(self.folder / (self.name + ext))

    def _file(self, ext: str):
        return self._files[ext]

    def close(self) -> None:
        for data in self._files.values():
            if isinstance(data, mmap.mmap):
                data.close()
        self._files.clear()

    # ------------------------------------------------------------ terms
    def _term_index(self):
        if self._terms is None:
            data = self._file(".trm")
            if data[:4] != b"HSH3" or data[4] != 0:  # magic, MD5 hashes
                raise UnreadableIndex("term index header")
            end = len(data) - 4
            extras_pos = end - _INT.unpack_from(data, end)[0]
            extras = pickle.loads(data[extras_pos:end])
            tables_pos = extras_pos - 256 * _DIR_ENTRY.size
            tables = [_DIR_ENTRY.unpack_from(data, tables_pos + i * _DIR_ENTRY.size) for i in range(256)]
            self._terms = (data, tables, extras["fieldmap"])
        return self._terms

    def term_info(self, field: str, text: str) -> "TermInfo | None":
        """The statistics and postings pointer of `text` in `field`, or None."""
        data, tables, fieldmap = self._term_index()
        number = fieldmap.get(field)
        if number is None:
            return None
        key = _USHORT.pack(number) + text.encode("utf-8")
        keyhash = int.from_bytes(md5(key, usedforsecurity=False).digest()[-4:], "big")
        start, slots = tables[keyhash & 255]
        if not slots:
            return None
        slot = ((keyhash >> 8) % slots)
        for _ in range(slots):
            found_hash, row = _POINTER.unpack_from(data, start + slot * _POINTER.size)
            if not row:
                return None
            if found_hash == keyhash:
                keylen, valuelen = _LENGTHS.unpack_from(data, row)
                keystart = row + _LENGTHS.size
                if keylen == len(key) and data[keystart:keystart + keylen] == key:
                    return TermInfo(data[keystart + keylen:keystart + keylen + valuelen])
            slot = (slot + 1) % slots
        return None

    def postings(self, info: "TermInfo") -> tuple[list[int], list[float]]:
        """(docnums, weights) of a term, deleted documents included, as Whoosh's matcher
        gives them (a block's single weight is a 32-bit float there)."""
        if info.inlined is not None:
            ids, weights, _ = info.inlined
            return list(ids), list(weights)
        data = self._file(".pst")
        pos = info.offset
        if data[pos:pos + 4] != _HEADER_MAGIC:
            raise UnreadableIndex("posting block tag")
        pos += 4
        ids: list[int] = []
        weights: list[float] = []
        while True:
            length = _INT.unpack_from(data, pos)[0]
            last = length < 0
            length = abs(length)
            nextpos = pos + 4 + length
            stream = io.BytesIO(data[pos + 4:nextpos])
            count, _, _, compression, _, _ = pickle.load(stream)
            raw = stream.read()
            block_ids, block_weights, _ = pickle.loads(zlib.decompress(raw) if compression else raw)
            ids.extend(accumulate(block_ids))  # the first is a document number, then gaps
            if block_weights is None:
                weights.extend([1.0] * count)
            elif isinstance(block_weights, float):
                weights.extend(array("f", [block_weights]).tolist() * count)
            else:
                weights.extend(block_weights)
            if last:
                return ids, weights
            pos = nextpos

    # ------------------------------------------------------------ per-document columns
    def length_bytes(self, field: str) -> bytes:
        """The byte-coded length of `field` in every document (0 where empty or absent)."""
        if field not in self._lengths:
            raw = bytes(self._files.get(f"._{field}_len.col", b""))
            raw = raw[:self.doc_count_all]
            self._lengths[field] = raw + bytes(self.doc_count_all - len(raw))
        return self._lengths[field]

    def stored_fields(self, docnum: int) -> dict:
        """The stored fields of a document ({} when it has none)."""
        if self._stored is None:
            data = self._file("._stored.col")
            count = self.doc_count_all
            last = len(data) - 1
            code = chr(data[last])
            offsets = None
            if code == "X":
                code, offsets_code = chr(data[last - 2]), chr(data[last - 1])
                size = struct.calcsize(offsets_code)
                start = last - 2 - count * size
                offsets = _big_array(offsets_code, data[start:start + count * size])
                last = start
            size = struct.calcsize(code)
            lengths = _big_array(code, data[last - size * count:last])
            if offsets is None:
                offsets, base = [], 0
                for n in lengths:
                    offsets.append(base)
                    base += n
            self._stored = (data, offsets, lengths)
        data, offsets, lengths = self._stored
        if docnum >= len(lengths) or not lengths[docnum]:
            return {}
        raw = data[offsets[docnum]:offsets[docnum] + lengths[docnum]]
        value = pickle.loads(zlib.decompress(raw))
        return value if value is not None else {}


def _big_array(code: str, raw: bytes) -> array:
    values = array(code)
    values.frombytes(raw)
    if struct.pack("=H", 1) != struct.pack("!H", 1):
        values.byteswap()
    return values


class TermInfo:
    """A term's statistics (W3TermInfo's bytes)."""

    __slots__ = ("weight", "doc_frequency", "min_length", "max_length", "max_weight", "min_id", "max_id",
                 "inlined", "offset", "length")

    def __init__(self, raw: bytes):
        flags, self.weight, self.doc_frequency, minlen, maxlen, self.max_weight, minid, maxid = \
            _TERMINFO.unpack_from(raw)
        self.min_length = LENGTH_OF_BYTE[minlen]
        self.max_length = LENGTH_OF_BYTE[maxlen]
        self.min_id = None if minid == _NO_ID else minid
        self.max_id = None if maxid == _NO_ID else maxid
        rest = raw[_TERMINFO.size:]
        if flags:
            self.inlined, self.offset, self.length = pickle.loads(rest), None, None
        else:
            self.inlined = None
            self.offset = _LONG.unpack_from(rest)[0]
            self.length = _INT.unpack_from(rest, _LONG.size)[0]


class RawIndex:
    """The newest generation of the Whoosh index in `folder`, read without Whoosh.

    Raises UnreadableIndex (or OSError) when the files are not what this reader knows.
    """

    def __init__(self, folder: str | Path):
        self.folder = Path(folder)
        found = latest_toc(self.folder)
        if found is None:
            raise UnreadableIndex("no TOC")
        self.generation, toc = found
        with open(toc, "rb") as stream:
            if [_varint(stream) for _ in range(3)] != [4, 8, 4]:
                raise UnreadableIndex("TOC sizes")
            check, version = struct.unpack("!ii", stream.read(8))
            if check != -12345 or version != -111:
                raise UnreadableIndex("TOC version")
            for _ in range(3):
                _varint(stream)  # Whoosh's release
            schema = _InertUnpickler(io.BytesIO(stream.read(_varint(stream)))).load()
            generation, _ = struct.unpack("!ii", stream.read(8))
            if generation != self.generation:
                raise UnreadableIndex("TOC generation")
            segments = _InertUnpickler(stream).load()
        self.scorable: dict[str, bool] = {}
        for name, fieldobj in schema._fields.items():
            cls = type(fieldobj).__name__
            if cls not in _KNOWN_CLASSES:
                raise UnreadableIndex(f"field type {cls}")
            self.scorable[name] = bool(vars(fieldobj).get("scorable")) if cls in _SCORABLE_CLASSES else False
        self.segments = []
        for seg in segments:
            key = getattr(type(seg), "whoosh_class", None)
            if key != ("whoosh.codec.whoosh3", "W3Segment"):
                raise UnreadableIndex(f"segment type {key}")
            self.segments.append(Segment(self.folder, vars(seg)))
        names = os.listdir(self.folder)
        try:
            for seg in self.segments:
                seg.open_files(names)
        except BaseException:
            self.close()
            raise
        self.offsets = []
        base = 0
        for seg in self.segments:
            self.offsets.append(base)
            base += seg.doc_count_all
        self.doc_count_all = base

    def close(self) -> None:
        for seg in self.segments:
            seg.close()

    def __enter__(self) -> "RawIndex":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def field_length(self, field: str) -> int:
        """The total length of `field` over every segment (as Whoosh's reader sums it)."""
        return sum(seg.field_lengths.get(field, 0) for seg in self.segments)

    def doc_frequency(self, field: str, text: str) -> int:
        """Documents (deleted ones included, as in Whoosh) whose `field` holds `text`."""
        total = 0
        for seg in self.segments:
            info = seg.term_info(field, text)
            if info is not None:
                total += info.doc_frequency
        return total

    def stored_fields(self, docnum: int) -> dict:
        """The stored fields of index-wide document number `docnum`."""
        for seg, base in zip(reversed(self.segments), reversed(self.offsets)):
            if docnum >= base:
                return seg.stored_fields(docnum - base)
        raise IndexError(docnum)
