"""Activation Group collapse [10.51, 10.52] (rules 6.1-6.11): the Morale Phase's check.

Invariants: an AG collapses at most once (6.9); artillery and Opolchenie units are outside N,
L and every effect (6.6); each effect judges a unit by its state before the collapse (6.5).
Pure."""

from __future__ import annotations

from adjudicator.borodino.board import Ctx, collapse_at, group_label, ids, losses
from adjudicator.core.i18n import Msg, cat, t, tn


def morale_phase(ctx: Ctx) -> list[str]:
    """6.2, 6.3: check every AG not yet collapsed; the AGs that collapse now."""
    state, scen = ctx.state, ctx.scen
    state.morale_done = True
    fallen = []
    for gid in scen.groups:
        if gid in state.collapsed or gid in state.out_of_game:
            continue  # 6.9: at most once per game
        lost, n = losses(scen, state, gid)
        if n == 0:
            continue  # 6.4: no unit in play, no collapse
        if 3 * lost >= 2 * n:  # 6.3: L >= 2/3 N, in whole numbers
            collapse(ctx, gid, lost, n)
            fallen.append(gid)
        else:
            ctx.emit(
                "MoraleHeld",
                # the English says "units" for every n (the stored texts); Russian agrees with n
                tn(
                    "{group}: {lost} of {n} units lost, it collapses at {at} (6.3): it holds.",
                    "{group}: {lost} of {n} units lost, it collapses at {at} (6.3): it holds.",
                    n,
                    group=group_label(scen, gid),
                    lost=lost,
                    at=collapse_at(n),
                ),
                group=gid,
                lost=lost,
                n=n,
            )
    if not fallen:
        ctx.emit("MoraleChecked", t("Morale Phase: no Activation Group collapses (6.3)."))
    return fallen


def collapse(ctx: Ctx, gid: str, lost: int, n: int) -> None:
    """6.5-6.8: the effects, each unit judged as it was before the collapse; the marker."""
    state, scen = ctx.state, ctx.scen
    state.collapsed.append(gid)  # 6.7 the marker; 6.8 no unit of it leaves Disordered
    done: dict[str, list[str]] = {"disordered": [], "routed": [], "eliminated": []}
    for unit in scen.members(gid):
        spot = state.units[unit.id]
        if not unit.counts_for_collapse:
            continue  # 6.6: artillery and Opolchenie are not affected
        if spot.on_map and not spot.disordered:
            spot.disordered = True  # 6.5(a)
            done["disordered"].append(unit.id)
        elif spot.on_map:
            spot.where, spot.hex = "withdrawn", None  # 6.5(b)
            done["routed"].append(unit.id)
        elif spot.where == "withdrawn":
            spot.where = "eliminated"  # 6.5(c); 6.5(d): the Recovery Box is not affected
            done["eliminated"].append(unit.id)
    parts = [_effect(k, ids(v)) for k, v in done.items() if v]
    said = cat(*parts, sep="; ") if parts else t("no unit affected")
    text = tn(
        "{group} COLLAPSES: {lost} of {n} units lost, 3 x {lost} >= 2 x {n} (6.3). {said} (6.5).",
        "{group} COLLAPSES: {lost} of {n} units lost, 3 x {lost} >= 2 x {n} (6.3). {said} (6.5).",
        n,
        group=group_label(scen, gid),
        lost=lost,
        said=said,
    )
    ctx.emit_data("GroupCollapsed", text, {"group": gid, "lost": lost, "n": n, **done})


def _effect(kind: str, units: Msg) -> Msg:
    if kind == "disordered":
        return t("disordered: {units}", units=units)
    if kind == "routed":
        return t("routed: {units}", units=units)
    return t("eliminated: {units}", units=units)
