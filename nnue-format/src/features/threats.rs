//! Threat features of Stockfish 18's FullThreats (the threat inputs of `HalfKAv2_hm+Threats`
//! nets) and of Stockfish 19's redefinition of them ([`ThreatSet`]): one
//! feature per (attacker, its square, attacked piece, its square) where a piece attacks an
//! occupied square, seen from one perspective.
//!
//! # Which pairs exist
//! Every piece X on `from` and every occupied square `to` in X's attack set (pawns: their two
//! capture squares; knights and kings: leaper squares; sliders: rays up to and including the
//! first piece) give a pair, whatever the colours (defences count too). No en passant, no
//! pushes, no x-rays. Dropped pairs (`TARGET_SLOT` = -1): pawns attacking bishops, queens or
//! kings; bishops and rooks attacking queens; kings attacking queens or kings. Two pieces of
//! the same type (different colours, or not pawns) count once: only when the attacker's
//! oriented square is the greater.
//!
//! # Orientation (perspective P, P's king on K)
//! Squares are xored with 56 for Black and with 7 when K is on files e-h (the opposite of
//! HalfKAv2_hm's rule); colours are relative to P. Only K's board half matters.
//!
//! # Index (all squares and pieces oriented)
//! Attackers are laid out own P N B R Q K, then their P N B R Q K; attacker A has `targets(A)`
//! blocks (6, 12, 10, 10, 12, 8 by type; half for attacked pieces of P's colour, half for the
//! other) of `n(A)` features, n(A) being the size of all its empty-board attack sets (84, 336,
//! 560, 896, 1456, 420):
//!
//! ```text
//! index = base(A) + (colour_half * targets(A) / 2 + slot) * n(A)
//!       + sum_{s < from} |moves(A, s)| + |{t in moves(A, from) : t < to}|
//! ```
//!
//! 79856 features in all. Checked against Stockfish 18's own `append_active_indices` on 2500
//! positions by the prototype this module is ported from.
//!
//! # Stockfish 19
//! The same pairs, orientation and index formula with other slots: kings neither attack nor
//! are attacked; pawns attack only knights and rooks; knights and queens attack P N B R Q;
//! bishops and rooks P N B R. Targets per attacker type 4, 10, 8, 8, 10, 0: 59808 features.
//!
//! # Moves
//! A move's change is found against the board before it ([`Board`]), edit by edit: taking a
//! piece off (or putting one on) square `s` breaks (makes) every threat from and onto `s`, and
//! uncovers (blocks) each slider line through `s`. `cancel_log` nets out what a move both makes and breaks.

use std::sync::OnceLock;

use super::attacks::{self, squares, Bitboard};
use super::flip;
use crate::dirty::Dirty;
use crate::position::{Color, Piece, PieceType, Position};

/// Number of FullThreats features (Stockfish 18).
pub const INPUTS: usize = 79856;
/// Number of Stockfish 19's threat features.
pub const INPUTS_19: usize = 59808;
/// Number of Reckless's threat features.
pub const INPUTS_RECKLESS: usize = 66864;

/// Which definition of the threat features.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ThreatSet {
    /// Stockfish 18's FullThreats.
    Sf18,
    /// Stockfish 19's threats.
    Sf19,
    /// Reckless's threats (its `threat_index`): Stockfish 18's pairs without the ones whose
    /// attacked piece is a king.
    Reckless,
}

impl ThreatSet {
    /// Number of features.
    pub const fn inputs(self) -> usize {
        match self {
            ThreatSet::Sf18 => INPUTS,
            ThreatSet::Sf19 => INPUTS_19,
            ThreatSet::Reckless => INPUTS_RECKLESS,
        }
    }

