"""Drives the example engine with python-chess, a real UCI client (run by tests/uci_client.rs).

    python play.py ENGINE [--games N] [--plies N] [--base SECONDS] [--inc SECONDS]

Plays engine-vs-engine games with a clock (every move must be legal and must not take longer
than its side had left, as timed by this client around each `play`), then checks `go infinite`
+ `stop` (no bestmove before stop), `go ponder` + `ponderhit`, mated and stalemated positions
(`info depth 0 score mate 0` / `cp 0`, `bestmove (none)`) and MultiPV 3. Prints one line per
check; exits non-zero (with the reason) on the first failure.
"""

import argparse
import sys
import threading
import time

import chess
import chess.engine

# Game openings: the engine is deterministic, so the games start from different positions.
OPENINGS = [
    chess.STARTING_FEN,
    "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
    "rnbqkb1r/pp2pppp/3p1n2/8/3NP3/8/PPP2PPP/RNBQKB1R w KQkq - 1 5",
]
MATED = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"
STALEMATE = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"


def fail(message):
    print(f"FAIL {message}", flush=True)
    sys.exit(1)


def play_game(engines, fen, plies, base, inc):
    board = chess.Board(fen)
    clock = {chess.WHITE: base, chess.BLACK: base}
    worst = 0.0
    while len(board.move_stack) < plies and not board.is_game_over():
        side = board.turn
        limit = chess.engine.Limit(
            white_clock=clock[chess.WHITE], black_clock=clock[chess.BLACK], white_inc=inc, black_inc=inc
        )
        start = time.monotonic()
        result = engines[side].play(board, limit)
        took = time.monotonic() - start
        if result.move is None or result.move not in board.legal_moves:
            fail(f"illegal or no move {result.move} in {board.fen()}")
        if took >= clock[side]:
            fail(f"move {len(board.move_stack) + 1} took {took:.3f} s with {clock[side]:.3f} s left")
        worst = max(worst, took / clock[side])
        clock[side] += inc - took
        board.push(result.move)
    outcome = board.outcome()
    print(
        f"game from {fen}: {len(board.move_stack)} plies, {outcome.result() if outcome else 'unfinished'}, "
        f"clocks {clock[chess.WHITE]:.2f} s / {clock[chess.BLACK]:.2f} s, "
        f"largest share of the clock on one move {worst:.2f}",
        flush=True,
    )
    print("  " + board.root().variation_san(board.move_stack), flush=True)


def check_infinite(engine):
    """`go infinite`: no bestmove in 1 s, one soon after `stop`."""
    board = chess.Board()
    with engine.analysis(board) as analysis:
        done = {}
        waiter = threading.Thread(target=lambda: done.setdefault("best", (analysis.wait(), time.monotonic())))
        waiter.start()
        time.sleep(1.0)
        if "best" in done:
            fail("bestmove before stop in go infinite")
        infos = [i for i in analysis.multipv if "pv" in i]
        if not infos:
            fail("no info with a pv after 1 s of go infinite")
        stopped = time.monotonic()
        analysis.stop()
        waiter.join(5)
        if "best" not in done:
            fail("no bestmove within 5 s of stop")
        best, when = done["best"]
        if best.move not in board.legal_moves:
            fail(f"go infinite: bestmove {best.move} is not legal")
        print(f"go infinite: no bestmove before stop; bestmove {best.move} {when - stopped:.3f} s after stop", flush=True)


def check_ponder(path):
    """`go ponder`: no bestmove until `ponderhit`, then one within the clock (raw protocol)."""
    import subprocess
    import queue

    proc = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    lines = queue.Queue()
    threading.Thread(target=lambda: [lines.put(l.strip()) for l in proc.stdout], daemon=True).start()
    proc.stdin.write("uci\nisready\nposition startpos moves e2e4\ngo ponder wtime 2000 btime 2000\n")
    proc.stdin.flush()
    deadline = time.monotonic() + 1.0
    while time.monotonic() < deadline:
        try:
            line = lines.get(timeout=0.05)
        except queue.Empty:
            continue
        if line.startswith("bestmove"):
            fail("bestmove during go ponder")
    hit = time.monotonic()
    proc.stdin.write("ponderhit\n")
    proc.stdin.flush()
    while True:
        try:
            line = lines.get(timeout=3.0)
        except queue.Empty:
            fail("no bestmove within 3 s of ponderhit")
        if line.startswith("bestmove"):
            break
    took = time.monotonic() - hit
    if took > 1.5:
        fail(f"bestmove {took:.3f} s after ponderhit with 2 s on the clock")
    proc.stdin.write("quit\n")
    proc.stdin.flush()
    proc.wait(5)
    print(f"go ponder: no bestmove before ponderhit; {line} {took:.3f} s after it", flush=True)


def check_no_moves(engine):
    for fen, want in [(MATED, "mate 0"), (STALEMATE, "cp 0")]:
        board = chess.Board(fen)
        result = engine.play(board, chess.engine.Limit(time=0.2), info=chess.engine.INFO_SCORE)
        if result.move is not None:
            fail(f"{fen}: bestmove {result.move} in a position without moves")
        score = result.info.get("score")
        got = None if score is None else score.relative
        expected = chess.engine.Mate(0) if want == "mate 0" else chess.engine.Cp(0)
        if got != expected:
            fail(f"{fen}: score {got}, expected {want}")
        print(f"{fen}: bestmove (none), score {want}", flush=True)


def check_multipv(engine):
    board = chess.Board(OPENINGS[1])
    infos = engine.analyse(board, chess.engine.Limit(depth=3), multipv=3)
    if len(infos) != 3:
        fail(f"MultiPV 3 gave {len(infos)} lines")
    firsts = [i["pv"][0] for i in infos]
    if len(set(firsts)) != 3 or any(m not in board.legal_moves for m in firsts):
        fail(f"MultiPV 3 first moves {firsts}")
    for i in infos:
        b = board.copy()
        for m in i["pv"]:
            if m not in b.legal_moves:
                fail(f"illegal move {m} in pv {i['pv']}")
            b.push(m)
    scores = [i["score"].relative.score(mate_score=100000) for i in infos]
    if scores != sorted(scores, reverse=True):
        fail(f"MultiPV lines not best first: {scores}")
    print("MultiPV 3: " + "; ".join(f"{i['multipv']}: {i['score'].relative} {board.variation_san(i['pv'])}" for i in infos), flush=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("engine")
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--plies", type=int, default=60)
    parser.add_argument("--base", type=float, default=3.0)
    parser.add_argument("--inc", type=float, default=0.05)
    args = parser.parse_args()

    engines = {c: chess.engine.SimpleEngine.popen_uci([args.engine]) for c in chess.COLORS}
    try:
        for g in range(args.games):
            # Swap colours between games too.
            pair = engines if g % 2 == 0 else {c: engines[not c] for c in chess.COLORS}
            play_game(pair, OPENINGS[g % len(OPENINGS)], args.plies, args.base, args.inc)
        check_infinite(engines[chess.WHITE])
        check_no_moves(engines[chess.WHITE])
        check_multipv(engines[chess.BLACK])
    finally:
        for e in engines.values():
            e.quit()
    check_ponder(args.engine)
    print("uci client: all checks passed", flush=True)


if __name__ == "__main__":
    main()
