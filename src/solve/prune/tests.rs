use super::*;

/// A test game: position `p`'s options are sums of positions below
/// `p`; some positions have values given (leaves worth more than
/// their options say), the rest are worth the plain mex. The search
/// stores what it proves in `values`, apart from `given`.
struct Dag {
    options: Vec<Vec<Vec<PosId>>>,
    given: Vec<Option<u32>>,
    values: Vec<Option<u32>>,
    /// How often the general search was asked.
    full: u32,
    /// The hint, if any: per position, whether it is preferred
    /// (`None`: told by `Tree::aimed`, after the listing).
    prefers: Option<Vec<Option<bool>>>,
    /// Where the search said it was, each time.
    reports: Vec<Vec<(u32, u32)>>,
}

impl Dag {
    fn new(options: Vec<Vec<Vec<PosId>>>, given: Vec<Option<u32>>) -> Dag {
        Dag {
            options,
            values: given.clone(),
            given,
            full: 0,
            prefers: None,
            reports: Vec::new(),
        }
    }
}

impl Tree for Dag {
    fn known(&self, pos: PosId) -> Option<u32> {
        self.values[pos.0 as usize]
    }
    fn store(&mut self, pos: PosId, value: u32) -> R<()> {
        self.values[pos.0 as usize] = Some(value);
        Ok(())
    }
    fn options(&mut self, pos: PosId, out: &mut Moves, more: &mut More) -> R<bool> {
        out.clear();
        for o in &self.options[pos.0 as usize] {
            out.push(o);
            let (known, aimed) = match &self.prefers {
                Some(p) => (
                    known_sum_paired(o, |c| self.values[c.0 as usize]),
                    aimed_sum(o, |c| p[c.0 as usize]),
                ),
                None => (known_sum(o, |c| self.values[c.0 as usize]), Some(false)),
            };
            if !more(known, aimed) {
                return Ok(false);
            }
        }
        Ok(true)
    }
    /// Leaves out options by a rule of its own, not the hint's: some the
    /// hint prefers, some it does not, and at some positions none (a
    /// first look asks `prefer` of an option before it is split, which
    /// may say otherwise than its parts).
    fn look(&mut self, pos: PosId, out: &mut Moves, more: &mut More) -> R<(bool, bool)> {
        let Some(p) = &self.prefers else {
            return self.options(pos, out, more).map(|all| (all, false));
        };
        out.clear();
        let mut left_out = false;
        for (i, o) in self.options[pos.0 as usize].iter().enumerate() {
            let aimed = aimed_sum(o, |c| p[c.0 as usize]);
            let skip = match pos.0 % 3 {
                0 => false,
                1 => aimed == Some(false) || (pos.0 as usize + i).is_multiple_of(5),
                _ => !(pos.0 as usize * 7 + i).is_multiple_of(3),
            };
            if skip {
                left_out = true;
                continue;
            }
            out.push(o);
            let known = known_sum_paired(o, |c| self.values[c.0 as usize]);
            if !more(known, aimed) {
                return Ok((false, left_out));
            }
        }
        Ok((true, left_out))
    }
    fn value(&mut self, pos: PosId) -> R<u32> {
        self.full += 1;
        Ok(brute(&self.options, &self.given, pos))
    }
    fn size(&self, pos: PosId) -> u32 {
        pos.0 as u32
    }
    fn hinted(&self) -> bool {
        self.prefers.is_some()
    }
    fn progress(&mut self, _round: u32, levels: &[(u32, u32)]) {
        self.reports.push(levels.to_vec());
    }
    fn aimed(&mut self, parts: &[PosId]) -> R<bool> {
        let p = self.prefers.as_ref().expect("asked only with a hint");
        Ok(aimed_sum(parts, |c| Some(p[c.0 as usize].unwrap_or(c.0 % 2 == 0))) == Some(true))
    }
}

/// A position's given value, else the plain mex of its options'.
fn brute(options: &[Vec<Vec<PosId>>], given: &[Option<u32>], pos: PosId) -> u32 {
    if let Some(v) = given[pos.0 as usize] {
        return v;
    }
    let seen: Vec<u32> = options[pos.0 as usize]
        .iter()
        .map(|o| o.iter().fold(0, |x, &c| x ^ brute(options, given, c)))
        .collect();
    (0..).find(|v| !seen.contains(v)).unwrap_or(0)
}