    /// `[attacker type][attacked type]`: the slot within a colour half, -1 = not a feature;
    /// and the slots (both colour halves) per attacker type.
    const fn slots(self) -> ([[i8; 6]; 6], [usize; 6]) {
        match self {
            ThreatSet::Sf18 => (
                [
                    [0, 1, -1, 2, -1, -1],
                    [0, 1, 2, 3, 4, 5],
                    [0, 1, 2, 3, -1, 4],
                    [0, 1, 2, 3, -1, 4],
                    [0, 1, 2, 3, 4, 5],
                    [0, 1, 2, 3, -1, -1],
                ],
                [6, 12, 10, 10, 12, 8],
            ),
            ThreatSet::Sf19 => (
                [
                    [-1, 0, -1, 1, -1, -1],
                    [0, 1, 2, 3, 4, -1],
                    [0, 1, 2, 3, -1, -1],
                    [0, 1, 2, 3, -1, -1],
                    [0, 1, 2, 3, 4, -1],
                    [-1; 6],
                ],
                [4, 10, 8, 8, 10, 0],
            ),
            ThreatSet::Reckless => (
                [
                    [0, 1, -1, 2, -1, -1],
                    [0, 1, 2, 3, 4, -1],
                    [0, 1, 2, 3, -1, -1],
                    [0, 1, 2, 3, -1, -1],
                    [0, 1, 2, 3, 4, -1],
                    [0, 1, 2, 3, -1, -1],
                ],
                [6, 10, 8, 8, 10, 8],
            ),
        }
    }

    /// Bit `attacker * 6 + attacked` (piece types) when such a pair is a feature for some
    /// colours: the pairs a move's log keeps.
    const fn kept_pairs(self) -> u64 {
        let (slots, _) = self.slots();
        let mut bits = 0u64;
        let mut a = 0;
        while a < 6 {
            let mut t = 0;
            while t < 6 {
                if slots[a][t] >= 0 {
                    bits |= 1 << (a * 6 + t);
                }
                t += 1;
            }
            a += 1;
        }
        bits
    }
}

struct Layout {
    /// Empty-board attack set by relative attacker piece (0..12) and square.
    moves: [[Bitboard; 64]; 12],
    /// `sum_{s < from} |moves(A, s)|`.
    from_offset: [[u32; 64]; 12],
    /// `pair[A][T]`: base(A) + slot(T) * n(A), or `u32::MAX` when never a feature.
    pair: [[u32; 12]; 12],
    /// `once[A][T]`: the pair counts only when the attacker's square is the greater.
    once: [[bool; 12]; 12],
}

fn attacks_of(piece: Piece, s: usize, occ: Bitboard) -> Bitboard {
    match piece.kind {
        PieceType::Pawn => attacks::pawn(piece.color.index(), s),
        PieceType::Knight => attacks::knight(s),
        PieceType::Bishop => attacks::bishop(s, occ),
        PieceType::Rook => attacks::rook(s, occ),
        PieceType::Queen => attacks::queen(s, occ),
        PieceType::King => attacks::king(s),
    }
}

fn layout(set: ThreatSet) -> &'static Layout {
    static L18: OnceLock<Layout> = OnceLock::new();
    static L19: OnceLock<Layout> = OnceLock::new();
    static LRECKLESS: OnceLock<Layout> = OnceLock::new();
    let cell = match set {
        ThreatSet::Sf18 => &L18,
        ThreatSet::Sf19 => &L19,
        ThreatSet::Reckless => &LRECKLESS,
    };
    cell.get_or_init(|| {
        let (target_slot, targets) = set.slots();
        let mut l = Layout {
            moves: [[0; 64]; 12],
            from_offset: [[0; 64]; 12],
            pair: [[u32::MAX; 12]; 12],
            once: [[false; 12]; 12],
        };
        let mut base = 0u32;
        for a in 0..12 {
            let color = Color::BOTH[a / 6];
            let kind = PieceType::ALL[a % 6];
            let mut n = 0u32;
            for s in 0..64 {
                l.moves[a][s] = attacks_of(Piece::new(color, kind), s, 0);
                l.from_offset[a][s] = n;
                if kind != PieceType::Pawn || (8..56).contains(&s) {
                    n += l.moves[a][s].count_ones();
                }
            }
            for t in 0..12 {
                let (ak, tk) = (kind.index(), t % 6);
                let slot = target_slot[ak][tk];
                if slot >= 0 {
                    let slot = (t / 6) * targets[ak] / 2 + slot as usize;
                    l.pair[a][t] = base + slot as u32 * n;
                }
                l.once[a][t] = ak == tk && (a / 6 != t / 6 || kind != PieceType::Pawn);
            }
            base += n * targets[kind.index()] as u32;
        }
        assert_eq!(base as usize, set.inputs());
        l
    })
}

