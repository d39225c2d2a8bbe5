//! Kernels: move rules of common shapes compiled to tight loops over the dense
//! value arrays, used whenever every option's value is already known, and to
//! list a position's options at once.
//!
//! A rule qualifies when its clauses are `for` over ranges or constant integer
//! lists and `if` over integer arithmetic, and its body is a sum of positions
//! of games of up to four integer arguments. Values are read only for parts
//! of one or two arguments in the dense arrays; other kernels only list
//! options. Its innermost `for`
//! is *fused* when the trailing `if`s are linear inequalities in the loop
//! variable (folded into the loop bounds) and every argument is affine in it:
//! the loop then reads `values[c + s·x]` directly, as hand-written code would.
//!
//! A kernel never reports errors: on anything unusual (an unknown value, an
//! index outside the dense arrays, an overflow) it gives up and the general
//! evaluator runs the rule instead, and reports whatever there is to report.
//! A kernel may insert values computed from sentinels before it notices and
//! gives up, so callers run it into a scratch set and keep it on success only.

use crate::compiled::{self, BoolCode, BoolExpr, IntCode, IntExpr};
use crate::ir::{self, BinOp, Clause, ExprId, GameId};
use crate::linear::{FULL, Linear, affine_in, cond_mentions, cond_safe, interval};
use crate::mex::{SeenSet, Stamped};
use crate::ops::div_floor_wide as div_floor;
use crate::store::{SENTINEL_BIT, Store, UNKNOWN};
use crate::value::Value;
use std::rc::Rc;

mod affine;
mod batch;
mod bits;
mod run;
mod table;
mod window;

pub use batch::{Batch, CHUNK_WORK};
pub use run::{Env, KPos};
pub use window::Counts;

#[derive(Clone, Debug)]
enum KClause {
    Range {
        slot: u32,
        lo: IntExpr,
        hi: IntExpr,
        inclusive: bool,
    },
    List {
        slot: u32,
        items: Rc<[i64]>,
    },
    /// `for part in components(mask, adj)` with a constant `adj`: the
    /// parts of a board, lowest first, without a list.
    Parts {
        slot: u32,
        mask: IntExpr,
        adj: Rc<[i64]>,
        /// `adj` when it is a grid's: parts found by shifts.
        grid: Option<crate::board::Grid>,
    },
    If(BoolExpr),
    /// `while c`: where `c` fails, the nearest loop before it ends (with
    /// none, an `if`), as the interpreter ends it.
    While(BoolExpr),
}

/// One component of an option: a position of an integer game.
#[derive(Clone, Debug)]
struct KComp {
    game: GameId,
    args: Vec<IntExpr>,
}

/// A loop-invariant part, as `k + Σ coef·slot` when it is linear (evaluated
/// without walking a tree), else as an expression.
#[derive(Clone, Debug)]
enum Lin {
    Sum(Linear),
    Expr(IntExpr),
}

impl Lin {
    fn of(e: IntExpr) -> Lin {
        match Linear::of(&e) {
            Some(l) => Lin::Sum(l),
            None => Lin::Expr(e),
        }
    }

    #[inline]
    fn eval(&self, env: &[i64]) -> Option<i64> {
        match self {
            Lin::Sum(l) => l.eval(env),
            Lin::Expr(e) => e.eval(env),
        }
    }
}

/// An affine form `c + s·x` ready to evaluate.
#[derive(Clone, Debug)]
struct Form {
    c: Lin,
    s: i64,
}

impl Form {
    /// `e` as a form in the loop variable `x`, if it is affine in it.
    fn of(e: &IntExpr, x: u32) -> Option<Form> {
        let (c, s) = affine_in(e, x, MAX_COEF)?;
        Some(Form { c: Lin::of(c), s })
    }
}

/// A linear constraint `D(x) OP 0` folded into the loop bounds.
#[derive(Clone, Debug)]
struct LoopBound {
    op: BinOp,
    d: Form,
}

/// The innermost loop, fused.
#[derive(Clone, Debug)]
struct Fused {
    /// Linear conditions folded into the bounds.
    bounds: Vec<LoopBound>,
    /// Per component, its arguments as affine forms in the loop variable.
    comps: Vec<(GameId, Vec<Form>)>,
}

/// A rule's conditions (per clause, for its `if`s) and its components'
/// arguments as closures: what listing its options evaluates over and over.
#[derive(Debug)]
struct ListCode {
    conds: Vec<Option<BoolCode<[i64]>>>,
    args: Vec<Vec<IntCode<[i64]>>>,
    /// Per loop clause, the condition right after it as a bit test on its
    /// variable, when it is one.
    bits: Vec<Option<bits::BitTest>>,
}

