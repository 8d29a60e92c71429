"""Bulk writing of Whoosh segments: our own analysis, postings gathered per term, whole blocks.

Whoosh's writer spends nearly all of a build in Python per token and per posting: a chain of
analyzer generators per token, one tuple per posting into a pool that is then sorted, and at
commit one `add_posting` call (with type asserts and a field-length column read) per posting.
On the 4,097 records of the Wahapedia export that was 33 s of CPU for 1.46 million postings.

Here a document's text fields come already analyzed (`analyze`: the same tokenizer, case
folding and Porter stems the schema's analyzer applies, words stemmed once through a cache),
its postings are appended to per-term lists as it is added (documents arrive in docnum order,
so every list is sorted), and at commit each term's list is cut into Whoosh's blocks of 128 and
written with the codec's own block writer. The files are the whoosh3 codec's, byte for byte
what Whoosh would write for the same postings (tests compare the scores of both).

This module knows the internals of the pinned Whoosh-Reloaded version (the segment writer's
per-document writer, pool and field writer, the whoosh3 postings writer's block buffer);
`evaluate.py` reads the same internals.
"""
from __future__ import annotations

import sys
from array import array
from collections import Counter
from typing import Iterable

from . import analysis

# Fields whose values `analyze` turns into index terms itself (all Frequency-format fields
# analyzed with `analysis.text_analyzer`, plus the word-pair field).
ANALYZED_FIELDS = ("tags", "text", "faction", "group", "keywords", "abilities", "weapons", "section", "pairs")
# The passages of these fields give the word pairs phrase queries match (see documents.word_pairs).
PAIR_SOURCES = ("name", "text", "tags")
_LITTLE = sys.byteorder == "little"  # Frequency values are big-endian uint32


def analyze(doc: dict) -> tuple[dict[str, list[str]], set[str]]:
    """Index terms of the analyzed fields of `doc`, and the unstemmed words typo correction uses.

    Terms are what `analysis.text_analyzer()` makes of each value; `pairs` are the adjacent
    term pairs of every passage (line) of the name, text and tags.
    """
    stem = analysis.stem
    out: dict[str, list[str]] = {}
    pairs: list[str] = []
    vocabulary: set[str] = set()
    for field in PAIR_SOURCES:
        value = doc.get(field) or ""
        terms: list[str] = []
        for passage in value.split("\n"):
            words = analysis.words(passage)
            if not words:
                continue
            vocabulary.update(words)
            stems = list(map(stem, words))
            terms.extend(stems)
            pairs.extend(map("|".join, zip(stems, stems[1:])))
        if field != "name":
            out[field] = terms
    out["pairs"] = pairs
    for field in ANALYZED_FIELDS:
        if field not in out:
            out[field] = list(map(stem, analysis.words(doc.get(field) or "")))
    return out, vocabulary


