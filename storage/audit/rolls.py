"""The auditor's roll checks: every roll record, draw numbering, fixed rolls, hidden draws and
hidden values with their off-chain secrets, and the hidden draws recomputed at the game's end."""

from __future__ import annotations

from typing import Any

from storage.audit.epochs import EpochChecks
from storage.audit.export import SECRET_FIELD
from storage.audit.state import _Epoch, _is_hex64, _is_int, die_label
from storage.audit.stats import purpose_kind
from storage.chain import at_row
from storage.dice import MAX_FACES, check_hidden, roll_value, salt_digest
from texts.i18n import t


class RollChecks(EpochChecks):
    """Each roll in its epoch's sequence; hidden draws and values sealed until the game ends."""

    def on_rolls(self, pos: int, row: dict[str, Any], rolls: object) -> None:
        if not isinstance(rolls, list):
            self.fail(pos, at_row(pos, t("rolls is not a list")), t("a list"), rolls)
            return
        side = row["actor"] if isinstance(row["actor"], str) and row["actor"] else "-"
        for i, rec in enumerate(rolls):
            self.on_roll(pos, t("row {pos}, roll {value}", pos=pos, value=i + 1), rec, side)

    def on_roll(self, pos: int, where: str, rec: Any, side: str) -> None:
        if not isinstance(rec, dict) or not isinstance(rec.get("purpose"), str):
            self.fail(
                pos, t("{where}: not a roll record", where=where), t("{{purpose, value, ...}}"), rec
            )
            return
        purpose, faces, hidden = rec["purpose"], rec.get("faces", 6), rec.get("hidden", False)
        if not _is_int(faces) or not 1 <= faces <= MAX_FACES:
            self.fail(
                pos, t("{where}: not a number of faces", where=where), f"1-{MAX_FACES}", faces
            )
            return
        if rec.get("fixed") is True:
            self.on_fixed_roll(pos, where, rec, side, faces)
            return
        if not isinstance(hidden, bool):
            self.fail(
                pos,
                t("{where}: the hidden flag is not true or false", where=where),
                t("a bool"),
                hidden,
            )
            return
        ep = self._open_epoch(pos, rec.get("epoch"), t("roll"))
        if ep is None:
            return
        n = rec.get("n")
        if not self._draw_in_sequence(pos, where, ep, n) or not _is_int(n):
            return
        if hidden:
            self.on_hidden_roll(pos, where, rec, ep, n)
            return
        value = rec.get("value")
        if not _is_int(value) or not 1 <= value <= faces:
            self.fail(
                pos,
                t("{where}: roll value is not 1-{faces}", where=where, faces=faces),
                f"1-{faces}",
                value,
            )
            return
        ep.rolls.append((pos, purpose, n, value, faces))
        self.public.append((side, purpose_kind(purpose), value, faces))
        self.public_rows.append(pos)

    def on_fixed_roll(self, pos: int, where: str, rec: Any, side: str, faces: int) -> None:
        value = rec.get("value")
        if not _is_int(value) or not 1 <= value <= faces:
            self.fail(
                pos,
                t("{where}: fixed roll value is not 1-{faces}", where=where, faces=faces),
                f"1-{faces}",
                value,
            )
        self.fixed.append({"index": pos, "actor": side, "purpose": rec["purpose"], "value": value})

    def _draw_in_sequence(self, pos: int, where: str, ep: _Epoch, n: object) -> bool:
        """Whether draw `n` follows the epoch's last one (public and hidden share the counter)."""
        if not _is_int(n) or n != ep.last_n + 1:
            self.fail(
                pos,
                t(
                    "{where}: draw out of sequence in epoch {number} (a draw is missing, repeated or renumbered)",
                    where=where,
                    number=ep.number,
                ),
                f"n {ep.last_n + 1}",
                f"n {n}",
            )
            if _is_int(n):
                ep.last_n = max(ep.last_n, n)
            return False
        ep.last_n = n
        if ep.first_draw_row is None:
            ep.first_draw_row = pos
        return True

    def on_hidden_roll(self, pos: int, where: str, rec: Any, ep: _Epoch, n: int) -> None:
        if self.hidden_commitment is None:
            self.fail(
                pos,
                t("{where}: hidden draw before any hidden seed was committed", where=where),
                t("a hidden commitment in an earlier epoch row"),
                None,
            )
            return
        if self.hidden_seed is not None:
            self.fail(
                pos,
                t("{where}: hidden draw after the hidden seed was revealed", where=where),
                t("no hidden draw after the game ended"),
                t("row {pos}", pos=pos),
            )
            return
        if rec.get("value") is not None:
            self.warnings.append(
                t("{where}: a hidden draw's value is stored in the clear", where=where)
            )
        elif not _is_hex64(rec.get("commitment")):
            self.fail(
                pos,
                t("{where}: hidden draw without a commitment", where=where),
                t("64 hex digits"),
                rec.get("commitment"),
            )
            return
        self.hidden_rolls.append((pos, rec, ep.number, n))

    def on_hidden_values(self, pos: int, commitments: object) -> None:
        if not isinstance(commitments, list) or not all(_is_hex64(c) for c in commitments):
            self.fail(
                pos,
                at_row(pos, t("hidden values must be listed as commitments")),
                t("a list of 64-hex commitments"),
                commitments,
            )
            return
        for c in commitments:
            self.hidden_values.append((pos, c))

    def on_secret(self, pos: int, row: dict[str, Any]) -> None:
        entries = row[SECRET_FIELD]
        payload = row["payload"] if isinstance(row["payload"], dict) else {}
        committed: set[str] = set()  # the commitments of this row's hidden values and draws
        if isinstance(payload.get("hidden"), list):
            committed.update(c for c in payload["hidden"] if isinstance(c, str))
        if isinstance(payload.get("rolls"), list):
            rolls = [r for r in payload["rolls"] if isinstance(r, dict)]
            committed.update(r["commitment"] for r in rolls if isinstance(r.get("commitment"), str))
        found = self.secrets.setdefault(pos, {})
        if not isinstance(entries, list):
            self.fail(
                pos, at_row(pos, t("secret is not a list")), t("a list"), type(entries).__name__
            )
            return
        for entry in entries:
            c = entry.get("commitment") if isinstance(entry, dict) else None
            if not isinstance(c, str) or c not in committed:
                self.fail(
                    pos,
                    at_row(pos, t("a disclosed hidden value names no commitment of this row")),
                    t("a commitment of this row's payload"),
                    c,
                )
                continue
            if not check_hidden(c, entry.get("value"), entry.get("salt")):
                self.fail(
                    pos,
                    at_row(pos, t("a hidden value does not match its commitment")),
                    c,
                    t("a value and salt hashing elsewhere"),
                )
                continue
            found[c] = entry.get("value")

    def finish_hidden(self) -> None:
        """At the end of the walk: every hidden draw and value checked if the hidden seed was
        revealed, else counted as pending."""
        if self.hidden_seed is None:
            self.hidden_pending = len(self.hidden_rolls) + len(self.hidden_values)
            return
        self.hidden_pending = 0
        for pos, rec, k, n in self.hidden_rolls:
            self._check_hidden_roll(pos, rec, k, n, self.hidden_seed)
        for pos, c in self.hidden_values:
            if c in self.secrets.get(pos, {}):
                self.hidden_checked += 1
            else:
                self.fail(
                    pos,
                    at_row(
                        pos,
                        t(
                            "hidden value {value}... not disclosed although the game ended",
                            value=c[:12],
                        ),
                    ),
                    t("its value and salt"),
                    None,
                )

    def _check_hidden_roll(self, pos: int, rec: Any, k: int, n: int, seed: str) -> None:
        ep = self.epochs[k]
        purpose = rec["purpose"]
        if rec.get("value") is not None:
            value = rec["value"]
        elif rec.get("commitment") in self.secrets.get(pos, {}):
            value = self.secrets[pos][rec["commitment"]]
        else:
            self.fail(
                pos,
                at_row(
                    pos,
                    t(
                        "hidden draw {purpose} not disclosed although the game ended",
                        purpose=repr(purpose),
                    ),
                ),
                t("its value and salt"),
                None,
            )
            return
        if self.uid is None:
            return
        faces = rec.get("faces", 6)
        dig = salt_digest(ep.salts)
        expected = roll_value(seed, self.uid, k, n, purpose, dig, faces)
        self.hidden_checked += 1
        if expected != value:
            self.fail(
                pos,
                at_row(
                    pos,
                    t(
                        "hidden draw does not recompute ({purpose}{die_label}, epoch {k}, n {n})",
                        purpose=repr(purpose),
                        die_label=die_label(faces),
                        k=k,
                        n=n,
                    ),
                ),
                expected,
                value,
            )
