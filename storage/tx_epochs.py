"""The dice epochs of a game inside a write transaction: GameTx's part that commits a fresh seed
(an `epoch` row), ends an epoch (a `reveal` row) and publishes the hidden seed at the end.
Seeds live in DiceSecret only; a seed enters the log only when its epoch ends."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sqlalchemy import func
from sqlmodel import col, select

from storage import dice as committed
from storage.models import DiceSecret, stored_id
from storage.records import LogRecord

if TYPE_CHECKING:
    from sqlmodel import Session

    from storage.models import GameColumns


class EpochWrites:
    """Mixed into GameTx (storage/game_tx.py), whose session `s`, game `g` and `append` (the
    next chained row) it uses."""

    s: Session
    g: GameColumns
    _secrets: dict[tuple[str, int], str] | None

    def append(
        self,
        kind: str,
        actor: str,
        text_: str,
        payload: dict[str, Any],
        *,
        user: str | None = None,
        key: str | None = None,
        epoch: int | None = None,
        secret: object = None,
    ) -> LogRecord:
        """The next chained row (GameTx.append)."""
        raise NotImplementedError

    def open_epoch(
        self,
        turn: int | None,
        seed: str | None = None,
        hidden_seed: str | None = None,
        rolls: list[dict[str, Any]] | None = None,
        secret: list[dict[str, Any]] | None = None,
    ) -> LogRecord:
        """Commit a fresh seed for the next dice epoch (an `epoch` row) and make it the open one.

        hidden_seed: a hidden seed to commit with it ("new" draws one), for epoch 1 and after a
        rewind of a game whose hidden seed was already revealed. rolls, secret: the draws the
        game's setup made from epoch 1 (storage.dice.roll_entry's records and hidden entries):
        they go into this row, the one that commits the seeds they come from, so every verifier
        meets the commitment before the draws, and the epoch's next draw follows them.
        """
        last = self.s.exec(
            select(func.max(DiceSecret.epoch)).where(
                DiceSecret.game_id == self.g.id, DiceSecret.kind == "epoch"
            )
        ).one()
        k = (last or 0) + 1
        seed = seed or committed.new_seed()
        game_id = stored_id(self.g)
        self.s.add(DiceSecret(game_id=game_id, kind="epoch", epoch=k, seed=seed))
        hidden_commitment = None
        if hidden_seed is not None:
            hidden_seed = committed.new_seed() if hidden_seed == "new" else hidden_seed
            self.s.add(DiceSecret(game_id=game_id, kind="hidden", epoch=k, seed=hidden_seed))
            hidden_commitment = committed.commitment(hidden_seed)
        payload: dict[str, Any] = {
            "epoch": k,
            "turn": turn,
            "commitment": committed.commitment(seed),
            "hidden_commitment": hidden_commitment,
        }
        if rolls:
            payload["rolls"] = rolls
        self.s.flush()  # the secret first: `seed()` reads it back in this transaction
        self._secrets = None
        text = f"dice epoch {k} for turn {turn}"
        row = self.append("epoch", "system", text, payload, epoch=k, secret=secret or None)
        g = self.g
        g.epoch, g.epoch_turn, g.epoch_commitment = k, turn, payload["commitment"]
        g.epoch_row_hash = row.hash
        g.epoch_next_n = 1 + len(rolls or [])
        g.salt_digest = committed.EMPTY_SALT_DIGEST
        return row

    def reveal_epoch(self) -> LogRecord | None:
        """End the open epoch: publish its seed in a `reveal` row."""
        k = self.g.epoch
        if not k:
            return None
        secret = self.s.exec(
            select(DiceSecret).where(
                DiceSecret.game_id == self.g.id, DiceSecret.kind == "epoch", DiceSecret.epoch == k
            )
        ).one()
        secret.revealed = True
        self.s.add(secret)
        self._secrets = None
        row = self.append(
            "reveal", "system", f"dice epoch {k} ends", {"epoch": k, "seed": secret.seed}, epoch=k
        )
        g = self.g
        g.epoch_row_hash = row.hash
        g.epoch, g.epoch_turn, g.epoch_commitment, g.epoch_next_n, g.salt_digest = (
            0,
            None,
            None,
            1,
            None,
        )
        return row

    def reveal_hidden(self) -> LogRecord | None:
        """Game over: publish the hidden seed (and so every hidden value's key)."""
        q = select(DiceSecret).where(
            DiceSecret.game_id == self.g.id, DiceSecret.kind == "hidden", ~col(DiceSecret.revealed)
        )
        secret = self.s.exec(q).first()
        if secret is None:
            return None
        secret.revealed = True
        self.s.add(secret)
        self._secrets = None
        return self.append(
            "reveal-hidden", "system", "hidden seed revealed", {"hidden_seed": secret.seed}
        )


__all__ = ["EpochWrites"]