/// Square orientation (xor mask) for `perspective` with its king on `king`.
#[inline(always)]
#[doc(hidden)]
pub fn orientation(perspective: Color, king: usize) -> usize {
    (if king % 8 >= 4 { 7 } else { 0 }) ^ flip(perspective)
}

/// Piece index 0..12 relative to `perspective` (its own pieces first).
#[inline(always)]
fn relative(p: Piece, perspective: Color) -> usize {
    usize::from(p.color != perspective) * 6 + p.kind.index()
}

#[inline(always)]
fn index_oriented(l: &Layout, a: usize, from: usize, t: usize, to: usize) -> Option<usize> {
    let (i, kept) = index_and_kept(l, a, from, t, to);
    kept.then_some(i)
}

/// The feature of a threat (oriented squares, relative pieces) and whether it is one: without a
/// branch, for [`changes`]' lists (the index is meaningless when it is not kept).
#[inline(always)]
fn index_and_kept(l: &Layout, a: usize, from: usize, t: usize, to: usize) -> (usize, bool) {
    let base = l.pair[a][t];
    let kept = (base != u32::MAX) & !(l.once[a][t] & (from < to));
    let below_to = (l.moves[a][from] & ((1u64 << to) - 1)).count_ones();
    (base.wrapping_add(l.from_offset[a][from]).wrapping_add(below_to) as usize, kept)
}

/// An attacker and the piece it attacks (absolute colours and squares).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Threat {
    /// The attacking piece.
    pub attacker: Piece,
    /// The attacker's square (0..64, a1 = 0).
    pub from: u8,
    /// The attacked piece.
    pub attacked: Piece,
    /// The attacked piece's square (0..64, a1 = 0).
    pub to: u8,
}

/// The feature of a threat in `set` for `perspective` whose king stands on square `king`, if any.
pub fn index(set: ThreatSet, perspective: Color, king: usize, t: &Threat) -> Option<usize> {
    let o = orientation(perspective, king);
    let (a, at) = (relative(t.attacker, perspective), relative(t.attacked, perspective));
    index_oriented(layout(set), a, t.from as usize ^ o, at, t.to as usize ^ o)
}

/// Pieces on squares with bitboards: what threat features are computed from. The accumulator
/// stack keeps one per ply for threat nets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Board {
    squares: [Option<Piece>; 64],
    /// By absolute piece index (white pawn..king, black pawn..king).
    pieces: [Bitboard; 12],
    occupied: Bitboard,
}

impl Default for Board {
    fn default() -> Self {
        Board { squares: [None; 64], pieces: [0; 12], occupied: 0 }
    }
}

impl Board {
    /// The board of `pos`.
    pub fn new(pos: &Position) -> Board {
        let mut b = Board::default();
        for (sq, piece) in pos.pieces() {
            b.put(sq.index(), piece);
        }
        b
    }

    /// Bitboards by absolute piece index (white pawn..king, black pawn..king).
    #[doc(hidden)]
    pub fn placement(&self) -> [Bitboard; 12] {
        self.pieces
    }

    /// The square of `color`'s king, if it has exactly one (a board played from `Dirty` values
    /// that describe no move may have none, or two).
    pub fn king(&self, color: Color) -> Option<crate::position::Square> {
        let bb = self.bb(color, PieceType::King);
        (bb != 0 && bb & (bb - 1) == 0).then(|| crate::position::Square::new(bb.trailing_zeros() as u8)).flatten()
    }

    /// The position of this board (White to move), if it is one (one king each, at most 32 pieces).
    #[doc(hidden)]
    pub fn to_position(&self) -> Option<Position> {
        // One king each: the bitboards say it without a pass over the squares (a rebuild of a
        // cache entry on a king move asks for this).
        let kings = [self.king(Color::White)?, self.king(Color::Black)?];
        Position::from_board(Color::White, self.squares, self.occupied, kings)
    }

    /// The piece on `sq`, if any.
    pub fn piece_on(&self, sq: crate::position::Square) -> Option<Piece> {
        self.squares[sq.index()]
    }

    /// The squares of `color`'s pieces of `kind` (bit `i`: square `i`, a1 = 0).
    pub fn bb(&self, color: Color, kind: PieceType) -> Bitboard {
        self.pieces[color.index() * 6 + kind.index()]
    }

