"""The auditor's epoch checks: commitments, salts, seed reveals (each revealed epoch's rolls
recomputed, dice of any number of faces) and the hidden seed's reveal at the game's end."""

from __future__ import annotations

from typing import Any

from storage.audit.state import AuditState, _Epoch, _is_hex64, _is_int, die_label
from storage.chain import at_row
from storage.dice import commitment, roll_value, salt_digest
from texts.i18n import t


class EpochChecks(AuditState):
    """Epochs numbered 1, 2, ...; salts before the first draw; each seed against its commitment."""

    def on_epoch(self, pos: int, row: dict[str, Any], p: dict[str, Any]) -> None:
        k = p.get("epoch")
        expected = len(self.epochs) + 1
        if k != expected or not _is_int(k):
            self.fail(
                pos, at_row(pos, t("epochs must be numbered 1, 2, ... in order")), expected, k
            )
            return
        c = p.get("commitment")
        if not _is_hex64(c):
            self.fail(
                pos,
                at_row(pos, t("epoch {k} commitment is not a SHA-256 hex digest", k=k)),
                t("64 hex digits"),
                c,
            )
            return
        self.epochs[k] = _Epoch(k, pos, c)
        hc = p.get("hidden_commitment")
        if hc is not None:
            self._on_hidden_commitment(pos, hc)

    def _on_hidden_commitment(self, pos: int, hc: object) -> None:
        if not _is_hex64(hc):
            self.fail(
                pos,
                at_row(pos, t("hidden commitment is not a SHA-256 hex digest")),
                t("64 hex digits"),
                hc,
            )
        elif self.hidden_commitment is None:
            self.hidden_commitment, self.hidden_commitment_row = hc, pos
        elif hc != self.hidden_commitment:
            self.fail(
                pos,
                at_row(
                    pos,
                    t(
                        "the hidden seed's commitment changed (it was committed at row {hidden_commitment_row})",
                        hidden_commitment_row=self.hidden_commitment_row,
                    ),
                ),
                self.hidden_commitment,
                hc,
            )

    def _open_epoch(self, pos: int, k: object, what: str) -> _Epoch | None:
        ep = self.epochs.get(k) if _is_int(k) else None
        if ep is None:
            self.fail(
                pos,
                at_row(
                    pos,
                    t(
                        "{what} for epoch {k}, which has no commitment before it",
                        what=what,
                        k=repr(k),
                    ),
                ),
                t("an epoch opened before row {pos}", pos=pos),
                k,
            )
            return None
        if ep.reveal_row is not None:
            self.fail(
                pos,
                at_row(
                    pos,
                    t(
                        "{what} in epoch {k} after its seed was revealed at row {reveal_row}",
                        what=what,
                        k=k,
                        reveal_row=ep.reveal_row,
                    ),
                ),
                t("a roll before row {reveal_row}", reveal_row=ep.reveal_row),
                t("row {pos}", pos=pos),
            )
            return None
        return ep

    def on_salt(self, pos: int, row: dict[str, Any], p: dict[str, Any]) -> None:
        k = p.get("epoch")
        ep = self._open_epoch(pos, k, t("salt"))
        if ep is None:
            return
        if not isinstance(p.get("salt"), str):
            self.fail(pos, at_row(pos, t("salt is not text")), t("text"), p.get("salt"))
            return
        if ep.first_draw_row is not None:
            self.fail(
                pos,
                at_row(
                    pos,
                    t(
                        "salt after epoch {k}'s first roll (row {first_draw_row})",
                        k=k,
                        first_draw_row=ep.first_draw_row,
                    ),
                ),
                t("a salt before row {first_draw_row}", first_draw_row=ep.first_draw_row),
                t("row {pos}", pos=pos),
            )
            return
        ep.salts.append(p["salt"])

    def _revealed_epoch(self, pos: int, k: object) -> _Epoch | None:
        """The epoch a reveal row names, or None (recorded as a failure) if it cannot be."""
        ep = self.epochs.get(k) if _is_int(k) else None
        if ep is None:
            self.fail(
                pos,
                at_row(pos, t("reveal of epoch {k}, which has no commitment before it", k=repr(k))),
                t("an opened epoch"),
                k,
            )
            return None
        if ep.reveal_row is not None:
            self.fail(
                pos,
                at_row(
                    pos,
                    t(
                        "epoch {k} revealed twice (first at row {reveal_row})",
                        k=k,
                        reveal_row=ep.reveal_row,
                    ),
                ),
                t("one reveal"),
                t("row {pos}", pos=pos),
            )
            return None
        return ep

    def on_reveal(self, pos: int, row: dict[str, Any], p: dict[str, Any]) -> None:
        k = p.get("epoch")
        ep = self._revealed_epoch(pos, k)
        if ep is None:
            return
        seed = p.get("seed")
        ep.reveal_row = pos
        if not _is_hex64(seed):
            self.fail(
                pos,
                at_row(pos, t("epoch {k}'s revealed seed is not 64 hex digits", k=k)),
                t("64 hex digits"),
                seed,
            )
            return
        found = commitment(seed)
        if found != ep.commitment:
            self.fail(
                pos,
                at_row(
                    pos,
                    t(
                        "epoch {k}'s revealed seed does not match its commitment (row {row})",
                        k=k,
                        row=ep.row,
                    ),
                ),
                ep.commitment,
                found,
            )
            return
        ep.seed = seed
        self.recompute(ep, seed)

    def recompute(self, ep: _Epoch, seed: str) -> None:
        if self.uid is None:
            return
        dig = salt_digest(ep.salts)
        for q, purpose, n, value, faces in ep.rolls:
            try:
                expected = roll_value(seed, self.uid, ep.number, n, purpose, dig, faces)
            except (TypeError, ValueError) as exc:
                self.fail(
                    q, at_row(q, t("roll cannot be recomputed ({exc})", exc=exc)), None, value
                )
                continue
            self.rolls_checked += 1
            if expected != value:
                self.fail(
                    q,
                    at_row(
                        q,
                        t(
                            "roll does not recompute ({purpose}{die_label}, epoch {number}, n {n})",
                            purpose=repr(purpose),
                            die_label=die_label(faces),
                            number=ep.number,
                            n=n,
                        ),
                    ),
                    expected,
                    value,
                )

    def on_reveal_hidden(self, pos: int, row: dict[str, Any], p: dict[str, Any]) -> None:
        seed = p.get("hidden_seed")
        if self.hidden_commitment is None:
            self.fail(
                pos,
                at_row(pos, t("hidden seed revealed but never committed")),
                t("a hidden commitment in an epoch row"),
                None,
            )
            return
        if self.hidden_seed is not None:
            self.fail(
                pos,
                at_row(pos, t("hidden seed revealed twice")),
                t("one reveal"),
                t("row {pos}", pos=pos),
            )
            return
        if not _is_hex64(seed):
            self.fail(
                pos,
                at_row(pos, t("revealed hidden seed is not 64 hex digits")),
                t("64 hex digits"),
                seed,
            )
            return
        found = commitment(seed)
        if found != self.hidden_commitment:
            self.fail(
                pos,
                at_row(
                    pos,
                    t(
                        "revealed hidden seed does not match its commitment (row {hidden_commitment_row})",
                        hidden_commitment_row=self.hidden_commitment_row,
                    ),
                ),
                self.hidden_commitment,
                found,
            )
            return
        self.hidden_seed = seed
