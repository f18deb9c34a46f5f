"""The replay's state bytes (app.state_bytes.StateBytes) are storage.chain.canonical's bytes of every
state in turn, whatever changed between two states: an entry's bytes are reused only where equal
values must give equal bytes (never 1 for True, 1.0 for 1, -0.0 for 0.0, keys in another order)."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from app import state_bytes
from storage.chain import canonical


def _unit(i: int, **changed: Any) -> dict[str, Any]:
    unit = {"id": f"u{i}", "side": "a", "hex": "A1", "reduced": False, "turn": 1, "gone": None}
    return unit | changed


def _doc(units: dict[str, Any], **top: Any) -> dict[str, Any]:
    return {"turn": 1, "phase": "move", "units": units, "pending": [], **top}


def _agrees(docs: list[Any]) -> None:
    encode = state_bytes.StateBytes()
    for doc in docs:
        assert encode(doc) == canonical(doc)


def test_a_state_that_changes_entry_by_entry_has_the_canonical_bytes_each_time():
    units = {f"u{i}": _unit(i) for i in range(10)}
    later = units | {"u3": _unit(3, hex="B2"), "u7": _unit(7, reduced=True)}
    fewer = {k: v for k, v in later.items() if k != "u5"}
    more = fewer | {"u10": _unit(10, hex="Ä9")}
    _agrees([_doc(units), _doc(units), _doc(later, turn=2), _doc(fewer), _doc(more), _doc(units)])


def test_equal_values_of_another_type_are_encoded_again():
    units = {f"u{i}": _unit(i) for i in range(10)}
    for value in (0, 0.0, 1, True, 1.0):
        changed = units | {"u2": _unit(2, reduced=value), "u4": _unit(4, turn=value)}
        _agrees([_doc(units), _doc(changed), _doc(units), _doc(changed)])
    signed = units | {"u1": _unit(1, turn=0.0)}
    _agrees([_doc(signed), _doc(units | {"u1": _unit(1, turn=-0.0)})])


def test_equal_entries_with_their_keys_in_another_order_are_encoded_again():
    units = {f"u{i}": _unit(i) for i in range(10)}
    first = units | {"u0": {"a": True, "b": 1}}
    second = units | {"u0": {"b": True, "a": 1}}  # == first's entry, its bytes differ
    assert first["u0"] == second["u0"]
    assert canonical(first["u0"]) != canonical(second["u0"])
    _agrees([_doc(first), _doc(second), _doc(first)])


def test_what_the_canonical_encoding_refuses_gives_no_bytes():
    encode = state_bytes.StateBytes()
    units = {f"u{i}": _unit(i) for i in range(10)}
    assert encode(_doc(units | {"u1": _unit(1, hex={1, 2})})) is None
    assert encode(_doc(units | {"u1": _unit(1, hex="\ud800")})) is None  # no UTF-8
    assert encode(_doc(units)) == canonical(_doc(units))
    keyed = {1: "a", "b": 2}  # keys no strings: encoded whole, as canonical fails
    assert encode(keyed) is None
    _agrees([_doc({str(i): _unit(i) | {"nested": [i, {"x": True}]} for i in range(9)})])


_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 3),
    st.sampled_from([0.0, -0.0, 1.0, 2.5]),
    st.sampled_from(["", "a", "b", "é", '"', "\n"]),
)
_entry = st.dictionaries(st.sampled_from(["a", "b", "c", "d"]), _scalars, max_size=4)
_values = st.one_of(_scalars, st.lists(_scalars, max_size=3), _entry)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.dictionaries(
            st.sampled_from(["units", "other", "turn"]),
            st.one_of(
                _values,
                st.dictionaries(st.sampled_from([f"u{i}" for i in range(12)]), _entry, min_size=8),
            ),
        ),
        min_size=1,
        max_size=6,
    )
)
def test_any_run_of_documents_has_the_canonical_bytes(docs):
    _agrees(docs)