class BulkWriter:
    """Adds documents to a Whoosh `SegmentWriter` through the fast path above.

    Use: `bulk = BulkWriter(ix.writer(...))`, `bulk.add(doc, terms)` per document, then
    `bulk.commit()` (or `bulk.cancel()`). Deletions go to the wrapped writer as usual.
    """

    def __init__(self, writer):
        from whoosh.util.numeric import byte_to_length, length_to_byte
        from whoosh.formats import Frequency

        self.writer = writer
        self.schema = writer.schema
        self._frequency = Frequency
        self._quantize = lambda n: byte_to_length(length_to_byte(n)) if n else 0
        self._postings: dict[str, dict] = {}
        self._analyzed: set[str] = set()  # fields whose postings are (docnum, frequency) pairs
        self._lengths: dict[str, dict[int, int]] = {}
        self._original_add_postings = writer.fieldwriter.add_postings
        writer.fieldwriter.add_postings = self._add_postings

    def add(self, doc: dict, terms: dict[str, list[str]]) -> None:
        """Add one document: `doc` field -> value as for Whoosh, `terms` from `analyze`.

        A term's postings are one flat list (docnum, frequency, docnum, frequency, ...) for
        analyzed fields, (docnum, weight, value bytes, ...) for the others: one append a posting.
        """
        w = self.writer
        schema = self.schema
        docnum = w.docnum
        perdoc = w.perdocwriter
        perdoc.start_doc(docnum)
        for fieldname in sorted(set(doc) | set(terms)):
            field = schema[fieldname]
            value = doc.get(fieldname)
            length = 0
            if field.indexed:
                postings = self._postings.get(fieldname)
                if postings is None:
                    postings = self._postings[fieldname] = {}
                pre = terms.get(fieldname)
                if pre is not None and type(field.format) is self._frequency:
                    self._analyzed.add(fieldname)
                    get = postings.get
                    for term, n in Counter(pre).items():
                        entry = get(term)
                        if entry is None:
                            postings[term] = [docnum, n]
                        else:
                            entry += (docnum, n)
                    length = len(pre)
                elif value is not None:
                    for tbytes, freq, weight, vbytes in field.index(value):
                        entry = postings.get(tbytes)
                        if entry is None:
                            entry = postings[tbytes] = []
                        entry += (docnum, weight, vbytes)
                        length += freq
                if not field.scorable:
                    length = 0
                if length:
                    self._lengths.setdefault(fieldname, {})[docnum] = self._quantize(length)
            if value is None and not length:
                continue
            perdoc.add_field(fieldname, field, value if field.stored else None, length)
            if field.column_type and value is not None:
                perdoc.add_column_value(fieldname, field.column_type, field.to_column_value(value))
        perdoc.finish_doc()
        w._added = True
        w.docnum += 1

    def commit(self, **kwargs) -> None:
        self.writer.commit(**kwargs)

    def cancel(self) -> None:
        self.writer.cancel()

    # ------------------------------------------------------------ writing the postings
    def _term_postings(self, fieldname: str) -> list[tuple[bytes, list[int], list, list[int] | list[bytes]]]:
        """(term bytes, docnums, weights, values) of every term of a field, by term. The
        values of an analyzed field are the frequencies as numbers (`_TermWriter` packs them
        a block at a time); of other fields, the value bytes of each posting."""
        out = []
        analyzed = fieldname in self._analyzed
        boost = self.schema[fieldname].format.field_boost
        for term, flat in self._postings[fieldname].items():
            btext = term.encode("utf-8") if isinstance(term, str) else term
            if analyzed:
                freqs = flat[1::2]
                out.append((btext, flat[0::2], freqs if boost == 1 else [n * boost for n in freqs], freqs))
            else:
                out.append((btext, flat[0::3], flat[1::3], flat[2::3]))
        out.sort(key=lambda item: item[0])
        return out

    def _add_postings(self, schema, lengths, items) -> None:
        """Stands in for the field writer's `add_postings` at commit.

        When a merge put postings of older segments into Whoosh's pool, ours are merged into
        that stream and Whoosh writes them all (an incremental update: few of ours); else
        ours are written a field at a time.
        """
        pool = self.writer.pool
        if getattr(pool, "current", None) or getattr(pool, "runs", None):
            import heapq

            from whoosh.system import pack_uint

            def mine():
                for f in sorted(self._postings):
                    analyzed = f in self._analyzed
                    for t, ids, ws, vs in self._term_postings(f):
                        if analyzed:
                            vs = [pack_uint(n) for n in vs]
                        yield from ((f, t, d, w, v) for d, w, v in zip(ids, ws, vs))

            return self._original_add_postings(schema, lengths, heapq.merge(items, mine()))
        fw = self.writer.fieldwriter
        for fieldname in sorted(self._postings):
            fieldobj = schema[fieldname]
            fw.start_field(fieldname, fieldobj)
            write = _TermWriter(fw, fieldobj.format, self._lengths.get(fieldname, {}),
                                frequencies=fieldname in self._analyzed)
            for btext, ids, weights, values in self._term_postings(fieldname):
                write(btext, ids, weights, values)
            write.close()
            fw.finish_field()