    fn kind_bb(&self, kind: PieceType) -> Bitboard {
        self.bb(Color::White, kind) | self.bb(Color::Black, kind)
    }

    /// Puts `p` on `s`, taking off what was there (a `Dirty` that forgot a capture: the board
    /// stays a board, one piece per square).
    fn put(&mut self, s: usize, p: Piece) {
        self.remove(s);
        self.squares[s] = Some(p);
        self.pieces[p.color.index() * 6 + p.kind.index()] |= 1 << s;
        self.occupied |= 1 << s;
    }

    fn remove(&mut self, s: usize) {
        if let Some(p) = self.squares[s].take() {
            self.pieces[p.color.index() * 6 + p.kind.index()] &= !(1 << s);
            self.occupied &= !(1 << s);
        }
    }

    /// Plays `dirty`: its removals, then its additions.
    pub fn apply(&mut self, dirty: &Dirty) {
        for (sq, _) in dirty.removed() {
            self.remove(sq.index());
        }
        for (sq, piece) in dirty.added() {
            self.put(sq.index(), piece);
        }
    }

    /// Pawns, knights and kings (of both colours) attacking `s`.
    fn leaper_attackers(&self, s: usize) -> Bitboard {
        (attacks::knight(s) & self.kind_bb(PieceType::Knight))
            | (attacks::king(s) & self.kind_bb(PieceType::King))
            | (attacks::pawn(1, s) & self.bb(Color::White, PieceType::Pawn))
            | (attacks::pawn(0, s) & self.bb(Color::Black, PieceType::Pawn))
    }

    /// Bishops, rooks and queens (of both colours) seeing the square whose rook and bishop
    /// attack sets (on this board's occupancy) are `rook` and `bishop`.
    fn slider_attackers_from(&self, rook: Bitboard, bishop: Bitboard) -> Bitboard {
        let queens = self.kind_bb(PieceType::Queen);
        (rook & (self.kind_bb(PieceType::Rook) | queens)) | (bishop & (self.kind_bb(PieceType::Bishop) | queens))
    }
}

/// Appends (plus `offset`) the active threat features of `set` for `perspective` (king on
/// `king`).
pub fn active(set: ThreatSet, board: &Board, perspective: Color, king: usize, offset: usize, out: &mut Vec<usize>) {
    let l = layout(set);
    let o = orientation(perspective, king);
    let occ = board.occupied;
    for color in Color::BOTH {
        for kind in PieceType::ALL {
            let attacker = Piece::new(color, kind);
            let a = relative(attacker, perspective);
            for from in squares(board.bb(color, kind)) {
                for to in squares(attacks_of(attacker, from, occ) & occ) {
                    // `occupied` marks exactly the squares that hold a piece.
                    if let Some(attacked) = board.squares[to] {
                        let f = index_oriented(l, a, from ^ o, relative(attacked, perspective), to ^ o);
                        out.extend(f.map(|f| offset + f));
                    }
                }
            }
        }
    }
}

/// A threat that appeared (`add`) or disappeared during a move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[doc(hidden)]
pub struct ThreatChange {
    /// The threat.
    pub threat: Threat,
    /// `true`: the move made the threat; `false`: it broke it.
    pub add: bool,
    /// The threat packed into one word (pieces and squares), so that [`cancel_log`] compares
    /// one integer per pair.
    key: u32,
}

/// A move's log of threat changes, keeping only the pairs of piece types that are features
/// of its set (the others could only cancel or be dropped per perspective).
struct Log<'a> {
    changes: &'a mut Vec<ThreatChange>,
    kept: u64,
}

impl Log<'_> {
    fn push(&mut self, attacker: Piece, from: usize, attacked: Piece, to: usize, add: bool) {
        if self.kept >> (attacker.kind.index() * 6 + attacked.kind.index()) & 1 == 0 {
            return;
        }
        let piece = |p: Piece| (p.color.index() * 6 + p.kind.index()) as u32;
        let key = piece(attacker) << 24 | (from as u32) << 16 | piece(attacked) << 8 | to as u32;
        let threat = Threat { attacker, from: from as u8, attacked, to: to as u8 };
        self.changes.push(ThreatChange { threat, add, key });
    }
}

