"""The canonical bytes of a replay's successive states (storage.chain.canonical's bytes), each
state encoded at a fraction of the cost of encoding it whole: app/fold.py hashes every order
row's state with them (StateBytes' doc says when an entry's bytes are reused)."""

from __future__ import annotations

from collections.abc import Callable
from itertools import chain
from json.encoder import JSONEncoder, c_make_encoder, encode_basestring  # type: ignore[attr-defined]
from operator import and_, eq
from typing import Any

# storage.chain.canonical's encoder without its check for circular references (a state's JSON is
# a tree): the same bytes, a sixth less time on a replay's every state hash
_ENCODE = JSONEncoder(
    sort_keys=True, separators=(",", ":"), ensure_ascii=False, check_circular=False
).encode


def canonical(doc: Any) -> bytes | None:
    try:
        return _ENCODE(doc).encode()
    except (TypeError, ValueError, RecursionError):
        return None


_PLAIN = frozenset((str, int, bool, type(None)))  # equal values of one of these types: same bytes
_COLLECTION = 8  # a dict of at least this many dicts is encoded entry by entry (a state's units)


def _piece_encoder() -> Callable[[Any], str]:
    """_ENCODE with its C encoder made once (JSONEncoder.encode makes it again at every call,
    for each of a state's many pieces): the same text."""
    if c_make_encoder is None:
        return _ENCODE
    c_encode = c_make_encoder(
        None, JSONEncoder().default, encode_basestring, None, ":", ",", True, False, True
    )

    def piece(doc: Any) -> str:
        return "".join(c_encode(doc, 0))

    return piece


_PIECE = _piece_encoder()


class _Collection:
    """What StateBytes remembers of one collection of the state before: its keys (sorted), its
    entries, their lengths, every entry's keys and its values' types (in one list each, entry
    after entry), each entry's '"key":{...}' text, and whether that text may be reused (every
    value a string, an integer, a boolean or None; every key a string)."""

    __slots__ = ("entries", "keys", "known", "lengths", "order", "reusable", "said", "types")

    def __init__(self, entries: dict[str, Any], key: Callable[[str], str]) -> None:
        self.order = sorted(entries)
        self.known = frozenset(self.order)
        self.entries = [*map(entries.__getitem__, self.order)]
        self.lengths, self.keys, self.types = _shape(self.entries)
        self.said = [key(k) + _PIECE(e) for k, e in zip(self.order, self.entries, strict=True)]
        self.reusable = [*map(_reusable, self.entries)]


def _shape(entries: list[dict[str, Any]]) -> tuple[list[int], list[Any], list[type]]:
    """The entries' lengths, then all their keys and all their values' types, entry after entry:
    with the lengths equal, two such lists are equal only if every entry's are."""
    return (
        [*map(len, entries)],
        [*chain.from_iterable(entries)],
        [*map(type, chain.from_iterable(map(dict.values, entries)))],
    )


def _reusable(entry: dict[Any, Any]) -> bool:
    return _PLAIN.issuperset(map(type, entry.values())) and all(type(k) is str for k in entry)


def _typed(entry: dict[Any, Any]) -> tuple[list[Any], list[type]]:
    return [*entry], [*map(type, entry.values())]


class StateBytes:
    """canonical of the successive states of one replay, at a fraction of its cost: the same
    bytes (storage.chain.canonical's), with each entry of a state's collections (a top-level
    dict of dicts: the units) encoded again only when it changed since the state before.

    An entry's bytes are reused only when it is equal to the entry they were made of AND has the
    same keys (strings) in the same order with values of the same exact types, each a string, an
    integer, a boolean or None: the values whose equality implies equal bytes (never 1 for True,
    1.0 for 1, -0.0 for 0.0, a nested list or dict). Anything else (a doc that is no dict, a key
    that is no string) is encoded whole, as canonical does. The comparisons run over a whole
    collection at once (map), not entry by entry in Python."""

    def __init__(self) -> None:
        self._memo: dict[str, _Collection] = {}
        self._keys: dict[str, str] = {}
        self._top: tuple[frozenset[str], list[str]] | None = None  # the doc's keys, and sorted

    def __call__(self, doc: Any) -> bytes | None:
        """The bytes, or None where canonical gives none (or anything here went wrong: then
        sealing.state_is decides alone)."""
        try:
            return self._encode(doc)
        except Exception:  # noqa: BLE001 - no bytes: the exact check decides
            self._memo.clear()
            return None

    def _key(self, key: str) -> str:
        said = self._keys.get(key)
        if said is None:
            said = self._keys[key] = _PIECE(key) + ":"
        return said

    def _encode(self, doc: Any) -> bytes:
        if type(doc) is not dict:
            return _ENCODE(doc).encode()
        if self._top is None or doc.keys() != self._top[0]:
            if not all(type(k) is str for k in doc):
                return _ENCODE(doc).encode()
            order = sorted(doc)
            self._top = (frozenset(order), order)
        parts: list[str] = []
        run: dict[str, Any] = {}  # the values between two collections: encoded in one piece
        for key in self._top[1]:
            value = doc[key]
            if type(value) is dict and len(value) >= _COLLECTION:
                if run:
                    parts.append(_PIECE(run)[1:-1])
                    run = {}
                parts.append(self._key(key) + self._collection(key, value))
            else:
                run[key] = value
        if run:
            parts.append(_PIECE(run)[1:-1])
        return ("{" + ",".join(parts) + "}").encode()

    def _collection(self, name: str, entries: dict[Any, Any]) -> str:
        was = self._memo.get(name)
        if was is None or entries.keys() != was.known:  # (its known keys are strings)
            if not all(type(k) is str for k in entries) or {*map(type, entries.values())} != {dict}:
                self._memo.pop(name, None)
                return _PIECE(entries)
            now = self._memo[name] = _Collection(entries, self._key)
            return "{" + ",".join(now.said) + "}"
        if {*map(type, entries.values())} != {dict}:
            self._memo.pop(name, None)
            return _PIECE(entries)
        new = [*map(entries.__getitem__, was.order)]
        lengths, keys, types = _shape(new)
        if lengths == was.lengths and keys == was.keys and types == was.types:
            # every entry has the keys, in order, and the types it had: equal is the same bytes
            same = [*map(and_, map(eq, new, was.entries), was.reusable)]
        else:  # entry by entry
            same = [
                *map(
                    and_,
                    map(eq, map(_typed, new), map(_typed, was.entries)),
                    map(and_, map(eq, new, was.entries), was.reusable),
                )
            ]
        if False in same:
            for i, kept in enumerate(same):
                if not kept:
                    was.said[i] = self._key(was.order[i]) + _PIECE(new[i])
                    was.reusable[i] = _reusable(new[i])
        was.entries, was.lengths, was.keys, was.types = new, lengths, keys, types
        return "{" + ",".join(was.said) + "}"


__all__ = ["StateBytes", "canonical"]
