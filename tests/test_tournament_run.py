"""Tournaments played on many tables (rules 22-30), from concrete small fields and random ones."""

import json
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from holdem import Action, Stakes, Table
from holdem.cli import main
from holdem.tournament import load_structure
from holdem.tournament.run import (
    HandPlayed,
    TournamentConfig,
    _move,
    _next_big_blind,
    _Tournament,
    play_tournament,
)
from tests.strategies import examples

HYPER = load_structure("hyper")


def config(entrants: int, size: int, seed: int = 1, **more: object) -> TournamentConfig:
    return TournamentConfig(
        ("random", "calling-station"), entrants, HYPER, table_size=size, seed=seed, **more
    )  # type: ignore[arg-type]


def places_are_valid(places: list[int]) -> bool:
    """Places 1..N, where k players tied for place p all hold p and places p+1..p+k-1 are skipped."""
    counts, p = Counter(places), 1
    while p <= len(places):
        k = counts.get(p, 0)
        if not k or any(counts.get(q) for q in range(p + 1, p + k)):
            return False
        p += k
    return True


class Watch:
    """Plays a tournament, checking after every hand what must always hold."""

    def __init__(self, cfg: TournamentConfig, run: int = 0) -> None:
        self.cfg, self.busted, self.log = cfg, set[str](), list[tuple[int, int, int, int]]()
        self.director = _Tournament(cfg, run, self.after)

    def after(self, played: HandPlayed) -> None:
        tables = self.director.tables
        seated = [p for t in tables for p in t.seats if p is not None]
        assert not set(played.players) & self.busted, "a busted entrant played again"
        total = self.cfg.entrants * self.cfg.structure.starting_stack
        assert total == sum(p.stack for p in seated), "chips not conserved across the tables"
        assert all(sum(1 for p in t.seats if p is not None) <= self.cfg.table_size for t in tables)
        self.busted |= {name for name in self.director.names if name not in {p.name for p in seated}}
        self.log.append((played.table, len(tables), self.director._left(), len(played.hand.stacks)))


def test_rule_22_seat_draw_fills_the_fewest_tables_evenly_with_random_buttons() -> None:
    director = _Tournament(config(20, 9), 0, None)
    assert [7, 7, 6] == sorted(
        (sum(1 for p in t.seats if p is not None) for t in director.tables), reverse=True
    )
    for table in director.tables:
        assert table.button is not None and table.seats[table.button] is not None
    other = _Tournament(config(20, 9, seed=2), 0, None)
    assert [[p and p.name for p in t.seats] for t in director.tables] != [
        [p and p.name for p in t.seats] for t in other.tables
    ]


def test_rule_23_each_hand_is_played_at_the_level_in_force_when_it_starts() -> None:
    seen: list[tuple[float, int]] = []
    director = _Tournament(config(18, 9), 0, None)
    play = director._play_hand

    def spy(t: int) -> list[tuple[str, int]]:
        clock = director.clocks[t]
        busted = play(t)
        seen.append((clock, director.tables[t].stakes.big_blind if t < len(director.tables) else 0))
        return busted

    director._play_hand = spy  # type: ignore[method-assign]
    director.play()
    assert all(big == HYPER.level(HYPER.level_at(clock)).big_blind for clock, big in seen if big)
    assert len({big for _, big in seen}) > 3, "the levels went up during the tournament"


def test_rule_24_tables_break_from_the_highest_number_as_soon_as_the_field_fits() -> None:
    watch = Watch(config(27, 9))
    watch.director.play()
    for _, tables, left, _ in watch.log:
        assert left > (tables - 1) * 9, "a table should have broken"
    assert [3, 2, 1] == sorted({tables for _, tables, _, _ in watch.log}, reverse=True)
    final_numbers = {number for number, tables, _, _ in watch.log if tables == 1}
    assert {1} == final_numbers  # the final table is table 1: the others broke, highest first


def test_rule_25_tables_stay_within_one_player_of_each_other() -> None:
    watch = Watch(config(40, 8))
    director = watch.director
    original = director._break_and_balance

    def check() -> None:
        original()
        counts = [sum(1 for p in t.seats if p is not None) for t in director.tables]
        assert max(counts) - min(counts) <= 1

    director._break_and_balance = check  # type: ignore[method-assign]
    director.play()