/// Every threat involving square `s` (holding `pc` on `board`), logged as `add`; and for each
/// slider line through `s` the first piece beyond it, with the opposite sign (occupying `s`
/// blocks that threat, vacating it uncovers it).
fn log_square(board: &Board, s: usize, pc: Piece, add: bool, log: &mut Log<'_>) {
    let occ = board.occupied;
    let at = |sq: usize| board.squares[sq].expect("an occupied square");
    let kind = pc.kind.index();
    // The slider lines through `s`, which are also a slider's own attacks.
    let (rook, bishop) = (attacks::rook(s, occ), attacks::bishop(s, occ));
    // Whole walks skipped when `pc`'s type attacks (or is attacked by) no kept type: Stockfish
    // 19's kings, for one.
    if log.kept >> (kind * 6) & 0o77 != 0 {
        let attacks = match pc.kind {
            PieceType::Bishop => bishop,
            PieceType::Rook => rook,
            PieceType::Queen => rook | bishop,
            _ => attacks_of(pc, s, occ),
        };
        for to in squares(attacks & occ) {
            log.push(pc, s, at(to), to, add);
        }
    }
    if log.kept & (0o10101010101 << kind) != 0 {
        for from in squares(board.leaper_attackers(s)) {
            log.push(at(from), from, pc, s, add);
        }
    }
    let through = (rook | bishop) & occ;
    for from in squares(board.slider_attackers_from(rook, bishop)) {
        let slider = at(from);
        log.push(slider, from, pc, s, add);
        let behind = through & attacks::beyond(from, s);
        if behind != 0 {
            let to = behind.trailing_zeros() as usize;
            log.push(slider, from, at(to), to, !add);
        }
    }
}

/// Every threat of `set`'s piece-type pairs that `dirty` makes and breaks on `board` (the
/// board before the move), in order; `board` ends as the board after the move.
#[doc(hidden)]
pub fn log_move(set: ThreatSet, board: &mut Board, dirty: &Dirty, log: &mut Vec<ThreatChange>) {
    let kept = match set {
        ThreatSet::Sf18 => const { ThreatSet::Sf18.kept_pairs() },
        ThreatSet::Sf19 => const { ThreatSet::Sf19.kept_pairs() },
        ThreatSet::Reckless => const { ThreatSet::Reckless.kept_pairs() },
    };
    let mut log = Log { changes: log, kept };
    // What the board holds, whatever `dirty` says: a removal takes the piece that is there
    // (none: nothing), an addition on an occupied square takes the occupant off first (a
    // `Dirty` that describes no move leaves a board, and threats, that are one).
    for (sq, _) in dirty.removed() {
        let s = sq.index();
        if let Some(there) = board.squares[s] {
            log_square(board, s, there, false, &mut log);
            board.remove(s);
        }
    }
    for (sq, piece) in dirty.added() {
        let s = sq.index();
        if let Some(there) = board.squares[s] {
            log_square(board, s, there, false, &mut log);
            board.remove(s);
        }
        board.put(s, piece);
        log_square(board, s, piece, true, &mut log);
    }
}

/// Drops the pairs of changes that cancel (a threat both made and broken during the move), so
/// that what is left is the move's net change, whichever the perspective: a threat's feature,
/// when it has one, is the same for the make and the break, and distinct threats have distinct
/// features.
#[doc(hidden)]
pub fn cancel_log(log: &mut Vec<ThreatChange>) {
    let mut i = 0;
    while i < log.len() {
        let (key, add) = (log[i].key, log[i].add);
        match (i + 1..log.len()).find(|&j| log[j].key == key && log[j].add != add) {
            Some(j) => {
                // j > i: removing j first leaves i in place.
                log.swap_remove(j);
                log.swap_remove(i);
            }
            None => i += 1,
        }
    }
}

