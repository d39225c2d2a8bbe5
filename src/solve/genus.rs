//! The genus of a game (Conway, *On Numbers and Games*, ch. 12; *Winning
//! Ways*, ch. 13): its normal value g and the misère values γ0, γ1, … of
//! G, G + *2, G + *2 + *2, …, written g^γ0γ1… up to where the superscript
//! starts to alternate. Plain data, below the engine.
//!
//! The genus of a game follows from the genera of its options alone, by
//! the rule CGSuite uses (Dan Hoey's `Genus`): g and γ0 are the mex of the
//! options' g and γ0 (γ0 is 1 with no option), and γn, n ≥ 1, is the mex of
//! the options' γn with γ(n−1) and γ(n−1) ⊕ 1 (the options of G + n·*2 that
//! take from a *2: G + (n−1)·*2, and G + (n−1)·*2 + *1, whose misère value
//! is that of G + (n−1)·*2 with its last bit flipped).

use std::fmt;

/// A genus: g and the superscript γ0 γ1 … as written (at least two digits;
/// past the written ones the last two alternate).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Genus {
    /// The normal-play value.
    pub g: u32,
    /// γ0, γ1, …: the misère values of G + n·*2, up to the alternation.
    pub sup: Box<[u32]>,
}

impl Genus {
    /// The genus of a game with no move: 0^120.
    pub fn terminal() -> Genus {
        Genus::of_options(&[])
    }

    /// The genus of a Nim heap of size `h`: 0^120, 1^031, h^(h, h⊕2).
    pub fn nim(h: u32) -> Genus {
        Genus::tame(h, h >= 2)
    }

    /// The tame genus of normal value `g`: firm (γ0 = g: 0^02, 1^13 and
    /// every g ≥ 2) or fickle (0^120, 1^031, as Nim heaps of 0 and 1).
    fn tame(g: u32, firm: bool) -> Genus {
        let sup: Box<[u32]> = if firm || g >= 2 {
            Box::new([g, g ^ 2])
        } else {
            Box::new([g ^ 1, g ^ 2, g])
        };
        Genus { g, sup }
    }

    /// The n-th superscript digit, for any n.
    pub fn digit(&self, n: usize) -> u32 {
        let len = self.sup.len();
        match self.sup.get(n) {
            Some(&d) => d,
            None => self.sup[len - 2 + ((len ^ n) & 1)],
        }
    }

    /// The misère value γ0 (0: the player to move loses in misère play).
    pub fn misere(&self) -> u32 {
        self.sup[0]
    }

    /// The genus of a game whose options have these genera.
    pub fn of_options(options: &[&Genus]) -> Genus {
        let mut words = Vec::new();
        Genus::write_of_options(options.iter().copied(), &mut Vec::new(), &mut words);
        Genus::from_words(&words)
    }

    /// The genus as words: g, then the superscript.
    pub fn words(&self) -> impl Iterator<Item = u32> + '_ {
        std::iter::once(self.g).chain(self.sup.iter().copied())
    }

    /// The genus of its words (`words`, `write_of_options`).
    pub fn from_words(words: &[u32]) -> Genus {
        Genus {
            g: words[0],
            sup: words[1..].into(),
        }
    }

    /// The words of the genus of a game whose options have these genera,
    /// into `out` (`set` is scratch space): no allocation once they have
    /// grown.
    pub fn write_of_options<'a>(
        options: impl Iterator<Item = &'a Genus> + Clone,
        set: &mut Vec<u32>,
        out: &mut Vec<u32>,
    ) {
        out.clear();
        out.push(mex(set, options.clone().map(|o| o.g)));
        // Past the last option's written digits every option alternates,
        // so each next digit depends only on the last one and the parity.
        let settled = options.clone().map(|o| o.sup.len()).max().unwrap_or(2) - 2;
        let first = if options.clone().next().is_none() {
            1
        } else {
            mex(set, options.clone().map(|o| o.digit(0)))
        };
        out.push(first);
        loop {
            let n = out.len() - 1;
            let last = out[n];
            let d = mex(
                set,
                [last, last ^ 1]
                    .into_iter()
                    .chain(options.clone().map(|o| o.digit(n))),
            );
            out.push(d);
            // From here on the digits repeat with period 2.
            if n >= settled + 2 && d == out[n - 1] {
                break;
            }
        }
        while out.len() > 3 && out[out.len() - 1] == out[out.len() - 3] {
            out.pop();
        }
    }

    /// Whether the genus is tame: 0^120, 1^031, 0^02, 1^13 or g^(g, g⊕2).
    pub fn is_tame(&self) -> bool {
        let g = self.g;
        match self.sup[..] {
            [a, b] => a == g && b == g ^ 2,
            [a, b, c] => g < 2 && a == g ^ 1 && b == g ^ 2 && c == g,
            _ => false,
        }
    }

    /// Firm: its misère value is its normal one (a tame game that plays
    /// like a sum with a Nim heap of 2 or more).
    fn is_firm(&self) -> bool {
        self.sup[0] == self.g
    }

    /// The genus of a sum of games that are tame with all their followers
    /// (Conway's tame games, which add like Nim heaps): g is the XOR, and
    /// the sum is firm when one of its parts is.
    pub fn tame_sum<'a>(parts: impl IntoIterator<Item = &'a Genus>) -> Genus {
        let (mut g, mut firm) = (0, false);
        for p in parts {
            g ^= p.g;
            firm |= p.is_firm();
        }
        Genus::tame(g, firm)
    }
}

