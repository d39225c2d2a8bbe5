//! Formulas as `guess` builds them: a tree of the language's operations,
//! evaluated as the language evaluates them (`ops`), and written with its
//! precedences.

use crate::ops::{self, BinOp};

/// A formula's node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// The i-th variable.
    Var(u8),
    /// A number.
    Const(i64),
    /// An integer operation, a comparison of two integers, or `and`/`or`
    /// of two booleans.
    Bin(BinOp),
    /// `min(a, b)`.
    Min,
    /// `max(a, b)`.
    Max,
    /// `popcount(a)`.
    Popcount,
    /// `isqrt(a)`.
    Isqrt,
    /// `not a`.
    Not,
    /// `if a then b else c`.
    If,
}

impl Op {
    /// How many operands it takes.
    pub(super) fn arity(self) -> usize {
        match self {
            Op::Var(_) | Op::Const(_) => 0,
            Op::Popcount | Op::Isqrt | Op::Not => 1,
            Op::If => 3,
            Op::Bin(_) | Op::Min | Op::Max => 2,
        }
    }
}

/// A formula: its nodes with their operands before them, the root last.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Formula {
    pub(super) nodes: Vec<(Op, [u32; 3])>,
}

/// A formula's value at a point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Val {
    /// An integer.
    Int(i64),
    /// A boolean.
    Bool(bool),
}

impl Formula {
    /// Its size: names, numbers and operators written, a call of one
    /// operand (`popcount`, `isqrt`) counting 2.
    pub fn size(&self) -> usize {
        self.nodes
            .iter()
            .map(|(op, _)| match op {
                Op::Popcount | Op::Isqrt => 2,
                _ => 1,
            })
            .sum()
    }

    /// Its value at the point `x`, as the language computes it; `None`
    /// where an operation has no value (division by zero, overflow).
    pub fn eval(&self, x: &[i64]) -> Option<Val> {
        self.eval_in(x, &mut Vec::new())
    }

    /// [`Formula::eval`] with the nodes' values kept in `vals` (cleared
    /// first), so that evaluating at many points allocates once.
    pub fn eval_in(&self, x: &[i64], vals: &mut Vec<Val>) -> Option<Val> {
        vals.clear();
        for &(op, k) in &self.nodes {
            let at = |i: usize| vals[k[i] as usize];
            let v = match op {
                Op::Var(i) => Val::Int(*x.get(i as usize)?),
                Op::Const(c) => Val::Int(c),
                _ => apply(op, at(0), at(1), at(2))?,
            };
            vals.push(v);
        }
        vals.last().copied()
    }

    /// The formula as the language writes it, its variables named `names`.
    pub fn text(&self, names: &[String]) -> String {
        self.write(self.nodes.len() - 1, names, 0)
    }

    /// The formula as an operand of a comparison (in parentheses where
    /// it binds more loosely).
    pub fn operand(&self, names: &[String]) -> String {
        self.write(self.nodes.len() - 1, names, 5)
    }

    /// Node `i` written inside a context that binds at `ctx` (0: loosest).
    fn write(&self, i: usize, names: &[String], ctx: u8) -> String {
        let (op, k) = self.nodes[i];
        let kid = |j: usize, c: u8| self.write(k[j] as usize, names, c);
        let (prec, s) = match op {
            Op::Var(v) => (
                ATOM,
                names
                    .get(v as usize)
                    .cloned()
                    .unwrap_or_else(|| format!("x{v}")),
            ),
            Op::Const(c) if c < 0 => (NEG, c.to_string()),
            Op::Const(c) => (ATOM, c.to_string()),
            Op::Min | Op::Max | Op::Popcount | Op::Isqrt => {
                let name = match op {
                    Op::Min => "min",
                    Op::Max => "max",
                    Op::Popcount => "popcount",
                    _ => "isqrt",
                };
                let args: Vec<String> = (0..op.arity()).map(|j| kid(j, 1)).collect();
                (ATOM, format!("{name}({})", args.join(", ")))
            }
            Op::Not => (3, format!("not {}", kid(0, 3))),
            Op::If => (
                0,
                format!("if {} then {} else {}", kid(0, 1), kid(1, 1), kid(2, 0)),
            ),
            Op::Bin(b) => {
                let p = precedence(b);
                // Comparisons do not chain; the others associate to the left,
                // and `x + (y + z)` is written `x + y + z`: the same value
                // (regrouped, a sum or product of the small values a guess
                // fits could only overflow where the `check` would say so).
                let same = self.nodes[k[1] as usize].0 == op;
                let associative = matches!(
                    b,
                    BinOp::Add | BinOp::Mul | BinOp::BitXor | BinOp::BitAnd | BinOp::BitOr
                );
                let (l, r) = match b.is_comparison() {
                    true => (p + 1, p + 1),
                    false if same && associative => (p, p),
                    false => (p, p + 1),
                };
                (p, format!("{} {} {}", kid(0, l), b.symbol(), kid(1, r)))
            }
        };
        match prec < ctx {
            true => format!("({s})"),
            false => s,
        }
    }
}

/// How tightly a name, a number or a call binds.
const ATOM: u8 = 14;
/// How tightly a negative number binds (as prefix `-`).
const NEG: u8 = 12;

/// How tightly a binary operator binds (language.md §4).
fn precedence(b: BinOp) -> u8 {
    match b {
        BinOp::Or => 1,
        BinOp::And => 2,
        BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => 4,
        BinOp::BitOr => 6,
        BinOp::BitXor => 7,
        BinOp::BitAnd => 8,
        BinOp::Shl | BinOp::Shr => 9,
        BinOp::Add | BinOp::Sub => 10,
        BinOp::Mul | BinOp::Div | BinOp::Rem => 11,
        BinOp::Pow => 13,
    }
}

/// One operation on values, as the language computes it.
fn apply(op: Op, a: Val, b: Val, c: Val) -> Option<Val> {
    use Val::{Bool, Int};
    Some(match (op, a, b) {
        (Op::Bin(BinOp::And), Bool(x), Bool(y)) => Bool(x && y),
        (Op::Bin(BinOp::Or), Bool(x), Bool(y)) => Bool(x || y),
        (Op::Bin(o), Int(x), Int(y)) if o.is_comparison() => Bool(ops::compare(o, x, y)?),
        (Op::Bin(o), Int(x), Int(y)) => Int(ops::int_op(o, x, y).ok()?),
        (Op::Min, Int(x), Int(y)) => Int(x.min(y)),
        (Op::Max, Int(x), Int(y)) => Int(x.max(y)),
        (Op::Popcount, Int(x), _) => Int(ops::popcount(x).ok()?),
        (Op::Isqrt, Int(x), _) => Int(ops::isqrt(x).ok()?),
        (Op::Not, Bool(x), _) => Bool(!x),
        (Op::If, Bool(t), _) => match t {
            true => b,
            false => c,
        },
        _ => return None,
    })
}