/// Appends (plus `offset`) `perspective`'s threat-feature changes from a move's log after
/// [`cancel_log`] (its king on `king`, in the same board half before and after the move).
#[doc(hidden)]
pub fn changes(
    set: ThreatSet,
    log: &[ThreatChange],
    perspective: Color,
    king: usize,
    offset: usize,
    added: &mut Vec<usize>,
    removed: &mut Vec<usize>,
) {
    let (l, o) = (layout(set), orientation(perspective, king));
    // Without a branch per change: its sign and whether it is a feature of the set are as good
    // as random to a predictor (on Reckless's set, 3-4% more nodes per second in its own
    // search). Each index is pushed to both lists, and each list is cut back by one where it
    // doesn't belong.
    for c in log {
        let t = &c.threat;
        let (a, at) = (relative(t.attacker, perspective), relative(t.attacked, perspective));
        let (i, kept) = index_and_kept(l, a, t.from as usize ^ o, at, t.to as usize ^ o);
        let i = offset.wrapping_add(i);
        added.push(i);
        added.truncate(added.len() - usize::from(!(kept & c.add)));
        removed.push(i);
        removed.truncate(removed.len() - usize::from(!(kept & !c.add)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::{random_positions, Square};

    /// The threat features `dirty` changes for `perspective` (king on `king` after the move, in the
    /// same half as before), given the board before the move.
    fn move_deltas(
        set: ThreatSet,
        before: &Board,
        dirty: &Dirty,
        perspective: Color,
        king: usize,
        added: &mut Vec<usize>,
        removed: &mut Vec<usize>,
    ) {
        let mut board = before.clone();
        let mut log = Vec::with_capacity(32);
        log_move(set, &mut board, dirty, &mut log);
        cancel_log(&mut log);
        changes(set, &log, perspective, king, 0, added, removed);
    }

    /// Removes the features present in both lists (once per occurrence); both end up sorted.
    fn cancel(removed: &mut Vec<usize>, added: &mut Vec<usize>) {
        let (r, a) = cancel_in_place(removed, added);
        removed.truncate(r);
        added.truncate(a);
    }

    /// [`cancel`] on slices: sorts both, moves the kept features to the front and returns how many
    /// of each are kept.
    fn cancel_in_place(removed: &mut [usize], added: &mut [usize]) -> (usize, usize) {
        removed.sort_unstable();
        added.sort_unstable();
        let (mut i, mut j, mut keep_r, mut keep_a) = (0, 0, 0, 0);
        while i < removed.len() && j < added.len() {
            if removed[i] < added[j] {
                removed[keep_r] = removed[i];
                keep_r += 1;
                i += 1;
            } else if added[j] < removed[i] {
                added[keep_a] = added[j];
                keep_a += 1;
                j += 1;
            } else {
                i += 1;
                j += 1;
            }
        }
        removed.copy_within(i.., keep_r);
        added.copy_within(j.., keep_a);
        (keep_r + removed.len() - i, keep_a + added.len() - j)
    }

    fn active_of(set: ThreatSet, pos: &Position, perspective: Color) -> Vec<usize> {
        let mut v = Vec::new();
        active(set, &Board::new(pos), perspective, pos.king(perspective).index(), 0, &mut v);
        v.sort_unstable();
        v
    }

    /// A board's position is the one its pieces make, White to move; a board without one king
    /// each is none.
    #[test]
    fn a_board_is_its_position_when_it_has_one_king_each() {
        for pos in random_positions(23, 200) {
            let board = Board::new(&pos);
            let want = Position::new(Color::White, pos.pieces()).unwrap();
            assert_eq!(board.to_position(), Some(want));
            let (king, piece) = (pos.king(Color::Black), Piece::new(Color::Black, PieceType::King));
            let mut no_king = board.clone();
            no_king.remove(king.index());
            assert_eq!((no_king.king(Color::Black), no_king.to_position()), (None, None));
            if let Some(empty) = (0..64).find(|&s| board.squares[s].is_none()) {
                let mut two_kings = board.clone();
                two_kings.put(empty, piece);
                assert_eq!((two_kings.king(Color::Black), two_kings.to_position()), (None, None));
            }
        }
    }

    /// Moves, captures, promotions and castling played on boards are the positions they lead
    /// to; `Dirty` values that describe no move leave one piece a square.
    #[test]
    fn played_moves_are_the_positions_they_lead_to() {
        let fen = |f: &str| Position::from_fen(f).unwrap();
        let sq = |s: &str| Square::parse(s).unwrap();
        let p = |c, k| Piece::new(c, k);
        let (w, b) = (Color::White, Color::Black);
        let start = fen("r3k2r/1P6/8/3p4/4P3/8/8/R3K2R w KQkq - 0 1");
        let plies = [
            (
                Dirty::capture(p(w, PieceType::Pawn), sq("e4"), sq("d5"), p(b, PieceType::Pawn)),
                "r3k2r/1P6/8/3P4/8/8/8/R3K2R b KQkq - 0 1",
            ),
            (
                Dirty::default()
                    .remove(sq("e8"), p(b, PieceType::King))
                    .remove(sq("h8"), p(b, PieceType::Rook))
                    .add(sq("g8"), p(b, PieceType::King))
                    .add(sq("f8"), p(b, PieceType::Rook)),
                "r4rk1/1P6/8/3P4/8/8/8/R3K2R w KQ - 1 2",
            ),
            (
                Dirty::default()
                    .remove(sq("b7"), p(w, PieceType::Pawn))
                    .remove(sq("a8"), p(b, PieceType::Rook))
                    .add(sq("a8"), p(w, PieceType::Queen)),
                "Q4rk1/8/8/3P4/8/8/8/R3K2R b KQ - 0 2",
            ),
        ];
        let mut board = Board::new(&start);
        for (dirty, after) in plies {
            board.apply(&dirty);
            let after = Board::new(&fen(after));
            assert_eq!(board, after);
            assert_eq!(board.to_position().map(|pos| Board::new(&pos)), Some(after));
        }
        // A knight put on an occupied square replaces the occupant; a removal from an empty
        // square removes nothing; a king taken off makes no position.
        let mut board = Board::new(&start);
        board.apply(&Dirty::default().add(sq("e4"), p(w, PieceType::Knight)));
        board.apply(&Dirty::default().remove(sq("c3"), p(w, PieceType::Queen)));
        let squares: u32 = board.placement().iter().map(|bb| bb.count_ones()).sum();
        assert_eq!(board.placement().iter().fold(0, |all, bb| all | bb), board.occupied);
        assert_eq!(board.occupied.count_ones(), squares);
        assert_eq!(squares as usize, start.piece_count());
        board.apply(&Dirty::default().remove(sq("e1"), p(w, PieceType::King)));
        assert_eq!((board.king(w), board.to_position()), (None, None));
    }

    /// The layout of the index space: the blocks' sizes and every reachable pair maps below
    /// 79856, injectively.
    #[test]
    fn index_space() {
        let l = layout(ThreatSet::Sf18);
        let firsts: Vec<u32> = (0..12).map(|a| (0..12).map(|t| l.pair[a][t]).min().unwrap()).collect();
        assert_eq!(firsts, [0, 504, 4536, 10136, 19096, 36568, 39928, 40432, 44464, 50064, 59024, 76496]);
        let mut seen = vec![false; INPUTS];
        let mut distinct = 0;
        for a in 0..12 {
            for t in 0..12 {
                for from in 0..64 {
                    for to in squares(l.moves[a][from]) {
                        if let Some(i) = index_oriented(l, a, from, t, to) {
                            if a % 6 != 0 || (8..56).contains(&from) {
                                assert!(!seen[i], "index {i} twice");
                                seen[i] = true;
                                distinct += 1;
                            }
                        }
                    }
                }
            }
        }
        assert_eq!(distinct, 73276);
    }

    /// Stockfish 19's blocks start where its shared document says (own P..Q, then theirs).
    #[test]
    fn index_space_19() {
        let l = layout(ThreatSet::Sf19);
        let firsts: Vec<u32> =
            (0..12).filter(|a| a % 6 != 5).map(|a| (0..12).map(|t| l.pair[a][t]).min().unwrap()).collect();
        assert_eq!(firsts, [0, 336, 3696, 8176, 15344, 29904, 30240, 33600, 38080, 45248]);
        assert!((0..12).all(|t| l.pair[5][t] == u32::MAX && l.pair[11][t] == u32::MAX));
        assert!((0..12).all(|a| l.pair[a][5] == u32::MAX && l.pair[a][11] == u32::MAX));
    }

    /// Reckless's blocks: Stockfish 18's without the attacks on kings (its
    /// `PIECE_INTERACTION_MAP` and `PIECE_TARGET_COUNT`), as many features as its file has rows.
    #[test]
    fn index_space_reckless() {
        let l = layout(ThreatSet::Reckless);
        assert_eq!(INPUTS_RECKLESS, crate::ThreatInputs::Reckless.inputs());
        // Own pawns: 84 squares' attacks, 6 targets; own knights start at 6 * 84.
        let firsts: Vec<u32> = (0..12).map(|a| (0..12).map(|t| l.pair[a][t]).min().unwrap()).collect();
        assert_eq!(firsts[..2], [0, 504]);
        assert!((0..12).all(|a| l.pair[a][5] == u32::MAX && l.pair[a][11] == u32::MAX));
        // Kings attack P N B R of both colours, as in Stockfish 18.
        assert!((0..4).all(|t| l.pair[5][t] != u32::MAX && l.pair[5][6 + t] != u32::MAX));
    }

    /// Incremental changes equal the difference of the active sets, for random removals and
    /// additions on random placements (kings kept in place).
    /// The log keeps a pair of piece types exactly when some colours make it a feature.
    #[test]
    fn the_log_keeps_the_pairs_that_have_features() {
        let (p, n, b, r, q, k) = (0, 1, 2, 3, 4, 5);
        let kept = |set: ThreatSet, a: usize, t: usize| set.kept_pairs() >> (a * 6 + t) & 1 != 0;
        for t in 0..6 {
            // Stockfish 19: kings neither attack nor are attacked.
            assert!(!kept(ThreatSet::Sf19, k, t) && !kept(ThreatSet::Sf19, t, k));
        }
        assert!(kept(ThreatSet::Sf19, p, n) && kept(ThreatSet::Sf19, p, r) && !kept(ThreatSet::Sf19, p, b));
        assert!(!kept(ThreatSet::Sf19, b, q) && kept(ThreatSet::Sf19, q, q));
        // Stockfish 18: kings attack pawns to rooks; knights attack kings.
        assert!(kept(ThreatSet::Sf18, k, r) && !kept(ThreatSet::Sf18, k, q) && kept(ThreatSet::Sf18, n, k));
        for set in [ThreatSet::Sf18, ThreatSet::Sf19] {
            let (slots, _) = set.slots();
            for (a, row) in slots.iter().enumerate() {
                for (t, &slot) in row.iter().enumerate() {
                    assert_eq!(kept(set, a, t), slot >= 0, "{set:?} {a} {t}");
                }
            }
        }
    }

    #[test]
    fn deltas_equal_set_differences() {
        let mut rng = crate::synth::Rng::new(5);
        for (i, pos) in random_positions(9, 300).into_iter().enumerate() {
            let set = [ThreatSet::Sf18, ThreatSet::Sf19, ThreatSet::Reckless][i % 3];
            let pieces: Vec<(Square, Piece)> = pos.pieces().filter(|(_, p)| p.kind != PieceType::King).collect();
            if pieces.is_empty() {
                continue;
            }
            let (from, piece) = pieces[rng.range(0, pieces.len() as i64 - 1) as usize];
            let empty: Vec<Square> =
                (0..64u8).map(|s| Square::new(s).unwrap()).filter(|&s| pos.piece_at(s).is_none()).collect();
            let to = empty[rng.range(0, empty.len() as i64 - 1) as usize];
            let mut dirty = Dirty::default().remove(from, piece).add(to, piece);
            // Sometimes a capture elsewhere too.
            if pieces.len() > 1 && rng.range(0, 1) == 0 {
                let (sq, p) = pieces.iter().copied().find(|&(s, _)| s != from).unwrap();
                dirty = dirty.remove(sq, p);
            }
            let after_pieces: Vec<(Square, Piece)> =
                pos.pieces().filter(|&(s, _)| !dirty.removed().any(|(r, _)| r == s)).chain(dirty.added()).collect();
            let after = Position::new(!pos.side_to_move(), after_pieces).unwrap();
            for perspective in Color::BOTH {
                let (mut added, mut removed) = (Vec::new(), Vec::new());
                let king = pos.king(perspective).index();
                move_deltas(set, &Board::new(&pos), &dirty, perspective, king, &mut added, &mut removed);
                let (mut want_removed, mut want_added) =
                    (active_of(set, &pos, perspective), active_of(set, &after, perspective));
                cancel(&mut want_removed, &mut want_added);
                added.sort_unstable();
                removed.sort_unstable();
                assert_eq!((added, removed), (want_added, want_removed), "{pos:?} {dirty:?}");
            }
        }
    }
}
