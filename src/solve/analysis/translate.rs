//! Whether a game of several integers moves by translations, read from its
//! rules: each rule moves the arguments down by a constant vector that one
//! loop variable k scales (`W(a - k, b - k) for k in 1..=min(a, b)`), or by
//! a constant vector, its conditions bounding k by constants or by where a
//! coordinate stays at least a constant. Then [`crate::marking`] finds the
//! P-positions of a box by marking from each P-position the positions that
//! move to it. Anything the reading cannot follow is refused, with why.

use crate::compiled::{Compiler, IntExpr};
use crate::ir::{BinOp, Clause, Expr, ExprId, GameId, Program};
use crate::linear::Linear;
use crate::marking::Translation;
use crate::value::Value;

/// Why a game's moves are not translations (shown to users).
pub type NotTranslation = String;

/// Cases a rule's constant loops may unroll to.
const MAX_CASES: usize = 4096;

/// The moves of `game` as translations, or why they are not.
pub fn translations(
    prog: &Program,
    consts: &[Option<Value>],
    game: GameId,
) -> Result<Vec<Translation>, NotTranslation> {
    let g = &prog.games[game.index()];
    let d = g.params.len();
    if !g.int_params.iter().all(|&i| i) {
        return Err(format!("a parameter of `{}` is not an integer", g.name));
    }
    if g.loopy || g.renames() {
        return Err(format!(
            "`{}` is a loopy game or names its positions another way",
            g.name
        ));
    }
    let reader = MoveReader {
        c: Compiler { prog, consts },
        game,
        d,
    };
    let mut out = Vec::new();
    for rule in &g.rules {
        let mut env: Vec<Option<Linear>> = vec![None; (g.slots as usize).max(d)];
        for (i, slot) in env.iter_mut().enumerate().take(d) {
            *slot = Some(Linear::slot(i as u32));
        }
        let mut cases = Vec::new();
        reader.unroll(
            &rule.clauses,
            rule.body,
            &mut env,
            false,
            Vec::new(),
            &mut cases,
        )?;
        for case in cases {
            if let Some(t) = reader.translation(case)? {
                out.push(t);
            }
        }
    }
    Ok(out)
}

/// One case of a rule after its constant loops are unrolled: constraints
/// `form >= 0` over the parameters (slots `0..d`) and k (slot `d`), and
/// the move's arguments.
struct Case {
    looped: bool,
    cons: Vec<Linear>,
    args: Vec<Linear>,
}

struct MoveReader<'a> {
    c: Compiler<'a>,
    game: GameId,
    d: usize,
}

fn unreadable() -> NotTranslation {
    "its rules use arithmetic that is not linear in the arguments (or not ranges, constant lists, \
     `min`, `max` and comparisons)"
        .into()
}

