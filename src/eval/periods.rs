//! Periods inside evaluation: one-parameter positions from n = 1024 on are
//! read from a proven period when a search finds one; a search that fails
//! never decides an answer.

use super::*;

/// What period searches found.
#[derive(Default)]
pub(super) struct Periods {
    /// Per game.
    pub(super) games: Vec<PeriodState>,
}

/// What period searches found for one game.
#[derive(Clone, Debug, Default)]
pub(super) struct PeriodState {
    /// A proven `(preperiod, period)`, or why there is none; `None` while
    /// a larger search may still find one.
    found: Option<Result<(i64, i64), NoPeriod>>,
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
    /// The proven `(preperiod, period)` of a game, if a search found one.
    pub fn known_period(&self, game: GameId) -> Option<(i64, i64)> {
        match self.found.periods.games.get(game as usize)?.found {
            Some(Ok(ep)) => Some(ep),
            _ => None,
        }
    }

    /// Records a proven period of a game.
    pub fn set_period(&mut self, game: GameId, preperiod: i64, period: i64) {
        if let Some(slot) = self.found.periods.games.get_mut(game as usize) {
            slot.found = Some(Ok((preperiod, period)));
        }
    }
}

impl Scoped<'_> {
    /// A limit met while computing a one-parameter position directly says
    /// why no period was used instead, when one was looked for.
    pub(super) fn why_no_period(&self, d: Diag, root: PosId) -> Diag {
        if !matches!(d.code, Code::StateLimit | Code::DepthLimit) {
            return d;
        }
        match self
            .m
            .found
            .periods
            .games
            .get(self.m.game_of(root) as usize)
        {
            Some(PeriodState {
                found: Some(Err(why)),
                ..
            }) => {
                let name = &self.m.prog.games[self.m.game_of(root) as usize].name;
                d.note(if why.proof_possible {
                    format!("no period of {name} could answer instead: {}", why.text)
                } else {
                    format!(
                        "no period of {name} can be proven to answer instead: its moves have \
                         no take-and-break shape ({})",
                        why.text
                    )
                })
            }
            _ => d,
        }
    }

    /// The value of a one-parameter position from a proven period. A
    /// period is searched for (once the game has a take-and-break shape)
    /// when a position from [`PERIOD_FROM`] on is asked for: with a budget of
    /// n values, which computing G(n) directly would need anyway, doubled
    /// each time, and with the whole budget for positions too large to
    /// compute (more positions below them than the state limit).
    pub(super) fn by_period(&mut self, pos: PosId) -> R<Option<u32>> {
        let game = self.m.game_of(pos);
        if self.m.prog.games[game as usize].params.len() != 1 || self.scope.in_period_search {
            return Ok(None);
        }
        let n = match self.m.memo.dense_args(pos) {
            Some(([n, _], 1)) => n,
            Some(_) => return Ok(None),
            None => {
                let mut args = Vec::new();
                crate::key::args_of(&self.m.memo, pos, &mut args);
                match args[..] {
                    [Value::Int(n)] => n,
                    _ => return Ok(None),
                }
            }
        };
        if n < PERIOD_FROM {
            return Ok(None);
        }
        let huge = n >= self.m.limits.max_states as i64;
        let span = self.m.prog.games[game as usize].header;
        let full = self.m.limits.period_budget;
        let budget = if huge { full } else { n.min(full) };
        let state = &self.m.found.periods.games[game as usize];
        // Searching again pays when the budget has doubled, or when it is
        // the whole budget for a position that needs it.
        // Not from inside a fill: its nested searches are capped in depth.
        let worth = self.scope.depth_cap.is_none()
            && (budget >= state.tried.saturating_mul(2).max(1) || (huge && full > state.tried));
        if state.found.is_none() && worth {
            let found = self.search_period(game, budget, huge, span)?;
            let slot = &mut self.m.found.periods.games[game as usize];
            slot.tried = budget;
            if found.is_ok() || budget >= full || huge {
                slot.found = Some(found);
            }
        }
        if self.m.found.periods.games[game as usize].found.is_none() && huge && full < 1 {
            if crate::analysis::shape::shape(&mut self.m.oracle(), game).is_err() {
                return Ok(None);
            }
            return Err(crate::analysis::too_large(
                &self.m.prog.games[game as usize].name,
                n,
                "period searches are turned off (--period-budget 0)",
                span,
            )
            .into());
        }
        match &self.m.found.periods.games[game as usize].found {
            &Some(Ok((e, p))) if n >= e + p => {
                let r = e + (n - e) % p;
                let q = self.m.intern(game, &[Value::Int(r)], span)?;
                self.search(q).map(Some)
            }
            Some(Err(why)) if huge && why.proof_possible => Err(crate::analysis::too_large(
                &self.m.prog.games[game as usize].name,
                n,
                &why.text,
                span,
            )
            .into()),
            _ => Ok(None),
        }
    }

    /// Runs a period search for a game (not for the positions it computes).
    fn search_period(
        &mut self,
        game: GameId,
        budget: i64,
        open: bool,
        span: Span,
    ) -> R<Result<(i64, i64), NoPeriod>> {
        // Without a take-and-break shape no period can be proven: positions
        // are computed directly (a game may need few of them).
        if let Err(why) = crate::analysis::shape::shape(&mut self.m.oracle(), game) {
            return Ok(Err(NoPeriod {
                text: why,
                proof_possible: false,
            }));
        }
        let result = crate::analysis::period(
            &mut self.m.scoped(Scope {
                in_period_search: true,
                ..Scope::default()
            }),
            game,
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
            crate::analysis::Search::Found(p) if p.is_proven() => Ok((p.preperiod, p.period)),
            crate::analysis::Search::Found(p) => Err(format!(
                "its values look periodic (period {} from n = {}) in the {} computed, \
                 but that is not proven",
                p.period, p.preperiod, p.computed
            )),
            crate::analysis::Search::NotFound {
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