/// A compiled rule.
#[derive(Clone, Debug)]
pub struct KRule {
    clauses: Vec<KClause>,
    fast: Rc<ListCode>,
    /// The clauses from here on are conditions (after the last loop).
    tail: usize,
    comps: Vec<KComp>,
    fused: Option<Fused>,
    /// The index of the clause `fused` replaces, when there is one.
    fused_at: Option<usize>,
    /// The domain of each slot (see [`domains`]).
    dom: Vec<(i128, i128)>,
    /// How many parameters the rule's game has (the first slots).
    arity: usize,
    /// Whether it reads its options' values (every part a game of one or
    /// two arguments kept in the dense arrays); else it only lists them.
    pub reads: bool,
}

/// The kernels of one game: one per rule that qualifies.
#[derive(Clone, Debug, Default)]
pub struct GameKernels {
    /// Per rule, its kernel if it has one.
    pub rules: Vec<Option<KRule>>,
    /// Whether every rule has a kernel: a position's options can be listed
    /// by kernels alone.
    pub lists: bool,
    /// Whether, besides, every kernel reads its options' values (each part
    /// a game of one or two arguments kept in the dense arrays): the whole
    /// value can be computed by kernels alone.
    pub complete: bool,
    /// Integer slots a frame needs.
    pub slots: usize,
    /// For one-argument games of the simplest shapes, the whole value
    /// computation as one loop over positions.
    pub batch: Option<Rc<Batch>>,
    /// For a game that renames (and so has no `rules`), every rule as a
    /// kernel that only lists options, each then named as stored.
    pub listing: Option<Vec<KRule>>,
    /// Its `split` as a kernel: each run of the body is one part.
    pub split: Option<KRule>,
    /// Its `canonical` as a kernel, when it is one position of the game.
    pub canonical: Option<KRule>,
    /// Its `prefer` condition over the parameters alone (a frame of just
    /// the arguments).
    pub prefer: Option<Rc<BoolCode<[i64]>>>,
    /// Whether its `prefer` is false whatever the parameters (`prefer w %
    /// 2 == 0 and ...` on a board of odd width): the search has no hint.
    pub never_prefers: bool,
}

/// Why a rule has no kernel: what in it a kernel cannot run, in words, and
/// the expression where it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NoKernel {
    pub what: &'static str,
    pub at: Option<ExprId>,
}

/// How each rule of a game runs: `Ok` where it has a kernel (true where the
/// kernel also reads its options' values), else why not. For `describe`.
pub fn explain(
    prog: &ir::Program,
    consts: &[Option<Value>],
    game: GameId,
) -> Vec<Result<bool, NoKernel>> {
    let Some(g) = prog.games.get(game.index()) else {
        return Vec::new();
    };
    let c = RuleCompiler(compiled::Compiler { prog, consts });
    g.rules
        .iter()
        .map(|r| {
            c.rule_of(&r.clauses, r.body, g.params.len(), g.slots as usize)
                .map(|k| k.reads)
        })
        .collect()
}

/// How a one-argument game's values are computed when a run of them is
/// asked, in words, where one loop over positions computes them (for
/// `describe`).
pub fn batch_explained(
    prog: &ir::Program,
    consts: &[Option<Value>],
    game: GameId,
) -> Option<&'static str> {
    let g = prog.games.get(game.index())?;
    if g.params.len() != 1 || g.renames() {
        return None;
    }
    let c = RuleCompiler(compiled::Compiler { prog, consts });
    let slots = g.slots as usize;
    let rules: Vec<Option<KRule>> = g.rules.iter().map(|r| c.rule(r, 1, slots)).collect();
    Batch::of(game, &rules).map(|b| b.explained())
}

