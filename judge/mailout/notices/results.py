"""Results, previews, the game's start, its end and rollbacks: what everyone reads of the board,
cut to each reader's view in a BLIND game (`judge.mailout.tailor`)."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from judge import events as ev
from judge.drawing.pictures import picture, results_board
from judge.game import archive, visibility
from judge.mailout import tailor, views
from judge.mailout.audience import MASTER, Mailing, PictureMail, block_addresses, unique
from judge.mailout.game_mail import GameMail, Handler, Notifier, Occasion
from judge.mailout.render import Rendered
from judge.maps import map_for_phase
from judge.types import ADJUSTMENTS, Phase, Unit
from judge.rule_names import Rule


def agreed_in_results(completed: ev.GameCompleted | None) -> bool:
    """A draw or concession the votes decided: DPjudge writes it at the end of the results of the
    phase that ended the game, and sends no mail of its own."""
    return completed is not None and completed.kind in ("draw", "concession")


def results_context(mail: GameMail, event: ev.PhaseResults, completed: ev.GameCompleted | None = None,
                    reader: tailor.Reader | None = None) -> dict[str, Any]:
    """What results.txt and preview.txt read, from a PhaseResults event; in a BLIND game, as
    `reader` sees it (None: the Master's whole view)."""
    m, res = mail.map, event.resolution
    if res is None:
        report = views.PhaseReport(views.phase_view(event.phase), ())
    else:
        report = views.phase_results(m, res, rules=mail.rules, unit_order=event.units_before)
    ownership = adjustments = None
    adjusting = [p for p in (*event.skipped, event.next_phase) if p and p.type == ADJUSTMENTS]
    solo = completed is not None and completed.kind == "solo"
    if res is not None and res.phase.type != ADJUSTMENTS and (event.captured or adjusting or solo):
        centers = views.with_captures(res.centers, event.captured)
        ownership = views.ownership(m, centers)
        victors = completed.victors if completed is not None and solo else ()
        standing = {p: tuple(u for u in us if u not in event.torn.get(p, ()))
                    for p, us in res.units.items()} if event.torn else res.units
        adjustments = views.adjustments(m, standing, centers, mail.rules,
                                        phase=adjusting[0] if adjusting else None,
                                        homes=res.homes, victors=victors)
    elif res is not None and visibility.shows_ownership(
            mail.rules, False, event.next_phase.type if event.next_phase else None):
        ownership = views.ownership(m, res.centers)
    last_man = None
    if completed is not None and completed.unit is not None:
        last_man = views.unit_view(m, completed.unit, completed.victors[0])
    torn = tuple(views.unit_view(m, u, p) for p in sorted(event.torn) for u in event.torn[p])
    vassals = tuple((views.power_view(m, p), views.power_view(m, c) if c else None)
                    for p, c in event.allegiance)
    agreed = None
    if completed is not None and agreed_in_results(completed):
        agreed = completion_context(mail, completed)
    context = {"results": report, "ownership": ownership, "adjustments": adjustments,
               "last_man": last_man, "agreed": agreed, "torn": torn, "vassals": vassals if ownership else (),
               "revealed": views.unit_holdings(m, event.revealed),
               "lost": views.unit_holdings(m, event.lost),
               "next_phase": views.phase_view(event.next_phase) if event.next_phase else None,
               "deadline": mail.when(event.deadline),
               "processed_deadline": mail.when(event.processed_deadline), "income": event.income}
    if Rule.BLIND in mail.rules:
        context = _tailored(mail, context, event, reader or mail.reader(MASTER))
    return context


def _tailored(mail: GameMail, context: dict[str, Any], event: ev.PhaseResults,
              reader: tailor.Reader) -> dict[str, Any]:
    report = tailor.blind_notes(context["results"])
    if event.sightings:
        report = tailor.report_for(mail.map, report, event.sightings, reader)
    else:
        report = tailor.orders_only_own(report, reader)
    tailored = dict(context, results=report, revealed=(),  # the sightings tell them
                    lost=tailor.holdings_for(context["lost"], reader),
                    blinded=tailor.blinded_for(mail.map, event.blinded, reader))
    if context["ownership"] is not None and Rule.SEE_ALL_SCS not in mail.rules:
        tailored["ownership"] = tailor.ownership_for(context["ownership"], reader)
    if context["adjustments"] is not None:
        tailored["adjustments"] = tailor.adjustments_for(context["adjustments"], reader)
    return tailored


def results(mail: GameMail, event: ev.PhaseResults, occasion: Occasion) -> list[Mailing]:
    """Everyone's results, monitors' too; in a BLIND game each reader's own, with its picture."""
    completed = occasion.completed
    people = mail.people
    if Rule.BLIND not in mail.rules:
        to = unique(people.everyone(monitors=True))
        if not to:
            return []
        return [Mailing(to, results_text(mail, event, completed), results_picture(mail, event))]
    contexts = contexts_by_reader(mail, event, completed)
    versions = results_by_reader(mail, event, completed)
    mailings = [Mailing(addresses, versions[name], results_picture(mail, event, contexts[name], name))
                for group in (people.players, people.observers, people.monitors)
                for name, addresses in group.items() if addresses]
    if people.master:
        mailings.append(Mailing(people.master, versions[MASTER],
                                results_picture(mail, event, contexts[MASTER], MASTER)))
    return mailings


def results_text(mail: GameMail, event: ev.PhaseResults, completed: ev.GameCompleted | None = None
                 ) -> Rendered:
    """The results everyone reads (not in a BLIND game), as mailed and as archived."""
    return mail.once("results", event, completed,
                     lambda: mail.render("results", **results_context(mail, event, completed)))


def contexts_by_reader(mail: GameMail, event: ev.PhaseResults, completed: ev.GameCompleted | None = None
                       ) -> dict[str, dict[str, Any]]:
    """A BLIND game's results context for each block of the game and for the Master
    (`blind_mail`: the template lays each out as DPjudge's mail to one reader)."""
    names = [b.name for b in mail.status.powers if b.name]
    return mail.once("contexts", event, completed, lambda: {
        name: dict(results_context(mail, event, completed, mail.reader(name) if name != MASTER else None),
                   blind_mail=True)
        for name in [*names, MASTER]})


def results_by_reader(mail: GameMail, event: ev.PhaseResults, completed: ev.GameCompleted | None = None
                      ) -> dict[str, Rendered]:
    """A BLIND game's results as each block of the game and the Master read them, as mailed
    and as archived (`archive.reader_parts`)."""
    def made() -> dict[str, Rendered]:
        return {name: mail.render("results", **context)
                for name, context in contexts_by_reader(mail, event, completed).items()}
    return mail.once("by reader", event, completed, made)


def results_picture(mail: GameMail, event: ev.PhaseResults, context: Mapping[str, Any] | None = None,
                    reader: str = MASTER) -> PictureMail | None:
    """The processed phase drawn with its orders, for the results mails; in a BLIND game as
    `reader` sees it, with the centres its results `context` tells it the owners of."""
    board = results_board(event) if mail.pictures else None
    if board is None:
        return None
    if event.captured:  # the year's end: the centres as the results' ownership gives them
        board = replace(board, centers=views.with_captures(board.centers, event.captured))
    if Rule.BLIND in mail.rules:
        board = tailor.board_for(board, event.sightings, mail.reader(reader),
                                 context["ownership"] if context else None)
    drawn = picture(mail.env, map_for_phase(mail.map, event.phase), mail.geometry, board)
    kinds = {a.lower(): b.picture.lower() for b in mail.status.powers if b.picture
             for a in block_addresses(b)}
    return PictureMail(drawn, kinds)


def archived(mail: GameMail, events: Sequence[object]) -> list[tuple[str, str | list[archive.Part]]]:
    """The results and completion mails among the events' mails (subject, body), as everyone
    reads them, or in a BLIND game as each reader does, in parts: what the game's results
    archive keeps (`judge.game.archive`): the words mailed for the same events, not made
    again, `:: URL:` line included as DPjudge's archive has it."""
    occasion = Occasion(events)
    completed = occasion.completed
    kept: list[tuple[str, str | list[archive.Part]]] = []
    for event in events:
        if isinstance(event, ev.PhaseResults) and Rule.BLIND in mail.rules:
            versions = results_by_reader(mail, event, completed)
            kept.append((versions[MASTER].subject,
                         archive.reader_parts({n: r.body for n, r in versions.items()})))
        elif isinstance(event, ev.PhaseResults):
            text = results_text(mail, event, completed)
            kept.append((text.subject, text.body))
        elif isinstance(event, ev.GameCompleted) and not occasion.results_carry:
            text = completion_text(mail, event)
            kept.append((text.subject, text.body))
    return kept


def preview(mail: GameMail, event: ev.Preview, occasion: Occasion) -> list[Mailing]:
    """The results processing would give, to the Master, with their picture as results carry it."""
    mailings = mail.mail(mail.people.master, "preview",
                         **results_context(mail, event.results, event.completed))
    attached = results_picture(mail, event.results)
    return [m._replace(picture=attached) for m in mailings] if attached else mailings


# --- the game's start and end ---

def started(mail: GameMail, event: ev.GameStarted, occasion: Occasion) -> list[Mailing]:
    mailings = []
    deadline = mail.when(event.deadline)
    for seat in event.assignments:
        if seat.player is None:  # a dummy: nobody to tell
            continue
        to = mail.people.of([seat.power]) or (seat.player.email,)
        mailings += mail.mail(to, "power_assignment", power=mail.power(seat.power),
                              seat=seat.seat, deadline=deadline)
    units = views.unit_holdings(mail.map, event.units)
    ownership = views.ownership(mail.map, event.centers)
    start = {"phase": views.phase_view(event.phase), "deadline": deadline}
    if Rule.BLIND not in mail.rules:
        return mailings + mail.mail(mail.people.everyone(monitors=True), "game_start",
                                    units=units, ownership=ownership, **start)
    people = mail.people
    for group in (people.players, people.observers, people.monitors):
        for name, addresses in group.items():
            reader = mail.reader(name)
            seen = views.unit_holdings(mail.map, _units_seen(mail, event.units, reader))
            mailings += mail.mail(addresses, "game_start", **start, units=seen,
                                  ownership=tailor.ownership_for(ownership, reader))
    return mailings + mail.mail(people.master, "game_start", units=units, ownership=ownership, **start)


def _units_seen(mail: GameMail, units: Mapping[str, Sequence[Unit]], reader: tailor.Reader
                ) -> dict[str, tuple[Unit, ...]]:
    """BLIND: the units a reader sees on the board (all of its own)."""
    if reader.all_seeing:
        return {p: tuple(us) for p, us in units.items()}
    seen = visibility.units_seen(mail.map, mail.rules, reader.seers, reader.name)
    return {p: tuple(us) if reader.owns(p) else seen.get(p, ()) for p, us in units.items()}


def completed(mail: GameMail, event: ev.GameCompleted, occasion: Occasion) -> list[Mailing]:
    """The game's end, unless results among the events tell it."""
    if occasion.results_carry:
        return []
    to = unique(mail.people.everyone(monitors=True))
    return [Mailing(to, completion_text(mail, event))] if to else []


def completion_text(mail: GameMail, event: ev.GameCompleted) -> Rendered:
    """The mail of the game's end, as mailed and as archived."""
    return mail.once("completion", event, None,
                     lambda: mail.render("game_complete", **completion_context(mail, event)))


def completion_context(mail: GameMail, event: ev.GameCompleted) -> dict[str, Any]:
    return {"kind": event.kind, "victors": views.powers(mail.map, sorted(event.victors)),
            "phase": views.phase_view(event.phase), "deadline": mail.when(event.deadline)}


def rolled_back(mail: GameMail, event: ev.RolledBack, occasion: Occasion) -> list[Mailing]:
    phase = views.phase_view(event.phase) if isinstance(event.phase, Phase) else None
    return mail.mail(mail.people.everyone(monitors=True), "rollback", phase=phase,
                     forward=event.forward, restored_orders=event.restored_orders,
                     full=event.full, deadline=mail.when(event.deadline))


HANDLERS: tuple[Notifier, ...] = (
    Handler(ev.PhaseResults, results), Handler(ev.Preview, preview), Handler(ev.GameStarted, started),
    Handler(ev.GameCompleted, completed), Handler(ev.RolledBack, rolled_back, told_by_reply=True),
)