class _TermWriter:
    """Writes the terms of one field as the whoosh3 field writer would (`start_term`, one
    `add_posting` per posting, `finish_term`), a block at a time, the field's postings and
    term-index rows gathered in memory and written in a few large writes.

    Block layout (W3PostingsWriter._write_block): the magic before the first block, then per
    block its signed length (negative for the last), the pickled block info (count, last id,
    max weight, compression, min and max length bytes) and the pickled (delta ids, weights,
    values), zlib-compressed. Blocks of fewer than 16 postings are stored uncompressed (the
    reader looks at the compression flag); larger ones at level 1, a third of level 3's time.
    The term index row is what `OrderedHashWriter.add` writes for (field id + term, the
    W3TermInfo bytes), with the same hash (the low 32 bits of the key's MD5).

    Most terms of a corpus are rare (word pairs above all), so the cost per term, not per
    posting, is most of a build: hence no file calls, method calls or object per term here.
    """

    FLUSH_BYTES = 8 << 20

    def __init__(self, fw, format_, lengths: dict[int, int], *, frequencies: bool = False):
        from whoosh.codec.whoosh3 import WHOOSH3_HEADER_MAGIC, W3TermInfo
        from whoosh.filedb import filetables
        from whoosh.system import pack_int, pack_long, pack_ushort
        from whoosh.util.numeric import length_to_byte

        self.limit = fw._codec._blocklimit if hasattr(fw, "_codec") else 128
        self.fixed = format_.fixed_value_size()
        # Frequencies packed as the Frequency format does (big-endian uint32) with one array
        # call a block; else each posting's value bytes as given.
        self.frequencies = frequencies and self.fixed == 4 and array("I").itemsize == 4
        if frequencies and not self.frequencies:
            raise ValueError("analyzed fields must use the Frequency format")
        self.magic = WHOOSH3_HEADER_MAGIC
        self.info_struct = W3TermInfo._struct
        self.pack_int, self.pack_long = pack_int, pack_long
        self.prefix = pack_ushort(fw._fieldid)
        self.to_byte = length_to_byte
        top = max(lengths, default=-1)
        self.lengths = [0] * (top + 1)
        for docnum, n in lengths.items():
            self.lengths[docnum] = n
        self.postfile = fw._postfile.file
        self.post_pos = self.postfile.tell()
        self.post_parts: list[bytes] = []
        self.post_size = 0
        tindex = fw._tindex
        if tindex.hashtype != 0 or tindex.hashfn is not filetables.md5_hash:
            raise ValueError("the term index must use MD5 hashes")
        self.tindex = tindex
        self.row_head = filetables._lengths.pack
        self.tfile = tindex.dbfile
        self.term_pos = self.tfile.tell()
        self.term_parts: list[bytes] = []

    def __call__(self, btext: bytes, ids: list[int], weights: list, values: list) -> None:
        import zlib
        from hashlib import md5
        from operator import sub
        from pickle import dumps

        limit, fixed, to_byte, pack_int = self.limit, self.fixed, self.to_byte, self.pack_int
        get = self.lengths.__getitem__
        startoffset = self.post_pos + self.post_size
        parts = [self.magic]
        total = len(ids)
        minlength = None
        maxlength = 0
        maxweight = 0.0
        weight_sum = 0
        frequencies = self.frequencies
        for start in range(0, total, limit):
            end = start + limit
            if total > limit:
                block, block_weights, block_values = ids[start:end], weights[start:end], values[start:end]
            else:
                block, block_weights, block_values = ids, weights, values
            found = [n for n in map(get, block) if n] if self.lengths else None
            bmin = min(found) if found else None
            bmax = max(found) if found else 0
            bweight = float(max(0, max(block_weights)))
            if bmin is not None and (minlength is None or bmin < minlength):
                minlength = bmin
            if bmax > maxlength:
                maxlength = bmax
            if bweight > maxweight:
                maxweight = bweight
            weight_sum += sum(block_weights)
            deltas = tuple(map(sub, block, [0, *block[:-1]])) if len(block) > 1 else (block[0],)
            first = block_weights[0]
            n = len(block_weights)
            if block_weights.count(first) == n:
                mini_weights = None if first == 1.0 else float(first)
            else:
                mini_weights = tuple(map(float, block_weights))
            if frequencies:
                packed = array("I", block_values)
                if _LITTLE:
                    packed.byteswap()
                mini_values = packed.tobytes()
            elif fixed is None or fixed < 0:
                mini_values = tuple(v for v in block_values if v)
            elif fixed == 0:
                mini_values = None
            else:
                mini_values = b"".join(block_values)
            databytes = dumps((deltas, mini_weights, mini_values), 2)
            comp = 1 if n >= 16 else 0
            if comp:
                databytes = zlib.compress(databytes, comp)
            infobytes = dumps((n, block[-1], bweight, comp, to_byte(bmin), to_byte(bmax)), 2)
            size = len(infobytes) + len(databytes)
            parts += (pack_int(-size if end >= total else size), infobytes, databytes)
        data = b"".join(parts)
        self.post_parts.append(data)
        self.post_size += len(data)
        # W3TermInfo.to_bytes of a term whose postings are not inlined
        info = self.info_struct.pack(False, weight_sum, total, 0 if minlength is None else to_byte(minlength),
                                     to_byte(maxlength), maxweight, ids[0], ids[-1])
        info += self.pack_long(startoffset) + pack_int(len(data))
        key = self.prefix + btext
        h = int.from_bytes(md5(key, usedforsecurity=False).digest()[-4:], "big")
        tindex = self.tindex
        tindex.index.append(self.term_pos)
        tindex.buckets[h & 255].append((h, self.term_pos))
        row = self.row_head(len(key), len(info)) + key + info
        self.term_parts.append(row)
        self.term_pos += len(row)
        tindex.lastkey = key
        if self.post_size >= self.FLUSH_BYTES:
            self._flush()

    def _flush(self) -> None:
        self.postfile.write(b"".join(self.post_parts))
        self.post_pos += self.post_size
        self.post_parts, self.post_size = [], 0
        self.tfile.write(b"".join(self.term_parts))
        self.term_parts = []

    def close(self) -> None:
        """Write what is still gathered (call once the field's terms are all written)."""
        self._flush()