/// The least value not among `values` (`set` is scratch space).
fn mex(set: &mut Vec<u32>, values: impl Iterator<Item = u32>) -> u32 {
    set.clear();
    set.extend(values);
    set.sort_unstable();
    let mut m = 0;
    for &v in set.iter() {
        if v == m {
            m += 1;
        } else if v > m {
            break;
        }
    }
    m
}

impl fmt::Display for Genus {
    /// `4^146`; with a digit of 10 or more, `12^(12,14)`.
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{}^", self.g)?;
        if self.sup.iter().all(|&d| d < 10) {
            self.sup.iter().try_for_each(|d| write!(f, "{d}"))
        } else {
            let digits: Vec<String> = self.sup.iter().map(u32::to_string).collect();
            write!(f, "({})", digits.join(","))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Misère values of sums of Nim heaps by brute force over sorted heap
    /// lists: a sum with no move is worth 1, others the mex of options.
    fn misere_nim(
        heaps: &mut Vec<u32>,
        memo: &mut std::collections::HashMap<Vec<u32>, u32>,
    ) -> u32 {
        heaps.retain(|&h| h > 0);
        heaps.sort_unstable();
        if let Some(&v) = memo.get(heaps.as_slice()) {
            return v;
        }
        let mut seen = Vec::new();
        for i in 0..heaps.len() {
            for k in 0..heaps[i] {
                let mut next = heaps.clone();
                next[i] = k;
                seen.push(misere_nim(&mut next, memo));
            }
        }
        let v = if seen.is_empty() {
            1
        } else {
            mex(&mut Vec::new(), seen.into_iter())
        };
        memo.insert(heaps.clone(), v);
        v
    }

    #[test]
    fn nim_heaps_by_the_rule_of_options() {
        // Winning Ways, ch. 13: 0^120, 1^031, 2^20, 3^31, 4^46, ...
        let mut heaps = vec![Genus::terminal()];
        for h in 1..12u32 {
            let opts: Vec<&Genus> = heaps.iter().collect();
            let g = Genus::of_options(&opts);
            assert_eq!(g, Genus::nim(h), "heap {h}");
            heaps.push(g);
        }
        let shown: Vec<String> = heaps.iter().take(5).map(|g| g.to_string()).collect();
        assert_eq!(shown, ["0^120", "1^031", "2^20", "3^31", "4^46"]);
        assert_eq!(Genus::nim(11).to_string(), "11^(11,9)");
    }

    #[test]
    fn digits_are_misere_values_with_heaps_of_two() {
        // γn of *h is the misère value of *h + n·*2, by brute force.
        let mut memo = Default::default();
        for h in 0..7u32 {
            let g = Genus::nim(h);
            for n in 0..6 {
                let mut heaps = vec![h];
                heaps.extend(std::iter::repeat_n(2, n));
                assert_eq!(
                    g.digit(n),
                    misere_nim(&mut heaps, &mut memo),
                    "*{h} + {n}·*2"
                );
            }
        }
    }

    #[test]
    fn tame_genera_and_sums() {
        for h in 0..6 {
            assert!(Genus::nim(h).is_tame());
        }
        let firm0 = Genus::tame_sum([&Genus::nim(2), &Genus::nim(2)]);
        assert_eq!(firm0.to_string(), "0^02");
        assert!(firm0.is_tame());
        let fickle0 = Genus::tame_sum([&Genus::nim(1), &Genus::nim(1)]);
        assert_eq!(fickle0, Genus::terminal());
        assert_eq!(
            Genus::tame_sum([&firm0, &Genus::nim(1)]).to_string(),
            "1^13"
        );
        // A wild genus: Kayles' heap of 5 (normal 4, misère 1).
        let wild = Genus {
            g: 4,
            sup: Box::new([1, 4, 6]),
        };
        assert!(!wild.is_tame());
    }
}
