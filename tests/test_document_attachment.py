"""An Outgoing may carry any file as a document (Outgoing.document): the audit export and page
go back to a player as files. The flag survives the persisted outbox, and Telegram sends such an
attachment with sendDocument, never as a photo (the platforms' end-to-end tests of the audit
files, tests/test_audit_chat_files.py, show both platforms deliver it)."""

from __future__ import annotations

from datetime import UTC, datetime

from app import post_queue
from app.messages import Outgoing
from storage import Store

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def test_a_document_attachment_survives_the_outbox():
    store = Store(":memory:")
    doc = Outgoing(
        "telegram", "-1", "the export", image=b'{"format":"pbem-audit/1"}\n',
        image_name="g-audit.jsonl", document=True,
    )  # fmt: skip
    photo = Outgoing("telegram", "-1", "the map", image=b"\x89PNG", image_name="map.png")
    post_queue.write(store, None, [doc, photo], key="k", now=NOW)
    first, second = post_queue.rows(store)
    assert first.outgoing.document and first.as_document
    assert first.outgoing.image == doc.image and first.outgoing.image_name == "g-audit.jsonl"
    assert not second.outgoing.document and not second.as_document
    store.close()


def test_rows_of_marks_a_document_row_whatever_the_call_says():
    doc = Outgoing("discord", "9", "f", image=b"x", image_name="f.html", document=True)
    (row,) = post_queue.rows_of([doc], key=None, now=NOW, as_document=False)
    assert row["as_document"] is True and post_queue.outgoing_of(row | {"id": 1}).document