def test_rule_25_the_player_due_the_big_blind_moves_into_the_worst_seat() -> None:
    source = Table(9, Stakes(10, 20))
    for seat in range(8):
        source.sit(seat, f"s{seat}", 1000)
    target = Table(9, Stakes(10, 20))
    for seat in (0, 2, 5, 7):
        target.sit(seat, f"t{seat}", 1000)
    for table in (source, target):
        hand = table.start_hand()
        while hand.actor is not None:
            hand.act(Action.fold())
        table.end_hand()
    due = source.seats[_next_big_blind(source)]
    last_big = target.big_blind_seat
    assert due is not None and last_big is not None
    _move(source, target)
    moved_to = next(s for s, p in enumerate(target.seats) if p is not None and p.name == due.name)
    empty_before = [s for s in range(9) if s not in (0, 2, 5, 7)]
    assert moved_to == min(
        empty_before, key=lambda s: (s - last_big - 1) % 9
    )  # the first empty seat after it


def test_rule_26_a_moved_player_plays_at_once_unless_between_the_small_blind_and_the_button() -> None:
    table = Table(9, Stakes(10, 20))
    for seat in (0, 3, 6):
        table.sit(seat, f"p{seat}", 1000)
    table.button = 0
    table.start_hand()  # button 0, small blind 3, big blind 6
    table.hand.act(Action.fold())  # type: ignore[union-attr]
    table.hand.act(Action.fold())  # type: ignore[union-attr]
    table.end_hand()
    # The next hand's button is seat 3 (the last small blind) and its small blind seat 6.
    table.sit(4, "between", 1000)  # between the coming small blind (6) and button (3): waits
    table.sit(8, "after", 1000)  # past the big blind: dealt in at once, posting what the seat owes
    table.start_hand()
    assert 8 in table.hand_seats and 4 not in table.hand_seats
    while not table.hand.is_complete:  # type: ignore[union-attr]
        table.hand.act(Action.fold())  # type: ignore[union-attr]
    table.end_hand()
    table.start_hand()  # the button has passed seat 4
    assert 4 in table.hand_seats


def test_rule_26_a_player_moved_onto_the_small_blinds_own_seat_posts_it_and_plays_at_once() -> None:
    """Under the dead button the small blind is the seat of the last big blind. A player moved into
    that seat after its player went out is not between the small blind and the button: they are dealt
    in at once and post the small blind their seat owes."""
    table = Table(9, Stakes(10, 20))
    for seat in (0, 3, 6):
        table.sit(seat, f"p{seat}", 1000)
    table.button = 0
    table.start_hand()  # button 0, small blind 3, big blind 6
    while not table.hand.is_complete:  # type: ignore[union-attr]
        table.hand.act(Action.fold())  # type: ignore[union-attr]
    table.end_hand()
    table.leave(6)  # the big blind is knocked out
    table.sit(6, "moved", 1000)  # and a player moved in takes the seat
    hand = table.start_hand()
    assert (3, 6, 0) == (table.button, table.small_blind_seat, table.big_blind_seat)
    assert (6, 0, 3) == table.hand_seats  # the moved player is dealt in …
    assert (10, 20, 0) == hand.declared_blinds  # … and posts the small blind
    moved = table.seats[6]
    assert moved is not None and not moved.waiting  # and waits for nothing more


def test_rule_27_hand_for_hand_on_the_bubble() -> None:
    """12 entrants pay 4: with 5 left on two 3-handed tables, each round deals one hand per table and
    no table starts the next hand before every table has finished."""
    cfg = TournamentConfig(("calling-station", "folder"), 12, load_structure("turbo"), table_size=3, seed=1)
    director, rounds = _Tournament(cfg, 0, None), []
    original, play = director._hand_for_hand_round, director._play_hand
    dealt: list[int] = []

    def one_hand(t: int) -> list[tuple[str, int]]:
        dealt.append(t)
        return play(t)

    def spy() -> None:
        dealt.clear()
        tables = director._playable()
        rounds.append((director._left(), len(tables)))
        original()
        assert sorted(dealt) == tables, "one hand at every table"
        assert len({director.clocks[t] for t in tables}) == 1, "every table waits for the others"

    director._play_hand = one_hand  # type: ignore[method-assign]
    director._hand_for_hand_round = spy  # type: ignore[method-assign]
    run = director.play()
    assert rounds and all((len(run.prizes) + 1, 2) == r for r in rounds)


