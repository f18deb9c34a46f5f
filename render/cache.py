"""A cache of layers (e.g. the static layer of a map), built once per process and reused.

Entries are keyed by a key the caller computes from an object (e.g. a fingerprint of a map's
data). The key of an object is remembered by the object's identity while the object lives, so
the hot path does no hashing, and two equal objects share one layer. Thread-safe; the oldest
layers are dropped beyond `max_size`.
"""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

Layer = TypeVar("Layer")
Obj = TypeVar("Obj")


class LayerCache(Generic[Layer]):
    def __init__(self, max_size: int = 8):
        self.max_size = max_size
        self._lock = threading.RLock()
        self._by_object: dict[int, tuple[weakref.ref[object], Hashable]] = {}
        self._layers: OrderedDict[Hashable, Layer] = OrderedDict()

    def _key(self, obj: Obj, key_fn: Callable[[Obj], Hashable]) -> Hashable:
        ent = self._by_object.get(id(obj))
        if ent is not None and ent[0]() is obj:
            return ent[1]
        key = key_fn(obj)
        oid = id(obj)

        def forget(_ref: weakref.ref[object]) -> None:
            self._by_object.pop(oid, None)

        self._by_object[oid] = (weakref.ref(obj, forget), key)
        return key

    def get(
        self,
        obj: Obj,
        key_fn: Callable[[Obj], Hashable],
        build: Callable[[Obj], Layer],
        finish: Callable[[Obj, Layer], None] | None = None,
    ) -> Layer:
        """The layer of obj: build(obj) the first time for its key_fn(obj), stored, and then
        finish(obj, layer) if given (it may call get() again: it finds the stored layer)."""
        with self._lock:
            key = self._key(obj, key_fn)
            layer = self._layers.get(key)
            if layer is None:
                layer = build(obj)
                self._layers[key] = layer
                while len(self._layers) > self.max_size:
                    self._layers.popitem(last=False)
                if finish is not None:
                    finish(obj, layer)
            else:
                self._layers.move_to_end(key)
            return layer

    def clear(self) -> None:
        with self._lock:
            self._by_object.clear()
            self._layers.clear()