/// Compiles the kernels of every game. `consts` are the evaluated constants
/// (`None` where the definition failed).
pub fn compile(prog: &ir::Program, consts: &[Option<Value>]) -> Vec<GameKernels> {
    prog.games
        .iter()
        .enumerate()
        .map(|(id, g)| {
            // Kernels read options' values by their arguments; a game that
            // renames its positions stores them by other names, which its
            // naming kernels give.
            if g.renames() {
                let c = RuleCompiler(compiled::Compiler { prog, consts });
                let slots = g.slots as usize;
                return GameKernels {
                    slots: g.slots.max(g.params.len() as u32) as usize,
                    listing: g
                        .rules
                        .iter()
                        .map(|r| c.rule(r, g.params.len(), slots))
                        .collect(),
                    split: g.stored_as.split.and_then(|e| c.naming(e, g)),
                    canonical: g
                        .stored_as
                        .canonical
                        .and_then(|e| c.naming(e, g))
                        .filter(|k| {
                            k.clauses.is_empty()
                                && matches!(k.comps.as_slice(), [one] if one.game == GameId(id as u32))
                        }),
                    prefer: g.stored_as.prefer.and_then(|e| c.params_cond(e, g)),
                    never_prefers: g.stored_as.prefer.and_then(|e| c.cond(e)).is_some_and(|b| {
                        // Decided without reading a parameter.
                        b.eval(&[] as &[i64]) == Some(false)
                    }),
                    ..GameKernels::default()
                };
            }
            let rules: Vec<Option<KRule>> = g
                .rules
                .iter()
                .map(|r| {
                    RuleCompiler(compiled::Compiler { prog, consts }).rule(
                        r,
                        g.params.len(),
                        g.slots as usize,
                    )
                })
                .collect();
            let batch = if g.params.len() == 1 {
                Batch::of(GameId(id as u32), &rules).map(Rc::new)
            } else {
                None
            };
            let lists = rules.iter().all(Option::is_some);
            GameKernels {
                lists,
                complete: lists && rules.iter().flatten().all(|r| r.reads),
                rules,
                slots: g.slots.max(g.params.len() as u32) as usize,
                batch,
                listing: None,
                split: None,
                canonical: None,
                prefer: None,
                never_prefers: false,
            }
        })
        .collect()
}

/// Compiles rules on top of the expression compiler.
struct RuleCompiler<'a>(compiled::Compiler<'a>);

impl<'a> std::ops::Deref for RuleCompiler<'a> {
    type Target = compiled::Compiler<'a>;
    fn deref(&self) -> &compiled::Compiler<'a> {
        &self.0
    }
}

