//! Periods inside evaluation: one-parameter positions from n = 1024 on are
//! read from a proven period when a search finds one; a search that fails
//! never decides an answer.

use super::*;
use crate::solve::analysis::Section;

/// What period searches found.
#[derive(Default)]
pub(super) struct Periods {
    /// Per game.
    pub(super) games: Vec<PeriodState>,
    /// Per section of a game of several parameters (`G(_, 6)`).
    sections: rustc_hash::FxHashMap<Section, PeriodState>,
}

/// Nothing found yet.
const NOTHING: PeriodState = PeriodState {
    found: None,
    tried: 0,
};

impl Periods {
    /// What was found for a game or a section.
    fn state(&self, sec: &Section) -> &PeriodState {
        let found = if sec.is_whole() {
            self.games.get(sec.game.index())
        } else {
            self.sections.get(sec)
        };
        found.unwrap_or(&NOTHING)
    }

    /// Forgets every section's period (the program changed).
    pub(super) fn forget_sections(&mut self) {
        self.sections.clear();
    }

    fn state_mut(&mut self, sec: &Section) -> &mut PeriodState {
        if sec.is_whole() {
            let g = sec.game.index();
            if self.games.len() <= g {
                self.games.resize(g + 1, PeriodState::default());
            }
            return &mut self.games[g];
        }
        self.sections.entry(sec.clone()).or_default()
    }
}

/// A proven period: G(n + period) = G(n) + saltus for n >= preperiod.
#[derive(Clone, Copy, Debug)]
struct Proven {
    preperiod: i64,
    period: i64,
    saltus: i64,
}

/// What period searches found for one game.
#[derive(Clone, Debug, Default)]
pub(super) struct PeriodState {
    /// A proven period, or why there is none; `None` while a larger search
    /// may still find one.
    found: Option<Result<Proven, NoPeriod>>,
    /// The largest budget tried.
    tried: i64,
}

/// Why a game has no proven period.
#[derive(Clone, Debug)]
pub(super) struct NoPeriod {
    text: String,
    /// Whether the game has a shape a theorem applies to (so that the only
    /// way to its huge positions is a period).
    proof_possible: bool,
}

impl Machine {
    /// The proven period that answers `pos` (of its game or its section),
    /// if a search found one.
    pub fn period_at(&self, pos: PosId) -> Option<crate::oracle::PeriodAt> {
        let (sec, n) = section_of(self, pos)?;
        match self.caches.periods.state(&sec).found {
            Some(Ok(p)) => Some(crate::oracle::PeriodAt {
                heap: sec.heap,
                n,
                preperiod: p.preperiod,
                period: p.period,
                saltus: p.saltus,
            }),
            _ => None,
        }
    }

    /// Records a proven period of a game.
    pub fn set_period(&mut self, game: GameId, preperiod: i64, period: i64, saltus: i64) {
        if let Some(slot) = self.caches.periods.games.get_mut(game.index()) {
            slot.found = Some(Ok(Proven {
                preperiod,
                period,
                saltus,
            }));
        }
    }
}