def add_all(bulk: BulkWriter, documents: Iterable[dict], progress=None, total: int | None = None) -> tuple[int, Counter]:
    """Analyze and add `documents` to `bulk`; returns the count and the vocabulary counts."""
    vocabulary: Counter = Counter()
    count = 0
    for doc in documents:
        terms, words = analyze(doc)
        bulk.add(doc, terms)
        vocabulary.update(words)
        count += 1
        if progress is not None and total and count % 200 == 0:
            progress(count, total)
    return count, vocabulary


class _Child:
    """A forked process writing one segment; `result()` waits for (segment, count, words)."""

    def __init__(self, pid: int, result_path: str):
        self.pid = pid
        self.path = result_path

    def result(self):
        import os
        import pickle

        _, status = os.waitpid(self.pid, 0)
        try:
            with open(self.path, "rb") as handle:
                outcome = pickle.load(handle) if os.WEXITSTATUS(status) == 0 else None
        except (OSError, EOFError, pickle.UnpicklingError):
            outcome = None
        finally:
            try:
                os.unlink(self.path)
            except OSError:
                pass
        if outcome is None:
            raise RuntimeError("the second index-writing process failed")
        if isinstance(outcome, BaseException):
            raise outcome
        return outcome

    def kill(self) -> None:
        import os
        import signal

        try:
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
        except OSError:
            pass
        try:
            os.unlink(self.path)
        except OSError:
            pass


def fork_segment(ix, documents: Iterable[dict], limitmb: int) -> _Child:
    """Fork a process that writes `documents` into a new segment of index `ix` (not listed in
    its TOC: the parent lists it). The child dies with an error of its own in the result; it
    also exits if the parent dies (it is killed by the parent on any failure)."""
    import os
    import pickle
    import tempfile

    fd, result_path = tempfile.mkstemp(prefix="segment-", suffix=".pickle", dir=ix.storage.folder)
    os.close(fd)
    pid = os.fork()
    if pid:
        return _Child(pid, result_path)
    code = 1
    try:
        from whoosh.writing import SegmentWriter

        try:
            bulk = BulkWriter(SegmentWriter(ix, _lk=False, limitmb=limitmb, compound=False))
            count, words = add_all(bulk, documents)
            outcome: object = (bulk.writer._finalize_segment(), count, words)
        except Exception as exc:  # reported to the parent, which raises it
            outcome = exc
        with open(result_path, "wb") as handle:
            pickle.dump(outcome, handle)
        code = 0
    finally:
        os._exit(code)