impl RuleCompiler<'_> {
    /// A condition that reads the parameters alone, as closures over them.
    fn params_cond(&self, e: ExprId, g: &ir::Game) -> Option<Rc<BoolCode<[i64]>>> {
        let c = self.cond(e)?;
        let arity = g.params.len() as u32;
        let others = arity..g.slots.max(arity);
        others
            .into_iter()
            .all(|s| !cond_mentions(&c, s))
            .then(|| Rc::new(BoolCode::new(&c)))
    }

    /// A `split` or `canonical` expression as a kernel that lists its parts
    /// (a sum comprehension's clauses, or none).
    fn naming(&self, e: ExprId, g: &ir::Game) -> Option<KRule> {
        let (clauses, body) = match self.prog.expr(e) {
            ir::Expr::Comp {
                kind: ir::CompKind::SumPos,
                body,
                clauses,
            } => (clauses.as_slice(), *body),
            _ => (&[][..], e),
        };
        self.rule_of(clauses, body, g.params.len(), g.slots as usize)
            .ok()
    }

    fn rule(&self, r: &ir::Rule, arity: usize, slots: usize) -> Option<KRule> {
        self.rule_of(&r.clauses, r.body, arity, slots).ok()
    }

    fn rule_of(
        &self,
        rule_clauses: &[Clause],
        body: ExprId,
        arity: usize,
        slots: usize,
    ) -> Result<KRule, NoKernel> {
        let why = |what: &'static str, at: ExprId| NoKernel { what, at: Some(at) };
        let mut clauses = Vec::new();
        for c in rule_clauses {
            clauses.push(match *c {
                Clause::If { cond } => {
                    // `if a and b` as `if a if b` (the same order, the same
                    // short circuit): each may then filter on its own.
                    let c = self.cond(cond).ok_or(why(
                        "an `if` that is not integer arithmetic, comparisons and constant lists",
                        cond,
                    ))?;
                    let mut todo = vec![c];
                    while let Some(c) = todo.pop() {
                        match c {
                            BoolExpr::And(a, b) => todo.extend([*b, *a]),
                            c => clauses.push(KClause::If(c)),
                        }
                    }
                    continue;
                }
                // Kernels read every name as an expression of their slots.
                Clause::While { cond } => KClause::While(self.cond(cond).ok_or(why(
                    "a `while` that is not integer arithmetic, comparisons and constant lists",
                    cond,
                ))?),
                Clause::Let { value, .. } => {
                    return Err(why(
                        "a `let` clause that holds a value computed once",
                        value,
                    ));
                }
                Clause::For { slot, iter } => match self.prog.expr(iter) {
                    ir::Expr::Range { lo, hi, inclusive } => KClause::Range {
                        slot: slot.0,
                        lo: self
                            .int(*lo)
                            .ok_or(why("a loop bound that is not integer arithmetic", *lo))?,
                        hi: self
                            .int(*hi)
                            .ok_or(why("a loop bound that is not integer arithmetic", *hi))?,
                        inclusive: *inclusive,
                    },
                    ir::Expr::Call {
                        f: ir::Builtin::Components,
                        args,
                        ..
                    } => match args.as_slice() {
                        [mask, adj] => {
                            let adj = self.int_list(*adj).ok_or(why(
                                "`components` of an adjacency that is not a constant list",
                                *adj,
                            ))?;
                            KClause::Parts {
                                slot: slot.0,
                                mask: self.int(*mask).ok_or(why(
                                    "`components` of a mask that is not integer arithmetic",
                                    *mask,
                                ))?,
                                grid: crate::board::Grid::of(&adj),
                                adj,
                            }
                        }
                        _ => return Err(why("`components` of other than two arguments", iter)),
                    },
                    _ => KClause::List {
                        slot: slot.0,
                        items: self.int_list(iter).ok_or(why(
                            "a loop over a list that is not a constant list of integers",
                            iter,
                        ))?,
                    },
                },
            });
        }
        let mut comps = Vec::new();
        self.body(body, &mut comps).ok_or(why(
            "a move whose arguments are not integer arithmetic (or more than the kernels take)",
            body,
        ))?;
        prefilter(&mut clauses, slots.max(arity));
        let dom = domains(&clauses, slots.max(arity), arity);
        let fused = fuse(&clauses, &comps, &dom);
        let last_loop = clauses.iter().rposition(|c| !matches!(c, KClause::If(_)));
        // The fused loop is the last `for` clause.
        let fused_at = fused.as_ref().and(last_loop);
        let tail = last_loop.map_or(0, |i| i + 1);
        let fast = Rc::new(ListCode {
            conds: clauses
                .iter()
                .map(|c| match c {
                    KClause::If(c) | KClause::While(c) => Some(BoolCode::new(c)),
                    _ => None,
                })
                .collect(),
            args: comps
                .iter()
                .map(|k| k.args.iter().map(IntCode::int).collect())
                .collect(),
            bits: clauses
                .iter()
                .zip(clauses.iter().skip(1))
                .map(|pair| match pair {
                    (KClause::Range { slot, .. } | KClause::List { slot, .. }, KClause::If(c)) => {
                        bits::BitTest::of(c, *slot)
                    }
                    _ => None,
                })
                .collect(),
        });
        // Values are read from the dense arrays only.
        let reads = comps
            .iter()
            .all(|k| k.args.len() <= 2 && !self.prog.stored_by_key(k.game));
        Ok(KRule {
            tail,
            fast,
            clauses,
            comps,
            fused,
            fused_at,
            dom,
            arity,
            reads,
        })
    }

    fn body(&self, e: ExprId, out: &mut Vec<KComp>) -> Option<()> {
        match self.prog.expr(e) {
            ir::Expr::EmptyPos => Some(()),
            ir::Expr::PosSum(a, b) => {
                self.body(*a, out)?;
                self.body(*b, out)
            }
            ir::Expr::Apply { game, args } if (1..=run::MAX_ARGS).contains(&args.len()) => {
                let args = args
                    .iter()
                    .map(|&a| self.int(a))
                    .collect::<Option<Vec<_>>>()?;
                out.push(KComp { game: *game, args });
                Some(())
            }
            _ => None,
        }
    }
}

/// Drops from a constant list the items that the conditions right after
/// it reject when they read nothing but its loop variable (a board's cells
/// that a move cannot start from), and those conditions with them: they
/// would be asked of every position alike. Only conditions that answer
/// for every item are dropped, so nothing the interpreter would report is
/// skipped, and the order of what is left is kept.
fn prefilter(clauses: &mut Vec<KClause>, slots: usize) {
    let mut i = 0;
    while i < clauses.len() {
        let KClause::List { slot: x, items } = &clauses[i] else {
            i += 1;
            continue;
        };
        let (x, mut items) = (*x, items.to_vec());
        let mut env = vec![0i64; slots.max(x as usize + 1)];
        let mut dropped = 0;
        while let Some(KClause::If(c)) = clauses.get(i + 1 + dropped) {
            let only_x = (0..env.len() as u32).all(|s| s == x || !cond_mentions(c, s));
            let kept: Option<Vec<i64>> = only_x
                .then(|| {
                    let mut kept = Vec::new();
                    for &v in &items {
                        env[x as usize] = v;
                        if c.eval(&env[..])? {
                            kept.push(v);
                        }
                    }
                    Some(kept)
                })
                .flatten();
            let Some(kept) = kept else { break };
            items = kept;
            dropped += 1;
        }
        if dropped > 0 {
            clauses.drain(i + 1..i + 1 + dropped);
            clauses[i] = KClause::List {
                slot: x,
                items: items.into(),
            };
        }
        i += 1;
    }
}