impl Scoped<'_> {
    /// A limit of states or depth met while computing a one-parameter
    /// position directly says why no period was used instead, when one was
    /// looked for.
    pub(super) fn why_no_period(&self, s: Stop, root: PosId) -> Stop {
        let Some((sec, _)) = section_of(self.m, root) else {
            return s;
        };
        let Some(Err(why)) = &self.m.caches.periods.state(&sec).found else {
            return s;
        };
        let name = sec.name(&self.m.prog.games[sec.game.index()].name);
        s.note(if why.proof_possible {
            format!("no period of {name} could answer instead: {}", why.text)
        } else {
            format!(
                "no period of {name} can be proven to answer instead: its moves have \
                 no take-and-break shape ({})",
                why.text
            )
        })
    }

    /// The value of a position from a proven period: of a one-parameter
    /// game, or of a game of integer parameters with all but its largest
    /// argument fixed (the section `G(_, 6)` for `G(10**18, 6)`). A period
    /// is searched for (once the game has a take-and-break shape) when a
    /// position from [`PERIOD_FROM`] on is asked for: with a budget of n
    /// values, which computing G(n) directly would need anyway, doubled
    /// each time, and with the whole budget for positions too large to
    /// compute (more positions below them than the state limit).
    pub(super) fn by_period(&mut self, pos: PosId) -> R<Option<u32>> {
        if self.scope.in_period_search {
            return Ok(None);
        }
        // Read without a section first: most positions asked are small.
        if dense_heap(self.m, pos).is_some_and(|n| n < PERIOD_FROM) {
            return Ok(None);
        }
        let Some((sec, n)) = section_of(self.m, pos) else {
            return Ok(None);
        };
        if n < PERIOD_FROM {
            return Ok(None);
        }
        let game = sec.game;
        let huge = n >= self.m.limits.max_states as i64;
        let span = self.m.prog.games[game.index()].header;
        let full = self.m.limits.period_budget;
        let budget = if huge { full } else { n.min(full) };
        let state = self.m.caches.periods.state(&sec);
        // Searching again pays when the budget has doubled, or when it is
        // the whole budget for a position that needs it.
        // Not from inside a fill: its nested searches are capped in depth.
        let worth = self.scope.depth_cap.is_none()
            && (budget >= state.tried.saturating_mul(2).max(1) || (huge && full > state.tried));
        if state.found.is_none() && worth {
            let found = self.search_period(&sec, budget, huge, span)?;
            let slot = self.m.caches.periods.state_mut(&sec);
            slot.tried = budget;
            if found.is_ok() || budget >= full || huge {
                slot.found = Some(found);
            }
        }
        if self.m.caches.periods.state(&sec).found.is_none() && huge && full < 1 {
            if crate::solve::analysis::shape::shape_any(
                &mut self.m.scoped(self.scope.fresh()),
                &sec,
            )
            .is_err()
            {
                return Ok(None);
            }
            return Err(too_large(
                self.m,
                pos,
                &sec,
                "period searches are turned off (--period-budget 0)",
            )
            .into());
        }
        match &self.m.caches.periods.state(&sec).found {
            &Some(Ok(Proven {
                preperiod: e,
                period: p,
                saltus,
            })) if n >= e + p => {
                let r = e + (n - e) % p;
                let q = self.m.intern(game, &sec.at(r), span)?;
                let base = self.search(q)?;
                // An arithmetic period adds its saltus once a period.
                let value = i128::from(base) + i128::from(saltus) * i128::from((n - e) / p);
                match u32::try_from(value) {
                    Ok(v) if v <= crate::store::MAX_VALUE => Ok(Some(v)),
                    _ => Err(Diag::user(
                        Code::ValueLimit,
                        format!(
                            "the Grundy value of {} is {value}, past the largest grundy holds (2^31 - 1)",
                            self.m.show().pos_briefly(pos)
                        ),
                    )
                    .note(format!(
                        "from its proven period: G(n + {p}) = G(n) + {saltus} for n >= {e}, \
                         and G({r}) = {base}"
                    ))
                    .into()),
                }
            }
            Some(Err(why)) if huge && why.proof_possible => {
                Err(too_large(self.m, pos, &sec, &why.text).into())
            }
            _ => Ok(None),
        }
    }

    /// Runs a period search for a game (not for the positions it computes).
    fn search_period(
        &mut self,
        sec: &Section,
        budget: i64,
        open: bool,
        span: Span,
    ) -> R<Result<Proven, NoPeriod>> {
        // Without a take-and-break shape no period can be proven: positions
        // are computed directly (a game may need few of them).
        if let Err(why) =
            crate::solve::analysis::shape::shape_any(&mut self.m.scoped(self.scope.fresh()), sec)
        {
            return Ok(Err(NoPeriod {
                text: why,
                proof_possible: false,
            }));
        }
        let result = crate::solve::analysis::period_of(
            &mut self.m.scoped(Scope {
                in_period_search: true,
                ..self.scope.fresh()
            }),
            sec,
            budget,
            open,
            span,
        );
        let search = match result {
            Ok(search) => search,
            // Not remembered as the game's answer: the next statement
            // searches again.
            Err(s) if s.ends_statement() => return Err(s),
            // The search is an optimization: positions it met that direct
            // computation may never reach (a cycle, an overflow, its own work
            // limit, the state limit) must not decide the answer.
            Err(s) => {
                return Ok(Err(NoPeriod {
                    text: format!(
                        "the search for a period stopped ({})",
                        s.into_diag().message
                    ),
                    proof_possible: false,
                }));
            }
        };
        Ok(match search {
            crate::solve::analysis::PeriodSearch::Found(p) if p.is_proven() => Ok(Proven {
                preperiod: p.preperiod,
                period: p.period,
                saltus: p.saltus,
            }),
            crate::solve::analysis::PeriodSearch::Found(p) => Err(format!(
                "its values look periodic (period {} from n = {}) in the {} computed, \
                 but that is not proven",
                p.period, p.preperiod, p.computed
            )),
            crate::solve::analysis::PeriodSearch::NotFound {
                computed, ended, ..
            } => Err(format!(
                "no period found in its first {computed} values (stopped: {ended}; raise the \
                 budget with --period-budget N, the state limit with --max-states N)"
            )),
        }
        .map_err(|text| NoPeriod {
            text,
            proof_possible: true,
        }))
    }
}

/// A position too large to compute, whose game or section has no
/// proven period.
fn too_large(m: &Machine, pos: PosId, sec: &Section, why: &str) -> Diag {
    let g = &m.prog.games[sec.game.index()];
    crate::solve::analysis::too_large(
        &m.show().pos_briefly(pos),
        &sec.name(&g.name),
        why,
        g.header,
    )
}

/// The section a position lies in, and its heap: its game's one
/// parameter, or the largest of several integer arguments (the others
/// fixed).
/// The largest argument of a position stored densely (one or two
/// integers), read in place.
fn dense_heap(m: &Machine, pos: PosId) -> Option<i64> {
    let (args, k) = m.store.dense_args(pos)?;
    args[..k].iter().copied().max()
}

fn section_of(m: &Machine, pos: PosId) -> Option<(Section, i64)> {
    let game = m.game_of(pos);
    if let Some(([n, _], 1)) = m.store.dense_args(pos) {
        return Some((Section::whole(game), n));
    }
    let mut args = Vec::new();
    crate::key::args_of(&m.store, pos, &mut args);
    let mut ints = args
        .iter()
        .map(|a| match a {
            Value::Int(v) => Some(*v),
            _ => None,
        })
        .collect::<Option<Vec<i64>>>()?;
    let (heap, &n) = ints.iter().enumerate().max_by_key(|&(_, v)| *v)?;
    ints[heap] = 0;
    Some((
        Section {
            game,
            heap,
            args: ints,
        },
        n,
    ))
}