/// A small xorshift, so the test needs no crate.
fn next(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

/// Against the plain mex on 600 random games, every position asked in
/// turn, with values the search stored from earlier questions reused;
/// some positions have more options than a candidate set holds. Each
/// game is searched without a hint, then with a random one (options
/// with equal parts, which cancel, are common here): a hint orders the
/// search and never changes a value.
#[test]
fn values_agree_with_the_plain_mex() {
    let mut state = 0x9e37_79b9_7f4a_7c15;
    for game in 0..600 {
        let hint = game % 2 == 1;
        let n = 4 + (next(&mut state) % 12) as usize;
        let wide = game % 10 == 0;
        let mut options: Vec<Vec<Vec<PosId>>> = vec![Vec::new(); n];
        for (p, opts) in options.iter_mut().enumerate().skip(1) {
            // The wide position, asked about only as an option of the
            // top one.
            if wide && p == n - 1 {
                opts.push(vec![PosId((n - 2) as u64)]);
                continue;
            }
            // Wide: more options than a candidate set holds, or exactly
            // as many as it holds.
            let k = if wide && p == n - 2 {
                if game % 20 == 0 { 140 } else { 127 }
            } else {
                next(&mut state) % 6
            };
            for _ in 0..k {
                let parts = 1 + next(&mut state) % 3;
                let o = (0..parts)
                    .map(|_| PosId(next(&mut state) % p as u64))
                    .collect();
                opts.push(o);
            }
        }
        let none = vec![None; n];
        let want: Vec<u32> = (0..n as u64)
            .map(|p| brute(&options, &none, PosId(p)))
            .collect();
        let mut dag = Dag::new(options, none);
        if hint {
            let prefers = (0..n)
                .map(|_| match next(&mut state) % 3 {
                    0 => None,
                    k => Some(k == 1),
                })
                .collect();
            dag.prefers = Some(prefers);
        }
        let mut search = Searcher::default();
        // The top position first (the wide one only as its option).
        for p in (0..n as u64)
            .map(PosId)
            .rev()
            .filter(|&p| !wide || p.0 as usize != n - 2)
        {
            let got = search.nimber(&mut dag, p).expect("no error");
            assert_eq!(got, Some(want[p.0 as usize]), "game {game}, position {p:?}");
        }
        for (p, v) in dag.values.iter().enumerate() {
            assert!(v.is_none_or(|v| v == want[p]), "stored a wrong value");
        }
        if wide && game % 20 == 0 {
            assert!(dag.full > 0, "the wide position went to the general search");
        }
    }
}

/// A component asked for its whole value is never cut off, even when
/// its known options take every value a set can hold: P = A + B with A
/// and B both worth 128 (128 options each, of known values 0..=127)
/// is worth 1, its only option A + B being worth 0; Q, whose only
/// option is P, is worth 0.
#[test]
fn a_component_asked_in_full_is_not_cut_off() {
    let leaves: Vec<Vec<PosId>> = (1..=128).map(|k| vec![PosId(k)]).collect();
    let mut options: Vec<Vec<Vec<PosId>>> = vec![Vec::new(); 133];
    options[129] = leaves.clone();
    options[130] = leaves;
    options[131] = vec![vec![PosId(130), PosId(129)]];
    options[132] = vec![vec![PosId(131)]];
    let mut values = vec![None; 133];
    for (k, v) in values.iter_mut().enumerate().take(129).skip(1) {
        *v = Some(k as u32 - 1);
    }
    let mut tree = Dag::new(options, values);
    let got = Searcher::default().nimber(&mut tree, PosId(132)).unwrap();
    assert_eq!(got, Some(0));
    assert_eq!(tree.values[131], Some(1));
}

#[test]
fn a_full_candidate_set() {
    // 0 ends the game, 1 moves to 0, 2 has 127 moves to 1, 3 moves to 2.
    let options = vec![
        vec![],
        vec![vec![PosId(0)]],
        vec![vec![PosId(1)]; 127],
        vec![vec![PosId(2)]],
    ];
    let mut dag = Dag::new(options, vec![None; 4]);
    let got = Searcher::default()
        .nimber(&mut dag, PosId(3))
        .expect("no error");
    assert_eq!(got, Some(1));
    assert_eq!(dag.values[2], Some(0));
}

#[test]
fn sets() {
    assert_eq!(up_to_max(0b1010), 0b1111);
    assert_eq!(up_to_max(0), 0);
    assert_eq!(up_to_max(1 << 127), ALL);
    assert_eq!(without_largest(0b1010), 0b10);
    assert_eq!(rule_out(0b111, 1), 0b101);
    assert_eq!(rule_out(0b101, 1), 0b001);
    assert_eq!(xor_each(0b0110, 1), 0b1001);
}

/// A long search says where it is now and then: of the root's options
/// and of those under way below, how many are done of how many, each
/// count within its total, the root's never more than the options it
/// has; and the values are the plain mex's.
#[test]
fn a_long_search_says_where_it_is() {
    let mut state = 0x2545_f491_4f6c_dd1d;
    // Layers: 200 leaves, then 4000, 1000 and 300, each position's
    // options (4 to 11) sums of one or two positions of the layer below.
    let layers = [0, 200, 4200, 5200, 5500];
    let n = layers[4];
    let mut options: Vec<Vec<Vec<PosId>>> = vec![Vec::new(); n];
    for l in 1..4 {
        let below = (layers[l - 1], layers[l] - layers[l - 1]);
        for opts in &mut options[layers[l]..layers[l + 1]] {
            for _ in 0..(4 + next(&mut state) % 8) {
                let parts = 1 + next(&mut state) % 2;
                opts.push(
                    (0..parts)
                        .map(|_| PosId((below.0 + next(&mut state) as usize % below.1) as u64))
                        .collect(),
                );
            }
        }
    }
    // The plain mex, bottom up (options are of positions below).
    let mut values = vec![0u32; n];
    for p in 0..n {
        let seen: Vec<u32> = options[p]
            .iter()
            .map(|o| o.iter().fold(0, |x, c| x ^ values[c.0 as usize]))
            .collect();
        values[p] = (0..).find(|v| !seen.contains(v)).unwrap_or(0);
    }
    let mut dag = Dag::new(options, vec![None; n]);
    // The top layer's positions asked in turn, with one searcher.
    let mut search = Searcher::default();
    for p in (layers[3]..n).rev() {
        let got = search.nimber(&mut dag, PosId(p as u64)).expect("no error");
        assert_eq!(got, Some(values[p]), "position {p}");
    }
    assert!(!dag.reports.is_empty(), "no report in a long search");
    for r in &dag.reports {
        assert!((1..=3).contains(&r.len()), "{r:?}");
        assert!(r.iter().all(|&(done, total)| done <= total), "{r:?}");
        assert!(r.iter().all(|&(_, total)| total <= 11), "{r:?}");
        // Reported while a root option is being asked: not all are done.
        assert!(r[0].0 < r[0].1, "{r:?}");
    }
    assert!(
        dag.reports.iter().any(|r| r.len() == 3),
        "never below the root"
    );
}