/// Fused loops handle up to this many components per option.
const MAX_FUSED: usize = 4;

/// Coefficients stay small so that `s·x` fits in an `i64` for list items up
/// to 2^40 (the batch kernel's list loop computes in `i64`).
const MAX_COEF: i64 = 1 << 20;

/// Fuses the innermost range loop when everything after it is linear in it.
fn fuse(clauses: &[KClause], comps: &[KComp], dom: &[(i128, i128)]) -> Option<Fused> {
    let last_for = clauses.iter().rposition(|c| !matches!(c, KClause::If(_)))?;
    let (KClause::Range { slot: x, .. } | KClause::List { slot: x, .. }) = clauses[last_for] else {
        return None;
    };
    // Fused loops read the dense arrays: games of one or two arguments.
    if comps.len() > MAX_FUSED || comps.iter().any(|k| k.args.len() > 2) {
        return None;
    }
    let mut bounds = Vec::new();
    for c in &clauses[last_for + 1..] {
        let KClause::If(cond) = c else { return None };
        // Regrouped below: only where evaluating as written cannot overflow.
        cond_safe(cond, dom)?;
        linear_bounds(cond, x, &mut bounds)?;
    }
    for k in comps {
        for a in &k.args {
            interval(a, dom)?;
        }
    }
    let comps = comps
        .iter()
        .map(|k| {
            Some((
                k.game,
                k.args
                    .iter()
                    .map(|a| Form::of(a, x))
                    .collect::<Option<Vec<_>>>()?,
            ))
        })
        .collect::<Option<Vec<_>>>()?;
    Some(Fused { bounds, comps })
}

fn linear_bounds(c: &BoolExpr, x: u32, out: &mut Vec<LoopBound>) -> Option<()> {
    match c {
        BoolExpr::And(a, b) => {
            linear_bounds(a, x, out)?;
            linear_bounds(b, x, out)
        }
        // A condition of constants, folded when compiled: no bound, or
        // `0 < 0`, which never holds.
        BoolExpr::Const(true) => Some(()),
        BoolExpr::Const(false) => {
            out.push(LoopBound {
                op: BinOp::Lt,
                d: Form::of(&IntExpr::Const(0), x)?,
            });
            Some(())
        }
        BoolExpr::Cmp(op @ (BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::Eq), l, r) => {
            let d = IntExpr::Bin(BinOp::Sub, Box::new(l.clone()), Box::new(r.clone()));
            out.push(LoopBound {
                op: *op,
                d: Form::of(&d, x)?,
            });
            Some(())
        }
        _ => None,
    }
}

/// The domain of each slot while a rule runs on a dense position: the
/// parameters within the dense ranges, loop variables within what their
/// ranges or lists can produce.
fn domains(clauses: &[KClause], slots: usize, arity: usize) -> Vec<(i128, i128)> {
    let param_max = if arity == 1 { 1i128 << 27 } else { 1i128 << 24 };
    let mut dom = vec![FULL; slots];
    for d in dom.iter_mut().take(arity) {
        *d = (0, param_max);
    }
    for c in clauses {
        match c {
            KClause::Range { slot, lo, hi, .. } => {
                let range = match (interval(lo, &dom), interval(hi, &dom)) {
                    (Some(l), Some(h)) => (l.0, h.1),
                    _ => FULL,
                };
                if let Some(d) = dom.get_mut(*slot as usize) {
                    *d = range;
                }
            }
            KClause::List { slot, items } => {
                let lo = items.iter().min().map_or(0, |v| i128::from(*v));
                let hi = items.iter().max().map_or(0, |v| i128::from(*v));
                if let Some(d) = dom.get_mut(*slot as usize) {
                    *d = (lo, hi);
                }
            }
            KClause::Parts { slot, .. } => {
                if let Some(d) = dom.get_mut(*slot as usize) {
                    *d = (0, i128::from(i64::MAX));
                }
            }
            KClause::If(_) | KClause::While(_) => {}
        }
    }
    dom
}
