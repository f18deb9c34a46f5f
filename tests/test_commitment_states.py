"""The hidden-state audit of an undo's or a rewind's commitment (app/state_commitments.py)
replays each such row's state once in one walk: the states it gives are fold.state_at's, row by
row, undone and rewound orders included."""

from __future__ import annotations

import copy

from app import fold, games, state_commitments
from bots.demo import run_demo
from storage import Store


def _with_undo_and_rewind(rows):
    """The log, then: an undo of its last order, a rewind to an earlier order, and the orders
    after that one given again (the same texts and dice: the game goes as it went)."""
    rows = [copy.deepcopy(r) for r in rows]
    orders = [r for r in rows if r["kind"] == "order"]
    back_to = orders[len(orders) // 2]["index"]
    extra = [
        {"kind": "undo", "payload": {"targets": [orders[-1]["index"]]}},
        {"kind": "rewind", "payload": {"to": back_to}},
        *[copy.deepcopy(r) for r in orders if r["index"] > back_to],
    ]
    for r in extra:
        r["index"] = len(rows)
        rows.append(r)
    return rows


def test_the_states_of_undo_and_rewind_rows_are_state_at_in_one_walk():
    store = Store(":memory:")
    name = run_demo(3, store, write=lambda _line: None, system="northern-war").name
    system = games.system_of(store, name)
    rows = _with_undo_and_rewind(fold.with_secrets(store.log(name)))
    indices = [r["index"] for r in rows if r["kind"] in ("undo", "rewind")]
    indices += [r["index"] for r in rows[-3:]] + [rows[5]["index"], rows[-1]["index"]]
    walked = list(state_commitments._states_at(system, rows, indices))
    assert len(walked) == len(indices)
    for index, state in zip(indices, walked, strict=True):
        expected = system.state_to_json(fold.state_at(system, rows, index))
        assert system.state_to_json(state) == expected, index
    undone = system.state_to_json(walked[0])  # the undo takes the last order back
    assert undone != system.state_to_json(fold.replay(system, rows[: indices[0]]))
