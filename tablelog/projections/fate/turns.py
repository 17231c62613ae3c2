"""The turn of a Noble Phantasm allows only that NP (FATE-NP-14), read from the state.

A character who releases a true-name NP (or a master a unique ability, which follows the NP
judgment rules) makes no other judgment in that turn, before or after it: no code cast, no use of
an always-active NP or of an NP's ability. The state keeps, per character, the turn of its last
true-name release (``_np_turn``, ``[round, turn]``) and of its last other judgment (``_acted``,
``[round, turn, what]``); deciders and preconditions both check them here, so undo and redo cannot
get past the rule either. Outside battle there are no turns and nothing is checked.

Source: fate-codecast-phantasm.ko.txt, 노블 판타즘 3.① (보구를 사용한 턴에는 턴 당 판정 횟수에
관계 없이 '보구' 의 사용만 가능합니다), 고유 능력 4. (고유 능력의 판정을 일반적인 보구 판정 규칙을
따릅니다); FATE-NP-14.
"""

from __future__ import annotations

from tablelog.projections.core import State
from tablelog.projections.fate.entities import Character
from tablelog.rules.core import RuleViolation
from tablelog.text import Msg, Term, english, msg

__all__ = [
    "turn_now",
    "require_no_np_turn",
    "require_no_other_judgment",
    "mark_judgment",
    "A_CODE_CAST",
    "AN_ALWAYS_ACTIVE_NP",
    "ability_judgment",
]

A_CODE_CAST = msg("fate.judgment.code_cast", "a code cast")
AN_ALWAYS_ACTIVE_NP = msg("fate.judgment.always_np", "an always-active NP")


def ability_judgment(np_id: str, ability: str) -> Msg:
    """Return ``gob's shoot``: the use of an NP's ability, as a judgment."""
    return msg(
        "fate.judgment.ability",
        "{np_id}'s {ability}",
        np_id=np_id,
        ability=Term("fate.ability", ability),
    )


def turn_now(state: State) -> list[int] | None:
    """Return ``[round, turn]`` in battle, else None."""
    if not state.clock.get("battle"):
        return None
    return [state.clock["round"], state.clock["turn"]]


def require_no_np_turn(state: State, name: str, who: Character, what: Msg) -> None:
    """Refuse ``what`` (:data:`A_CODE_CAST`, :data:`AN_ALWAYS_ACTIVE_NP` …) by ``name`` in the
    turn of its NP.

    Raises:
        RuleViolation: FATE-NP-14 naming the round and turn.
    """
    now = turn_now(state)
    if now is not None and who["_np_turn"] == now:
        raise RuleViolation(
            "FATE-NP-14",
            msg(
                "fate.np_turn.only_np",
                "{name} released an NP in round {round}, turn {turn}: that turn allows only the"
                " NP, not {what}",
                name=name,
                round=now[0],
                turn=now[1],
                what=what,
            ),
        )


def require_no_other_judgment(state: State, name: str, who: Character) -> None:
    """Refuse a true-name release by ``name`` in a turn it already made another judgment in.

    Raises:
        RuleViolation: FATE-NP-14 naming the judgment, the round and the turn.
    """
    now, acted = turn_now(state), who["_acted"]
    if now is not None and acted is not None and acted[:2] == now:
        raise RuleViolation(
            "FATE-NP-14",
            msg(
                "fate.np_turn.already_acted",
                "{name} already used {what} in round {round}, turn {turn}: the turn of an NP"
                " allows only the NP",
                name=name,
                what=acted[2],
                round=now[0],
                turn=now[1],
            ),
        )


def mark_judgment(state: State, who: Character, what: Msg) -> None:
    """Record that ``who`` made a judgment other than a true-name release this turn (in place):
    the state keeps ``what`` in English words, as it always has (``_acted``)."""
    now = turn_now(state)
    if now is not None:
        who["_acted"] = [*now, english(what)]