impl MoveReader<'_> {
    fn prog(&self) -> &Program {
        self.c.prog
    }

    /// Bounds an integer expression sets: `(L, d)` for ⌊L / d⌋ (d > 0, a
    /// floor division by a constant, or 1); one, or for `min` (an upper
    /// bound) or `max` (a lower one) several.
    fn forms(
        &self,
        e: ExprId,
        env: &[Option<Linear>],
        upper: bool,
    ) -> Result<Vec<(Linear, i64)>, NotTranslation> {
        let ie = self.c.int_deep(e).ok_or_else(unreadable)?;
        let mut out = Vec::new();
        self.forms_of(&ie, env, upper, &mut out)?;
        Ok(out)
    }

    fn forms_of(
        &self,
        e: &IntExpr,
        env: &[Option<Linear>],
        upper: bool,
        out: &mut Vec<(Linear, i64)>,
    ) -> Result<(), NotTranslation> {
        match e {
            IntExpr::Min(xs) if upper => xs
                .iter()
                .try_for_each(|x| self.forms_of(x, env, upper, out)),
            IntExpr::Max(xs) if !upper => xs
                .iter()
                .try_for_each(|x| self.forms_of(x, env, upper, out)),
            IntExpr::Bin(BinOp::Div, x, d) if matches!(**d, IntExpr::Const(v) if v > 0) => {
                let IntExpr::Const(d) = **d else {
                    return Err(unreadable());
                };
                out.push((self.linear(x, env)?, d));
                Ok(())
            }
            _ => {
                out.push((self.linear(e, env)?, 1));
                Ok(())
            }
        }
    }

    /// `small <= large` for bounds ⌊s / p⌋ and ⌊l / q⌋ where `small` is
    /// linear (p = 1) or `large` is (q = 1): as one linear form `>= 0`.
    fn at_most(small: &(Linear, i64), large: &(Linear, i64)) -> Result<Linear, NotTranslation> {
        let ((s, p), (l, q)) = (small, large);
        match (p, q) {
            // s <= ⌊l / q⌋ ⟺ q·s <= l.
            (1, _) => l
                .sub(&s.scale(*q).ok_or_else(unreadable)?)
                .ok_or_else(unreadable),
            // ⌊s / p⌋ <= l ⟺ s <= p·l + p − 1.
            (_, 1) => l
                .scale(*p)
                .and_then(|pl| pl.add(&Linear::konst(p - 1)))
                .and_then(|r| r.sub(s))
                .ok_or_else(unreadable),
            _ => Err("a condition divides on both sides".into()),
        }
    }

    fn linear(&self, e: &IntExpr, env: &[Option<Linear>]) -> Result<Linear, NotTranslation> {
        Linear::of_in(e, &|s| env.get(s as usize)?.clone()).ok_or_else(unreadable)
    }

    fn unroll(
        &self,
        clauses: &[Clause],
        body: ExprId,
        env: &mut Vec<Option<Linear>>,
        looped: bool,
        cons: Vec<Linear>,
        out: &mut Vec<Case>,
    ) -> Result<(), NotTranslation> {
        if out.len() > MAX_CASES {
            return Err("its loops over constants have too many cases".into());
        }
        let Some((clause, rest)) = clauses.split_first() else {
            let args = match self.prog().expr(body) {
                Expr::Apply { game, args } if *game == self.game => args
                    .iter()
                    .map(|&a| {
                        let ie = self.c.int_deep(a).ok_or_else(unreadable)?;
                        self.linear(&ie, env)
                    })
                    .collect::<Result<Vec<_>, NotTranslation>>()?,
                Expr::Apply { .. } => return Err("a move leads to another game".into()),
                _ => return Err("a move leads to a sum or the empty position".into()),
            };
            out.push(Case { looped, cons, args });
            return Ok(());
        };
        match *clause {
            Clause::While { .. } => Err("a `while` clause ends a loop early".into()),
            Clause::Let { .. } => Err("a `let` clause holds a computed value".into()),
            Clause::If { cond } => {
                let mut cons = cons;
                if self.condition(cond, env, &mut cons)? {
                    self.unroll(rest, body, env, looped, cons, out)?;
                }
                Ok(())
            }
            Clause::For { slot, iter } => {
                let slot = slot.index();
                if slot >= env.len() {
                    env.resize(slot + 1, None);
                }
                if let Expr::Range { lo, hi, inclusive } = self.prog().expr(iter).clone() {
                    let los = self.forms(lo, env, false)?;
                    let his = self.forms(hi, env, true)?;
                    // `a..b` ends at b − 1: k < ⌊l / q⌋ ⟺ k + 1 <= ⌊l / q⌋.
                    let last = i64::from(!inclusive);
                    if let ([(lo, 1)], [(hi, 1)]) = (&los[..], &his[..])
                        && lo.is_const()
                        && hi.is_const()
                    {
                        let hi = hi.k.saturating_sub(last);
                        if hi.saturating_sub(lo.k) > MAX_CASES as i64 {
                            return Err("a loop over constants is too long".into());
                        }
                        for v in lo.k..=hi {
                            env[slot] = Some(Linear::konst(v));
                            self.unroll(rest, body, env, looped, cons.clone(), out)?;
                        }
                        return Ok(());
                    }
                    if looped {
                        return Err("it has two loops whose ranges depend on the arguments".into());
                    }
                    let k = Linear::slot(self.d as u32);
                    let mut cons = cons;
                    for lo in &los {
                        cons.push(Self::at_most(lo, &(k.clone(), 1))?);
                    }
                    let k_end = k.add(&Linear::konst(last)).ok_or_else(unreadable)?;
                    for hi in &his {
                        cons.push(Self::at_most(&(k_end.clone(), 1), hi)?);
                    }
                    env[slot] = Some(k);
                    return self.unroll(rest, body, env, true, cons, out);
                }
                let values = self.c.int_list(iter).ok_or_else(unreadable)?.to_vec();
                if values.len() > MAX_CASES {
                    return Err("a loop over constants is too long".into());
                }
                for v in values {
                    env[slot] = Some(Linear::konst(v));
                    self.unroll(rest, body, env, looped, cons.clone(), out)?;
                }
                Ok(())
            }
        }
    }

    /// Adds a condition's constraints; `false` when it never holds.
    fn condition(
        &self,
        e: ExprId,
        env: &[Option<Linear>],
        cons: &mut Vec<Linear>,
    ) -> Result<bool, NotTranslation> {
        let (op, x, y) = match self.prog().expr(e) {
            Expr::Bool(b) => return Ok(*b),
            Expr::Binary(BinOp::And, x, y) => {
                let (x, y) = (*x, *y);
                return Ok(self.condition(x, env, cons)? && self.condition(y, env, cons)?);
            }
            Expr::Binary(op, x, y) => (*op, *x, *y),
            _ => return Err(unreadable()),
        };
        // x <= y (or <): y's lower... every form of a `min` on the larger
        // side, of a `max` on the smaller.
        let (small, large, strict) = match op {
            BinOp::Lt => (x, y, true),
            BinOp::Le => (x, y, false),
            BinOp::Gt => (y, x, true),
            BinOp::Ge => (y, x, false),
            _ => return Err("a condition is not `<`, `<=`, `>` or `>=` (with `and`)".into()),
        };
        let smalls = self.forms(small, env, false)?;
        let larges = self.forms(large, env, true)?;
        let one = Linear::konst(1);
        for small in &smalls {
            for large in &larges {
                // x < y ⟺ x + 1 <= y, the 1 on the side without a division.
                let f = match (strict, small.1, large.1) {
                    (false, ..) => Self::at_most(small, large)?,
                    (true, 1, _) => {
                        let s = small.0.add(&one).ok_or_else(unreadable)?;
                        Self::at_most(&(s, 1), large)?
                    }
                    (true, _, 1) => {
                        let l = large.0.sub(&one).ok_or_else(unreadable)?;
                        Self::at_most(small, &(l, 1))?
                    }
                    _ => return Err("a condition divides on both sides".into()),
                };
                if f.is_const() {
                    if f.k < 0 {
                        return Ok(false);
                    }
                    continue;
                }
                cons.push(f);
            }
        }
        Ok(true)
    }

    /// A case as a translation; `None` when its conditions never hold.
    fn translation(&self, case: Case) -> Result<Option<Translation>, NotTranslation> {
        let d = self.d;
        let ks = d as u32;
        if case.args.len() != d {
            return Err("a move has another number of arguments".into());
        }
        // arg_i = x_i − step_i·k − shift_i.
        let mut step = vec![0i64; d];
        let mut shift = vec![0i64; d];
        for (i, a) in case.args.iter().enumerate() {
            for j in 0..d {
                if a.coef(j as u32) != i64::from(i == j) {
                    return Err(
                        "a move's argument is not its own argument moved by a constant or by k"
                            .into(),
                    );
                }
            }
            step[i] = -a.coef(ks);
            shift[i] = a.k.checked_neg().ok_or_else(unreadable)?;
            if step[i] < 0 {
                return Err("a move makes an argument larger".into());
            }
        }
        let (mut k_lo, mut k_hi) = if case.looped {
            (i64::MIN, i64::MAX)
        } else {
            (0, 0)
        };
        let mut floor = vec![i64::MIN; d];
        let mut when = Vec::new();
        for f in &case.cons {
            let alpha = f.coef(ks);
            let coords: Vec<usize> = (0..d).filter(|&i| f.coef(i as u32) != 0).collect();
            match coords[..] {
                [] if alpha > 0 => k_lo = k_lo.max(ceil_div(-f.k, alpha)),
                [] if alpha < 0 => k_hi = k_hi.min(f.k.div_euclid(-alpha)),
                [] => {}
                // g·x_i − g·step_i·k + δ >= 0: y_i = x_i − step_i·k − shift_i
                // is at least ⌈−δ/g⌉ − shift_i.
                [i] if f.coef(i as u32) > 0 && alpha == -f.coef(i as u32) * step[i] => {
                    let g = f.coef(i as u32);
                    floor[i] = floor[i].max(ceil_div(-f.k, g) - shift[i]);
                }
                _ if alpha == 0 => when.push(((0..d).map(|i| f.coef(i as u32)).collect(), f.k)),
                _ => {
                    return Err(
                        "a condition bounds k by the arguments other than where one stays at least a constant"
                            .into(),
                    );
                }
            }
        }
        if k_lo > k_hi {
            return Ok(None);
        }
        if k_lo == i64::MIN {
            return Err("a loop has no lower bound".into());
        }
        for i in 0..d {
            let moved = step[i] > 0 || shift[i] != 0;
            if moved && floor[i] < 0 {
                return Err("a move can leave an argument below 0".into());
            }
            floor[i] = floor[i].max(0);
        }
        if k_hi == i64::MAX && step.iter().all(|&s| s == 0) {
            return Err("a loop has no upper bound".into());
        }
        // Every move goes down: k_lo·step + shift >= 0, not all 0.
        let least: Vec<i64> = (0..d)
            .map(|i| k_lo.saturating_mul(step[i]).saturating_add(shift[i]))
            .collect();
        if least.iter().any(|&v| v < 0) {
            return Err("a move makes an argument larger".into());
        }
        if least.iter().all(|&v| v == 0) {
            return Err("a move can leave the position as it is".into());
        }
        Ok(Some(Translation {
            step,
            shift,
            k_lo,
            k_hi,
            floor,
            when,
        }))
    }
}

fn ceil_div(a: i64, b: i64) -> i64 {
    -((-a).div_euclid(b))
}
