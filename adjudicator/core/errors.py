"""Rejections: every refusal says what is wrong, what would be legal, and which rule."""

from __future__ import annotations

from adjudicator.core.i18n import t


class Rejection(Exception):
    """An order refused by the rules. Changes nothing.

    code: a short machine name ("not-adjacent"); message: for the player, including what would be
    legal instead; rule: the rule number ("8.4(f)"), or None with the message saying why none applies.
    """

    def __init__(self, code: str, message: str, rule: str | None = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.rule = rule

    def __str__(self) -> str:
        if self.rule:
            return t("{rule}: {message}", rule=self.rule, message=self.message)
        return self.message

    def to_dict(self) -> dict[str, str | None]:
        return {"code": self.code, "message": self.message, "rule": self.rule}


class TextError(Exception):
    """An error whose message is a text for a user: str(error) is that text itself (a Msg
    stays a Msg, so it can still be said in the user's language)."""

    def __str__(self) -> str:
        said = self.args[0] if len(self.args) == 1 else None
        return said if isinstance(said, str) else super().__str__()