def test_rule_28_simultaneous_busts_finish_by_starting_stack_and_equal_stacks_share() -> None:
    director = _Tournament(config(9, 9), 0, None)  # 9 entrants pay 450/270/180 of 900
    names = director.names
    for name in names[:4]:
        director._award([name], 9 - names.index(name))  # places 9..6 already out
    # Five left; three bust in one hand: two started it with 500 chips, one with 800.
    director._place_busts([(names[4], 500), (names[5], 800), (names[6], 500)])
    assert (3, 180) == (director.place[names[5]], director.prize[names[5]])
    assert (4, 4, 0, 0) == (
        director.place[names[4]],
        director.place[names[6]],
        director.prize[names[4]],
        director.prize[names[6]],
    )


def test_rule_28_equal_stacks_tying_in_the_money_share_the_prizes() -> None:
    director = _Tournament(config(9, 9), 0, None)
    names = director.names
    for k, name in enumerate(names[:6]):
        director._award([name], 9 - k)
    director._place_busts([(names[6], 700), (names[7], 700)])  # out together, for 2nd and 3rd
    assert {names[6]: 2, names[7]: 2} == {n: director.place[n] for n in names[6:8]}
    assert [225, 225] == [director.prize[n] for n in names[6:8]]  # (270 + 180) / 2


def test_rule_29_places_and_prizes() -> None:
    run = play_tournament(config(18, 9, seed=4), 0)
    assert places_are_valid([f.place for f in run.finishes])
    assert (720, 540, 360, 180) == run.prizes and 1800 == sum(f.prize for f in run.finishes)
    winner = next(f for f in run.finishes if f.place == 1)
    assert 720 <= winner.prize


def test_rule_30_heads_up_the_button_posts_the_small_blind() -> None:
    heads_up: list[tuple[int, ...]] = []

    def spy(played: HandPlayed) -> None:
        if len(played.hand.stacks) == 2:
            heads_up.append(played.hand.declared_blinds)

    play_tournament(config(6, 6, seed=5), 0, on_hand=spy)
    assert heads_up and all(
        blinds[1] <= blinds[0] for blinds in heads_up
    )  # the button (player 1) posts the small


@given(
    entrants=st.integers(2, 60),
    size=st.integers(2, 10),
    structure=st.sampled_from(["hyper", "turbo"]),
    bots=st.lists(st.sampled_from(["random", "calling-station", "folder"]), min_size=1, max_size=3),
    seed=st.integers(0, 2**16),
)
@settings(max_examples=examples(25), deadline=None)
def test_random_fields_keep_every_promise(
    entrants: int, size: int, structure: str, bots: list[str], seed: int
) -> None:
    """Chips conserved after every hand, no table over its size, busted entrants never play again,
    every entrant exactly one place, places valid with ties, prizes adding up to the pool."""
    cfg = TournamentConfig(tuple(bots), entrants, load_structure(structure), table_size=size, seed=seed)
    watch = Watch(cfg)
    run = watch.director.play()
    assert entrants == len(run.finishes) == len({f.entrant for f in run.finishes})
    assert places_are_valid([f.place for f in run.finishes])
    assert cfg.buy_in * entrants == sum(f.prize for f in run.finishes)
    assert run == play_tournament(cfg, 0), "the same seed plays the same tournament"


def test_a_field_that_never_bets_still_ends() -> None:
    """Two folders heads-up once passed the blinds back and forth forever at the last level; past
    it the blinds keep doubling, so every tournament ends."""
    cfg = TournamentConfig(("folder",), 42, load_structure("turbo"), table_size=9, seed=41)
    run = play_tournament(cfg, 0)
    assert places_are_valid([f.place for f in run.finishes]) and run.minutes > 105  # past the 21 levels


def test_tournament_command_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert 0 == main(["tournament", "equity[samples=50]", "folder", "--entrants", "9", "--runs", "4",
                      "--structure", "hyper", "--seed", "2", "--json"])  # fmt: skip
    data = json.loads(capsys.readouterr().out)
    assert (9, 9, 4, 2, 100, 900, [450, 270, 180]) == tuple(
        data[k] for k in ("entrants", "table_size", "runs", "seed", "buy_in", "prize_pool", "prizes")
    )
    assert {"small_blind", "big_blind", "ante", "big_blind_ante", "duration"} <= set(
        data["structure"]["levels"][0]
    )
    assert ["equity[samples=50]", "folder"] == [b["name"] for b in data["bots"]]
    for bot in data["bots"]:
        assert {"entries", "mean_place", "itm", "roi", "roi_ci95", "places"} <= set(bot)
    for run in data["results"]:
        assert 9 == len(run["places"]) and 900 == sum(p["prize"] for p in run["places"])
        assert {"entrant", "bot", "place", "prize", "hands", "faults"} == set(run["places"][0])
