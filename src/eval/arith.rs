//! Integer operators in the interpreter: on 64 bits first (what the
//! compiled rules and the kernels compute too), and on as many bits as the
//! result needs when 64 do not hold it (`ops::Wide`). A 64-bit path that
//! has no result declines, and the interpreter answers, so a rule means
//! the same on every path.

use super::*;
use crate::builtin::overflow;
use crate::ops::Wide;

/// An integer operand: 64-bit, or wider.
pub(super) enum Integer {
    Small(i64),
    Wide(Rc<Wide>),
}

impl Integer {
    pub(super) fn wide(&self) -> Wide {
        match self {
            Integer::Small(x) => Wide::from(*x),
            Integer::Wide(x) => (**x).clone(),
        }
    }
}

/// An operand as a message shows it: its digits, or for one of more
/// than 128 bits, its width.
impl std::fmt::Display for Integer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Integer::Small(x) => write!(f, "{x}"),
            Integer::Wide(x) if x.bits() > 128 => write!(f, "<an integer of {} bits>", x.bits()),
            Integer::Wide(x) => write!(f, "{x}"),
        }
    }
}

impl Interp<'_> {
    /// Evaluates to an integer of any width.
    pub(super) fn integer(&mut self, p: &ir::Program, e: ExprId, env: &mut [Value]) -> R<Integer> {
        if let Some(v) = self.m.forms.compiled.int(e).and_then(|c| c.eval(env)) {
            return Ok(Integer::Small(v));
        }
        match self.value(p, e, env)? {
            Value::Int(v) => Ok(Integer::Small(v)),
            Value::Wide(v) => Ok(Integer::Wide(v)),
            other => Err(self.type_bug(p, e, "an integer", &other).into()),
        }
    }

    /// `a op b` for an arithmetic or comparison operator.
    pub(super) fn integer_op(
        &mut self,
        p: &ir::Program,
        op: BinOp,
        a: ExprId,
        b: ExprId,
        span: Span,
        env: &mut [Value],
    ) -> R<Value> {
        let x = self.integer(p, a, env)?;
        let y = self.integer(p, b, env)?;
        if let (Integer::Small(x), Integer::Small(y)) = (&x, &y) {
            if let Some(c) = ops::compare(op, *x, *y) {
                return Ok(Value::Bool(c));
            }
            match ops::int_op(op, *x, *y) {
                Ok(v) => return Ok(Value::Int(v)),
                // Errors that no width mends.
                Err(err @ OpError::DivisionByZero) => {
                    let what = format!("{x} {} {y}", op.symbol());
                    return Err(self.op_error(p, err, span, b, what, y.to_string()).into());
                }
                Err(_) => {}
            }
        }
        let (wx, wy) = (x.wide(), y.wide());
        if let Some(c) = Wide::compare(op, &wx, &wy) {
            return Ok(Value::Bool(c));
        }
        self.m.budget.add(wx.bits().max(wy.bits()) / 64);
        Wide::op(op, &wx, &wy).map(Value::integer).map_err(|err| {
            let what = format!("{x} {} {y}", op.symbol());
            self.op_error(p, err, span, b, what, y.to_string()).into()
        })
    }

    /// `-x`.
    pub(super) fn negate(&mut self, p: &ir::Program, x: ExprId, env: &mut [Value]) -> R<Value> {
        Ok(match self.integer(p, x, env)? {
            Integer::Small(v) => match v.checked_neg() {
                Some(n) => Value::Int(n),
                None => Value::integer(Wide::from(v).neg()),
            },
            Integer::Wide(v) => Value::integer(v.neg()),
        })
    }

    /// The diagnostic for a failed integer operation at `span`: `what` as
    /// written with its values, `operand` the right operand (blamed for a
    /// bad divisor, exponent or shift) with value `y`.
    pub(super) fn op_error(
        &self,
        p: &ir::Program,
        err: OpError,
        span: Span,
        operand: ExprId,
        what: String,
        y: String,
    ) -> Diag {
        match err {
            OpError::Overflow => overflow(span, what),
            OpError::TooWide => Diag::user(
                Code::Overflow,
                format!("integer wider than {} bits in {what}", ops::MAX_BITS),
            )
            .label(span, format!("needs more than {} bits", ops::MAX_BITS))
            .help(format!(
                "integers may be as wide as {} bits (a board of that many cells)",
                ops::MAX_BITS
            )),
            OpError::DivisionByZero => {
                Diag::user(Code::DivisionByZero, format!("division by zero: {what}"))
                    .label(span, "divides by zero")
                    .label(p.span(operand), "this is 0")
            }
            OpError::BadExponent => {
                Diag::user(Code::BadExponent, format!("exponent {y} out of range"))
                    .label(p.span(operand), "must not be negative")
            }
            OpError::BadShift => {
                Diag::user(Code::BadShift, format!("shift amount {y} is out of range"))
                    .label(p.span(operand), "shift amounts are not negative")
            }
            OpError::NegativePopcount => Diag::user(
                Code::NegativePopcount,
                format!("popcount of negative number {y}"),
            )
            .label(span, "needs a non-negative integer"),
            OpError::NegativeRoot => Diag::user(
                Code::NegativeRoot,
                format!("square root of negative number {y}"),
            )
            .label(span, "needs a non-negative integer"),
        }
    }
}
