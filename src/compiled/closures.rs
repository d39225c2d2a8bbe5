//! Compiled expressions as closures over the interpreter's slots: the
//! operator of each node and the common leaf shapes specialized, so the hot
//! paths do not dispatch on the tree.

use super::{BoolExpr, IntExpr, Slots};
use crate::ir::BinOp;
use crate::ops;
use crate::value::Value;
use std::rc::Rc;

/// An integer function of a frame's slots (the interpreter's values, or a
/// kernel's integers).
type IntFn<E> = Box<dyn Fn(&E) -> Option<i64>>;
/// A boolean function of a frame's slots.
type BoolFn<E> = Box<dyn Fn(&E) -> Option<bool>>;
/// A function of a frame's slots giving a `T`.
type SlotFn<E, T> = Box<dyn Fn(&E) -> Option<T>>;

/// Runs `$body` with `$f` bound to the function of the arithmetic operator
/// `$op` (each operator its own closure type, so the body is specialized
/// for it: no dispatch on the operator at run time).
macro_rules! with_int_op {
    ($op:expr, |$f:ident| $body:expr) => {
        match $op {
            BinOp::Add => with_int_op!(@ BinOp::Add, $f, $body),
            BinOp::Sub => with_int_op!(@ BinOp::Sub, $f, $body),
            BinOp::Mul => with_int_op!(@ BinOp::Mul, $f, $body),
            BinOp::Div => with_int_op!(@ BinOp::Div, $f, $body),
            BinOp::Rem => with_int_op!(@ BinOp::Rem, $f, $body),
            BinOp::Pow => with_int_op!(@ BinOp::Pow, $f, $body),
            BinOp::BitAnd => with_int_op!(@ BinOp::BitAnd, $f, $body),
            BinOp::BitOr => with_int_op!(@ BinOp::BitOr, $f, $body),
            BinOp::BitXor => with_int_op!(@ BinOp::BitXor, $f, $body),
            BinOp::Shl => with_int_op!(@ BinOp::Shl, $f, $body),
            BinOp::Shr => with_int_op!(@ BinOp::Shr, $f, $body),
            op => {
                let $f = move |a: i64, b: i64| ops::int_op(op, a, b).ok();
                $body
            }
        }
    };
    (@ $op:expr, $f:ident, $body:expr) => {{
        let $f = |a: i64, b: i64| ops::int_op($op, a, b).ok();
        $body
    }};
}

/// [`with_int_op`] for comparisons.
macro_rules! with_cmp {
    ($op:expr, |$f:ident| $body:expr) => {
        match $op {
            BinOp::Lt => with_cmp!(@ BinOp::Lt, $f, $body),
            BinOp::Le => with_cmp!(@ BinOp::Le, $f, $body),
            BinOp::Gt => with_cmp!(@ BinOp::Gt, $f, $body),
            BinOp::Ge => with_cmp!(@ BinOp::Ge, $f, $body),
            BinOp::Eq => with_cmp!(@ BinOp::Eq, $f, $body),
            BinOp::Ne => with_cmp!(@ BinOp::Ne, $f, $body),
            op => {
                let $f = move |a: i64, b: i64| ops::compare(op, a, b);
                $body
            }
        }
    };
    (@ $op:expr, $f:ident, $body:expr) => {{
        let $f = |a: i64, b: i64| ops::compare($op, a, b);
        $body
    }};
}

/// An integer expression as closures over the interpreter's slots, with
/// the operator of each node and the common leaf shapes (`x op y`,
/// `x op 3`) specialized: what the hot paths evaluate.
pub struct IntCode<E: ?Sized = [Value]>(IntFn<E>);

impl<E: ?Sized> std::fmt::Debug for IntCode<E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("IntCode")
    }
}

impl<E: Slots + ?Sized + 'static> IntCode<E> {
    /// The compiled form of an integer expression.
    pub fn int(e: &IntExpr) -> IntCode<E> {
        IntCode(int_fn(e))
    }

    /// The value, or `None` where the interpreter would report an error
    /// (or a slot holds no integer).
    #[inline]
    pub fn eval(&self, env: &E) -> Option<i64> {
        (self.0)(env)
    }
}

/// A condition as closures (see [`IntCode`]), and whether it is a filter.
pub struct BoolCode<E: ?Sized = [Value]>(BoolFn<E>, Option<Filter>);

/// A condition that reads a constant list of booleans at a variable:
/// `marked[i]` (`want` true) or `not marked[i]` (false). A loop over a
/// range of `i` may read the list itself, a run of values at a time.
#[derive(Clone, Debug)]
pub struct Filter {
    /// The list.
    pub list: Rc<[bool]>,
    /// The variable's slot.
    pub slot: u32,
    /// The element for which the condition holds.
    pub want: bool,
}

impl Filter {
    fn of(c: &BoolExpr) -> Option<Filter> {
        match c {
            BoolExpr::Index(list, IntExpr::Slot(slot)) => Some(Filter {
                list: Rc::clone(list),
                slot: *slot,
                want: true,
            }),
            BoolExpr::Not(c) => Filter::of(c)
                .filter(|f| f.want)
                .map(|f| Filter { want: false, ..f }),
            _ => None,
        }
    }
}

impl<E: ?Sized> std::fmt::Debug for BoolCode<E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("BoolCode")
    }
}

impl<E: Slots + ?Sized + 'static> BoolCode<E> {
    /// The compiled form of a condition.
    pub fn new(c: &BoolExpr) -> BoolCode<E> {
        BoolCode(bool_fn(c), Filter::of(c))
    }

    /// The value, or `None` where the interpreter would report an error.
    #[inline]
    pub fn eval(&self, env: &E) -> Option<bool> {
        (self.0)(env)
    }

    /// The condition as a filter, when it is one.
    pub fn filter(&self) -> Option<&Filter> {
        self.1.as_ref()
    }
}

fn int_fn<E: Slots + ?Sized + 'static>(e: &IntExpr) -> IntFn<E> {
    match e {
        &IntExpr::Const(k) => Box::new(move |_| Some(k)),
        &IntExpr::Slot(s) => Box::new(move |env| env.int(s)),
        IntExpr::Bin(op, a, b) => match (&**a, &**b) {
            (&IntExpr::Slot(x), &IntExpr::Slot(y)) => {
                with_int_op!(*op, |f| Box::new(move |env| f(env.int(x)?, env.int(y)?)))
            }
            (&IntExpr::Slot(x), &IntExpr::Const(k)) => {
                with_int_op!(*op, |f| Box::new(move |env| f(env.int(x)?, k)))
            }
            (_, &IntExpr::Const(k)) => {
                let a = int_fn(a);
                with_int_op!(*op, |f| Box::new(move |env| f(a(env)?, k)))
            }
            (_, &IntExpr::Slot(y)) => {
                let a = int_fn(a);
                with_int_op!(*op, |f| Box::new(move |env| f(a(env)?, env.int(y)?)))
            }
            (&IntExpr::Slot(x), _) => {
                let b = int_fn(b);
                with_int_op!(*op, |f| Box::new(move |env| f(env.int(x)?, b(env)?)))
            }
            _ => {
                let (a, b) = (int_fn(a), int_fn(b));
                with_int_op!(*op, |f| Box::new(move |env| f(a(env)?, b(env)?)))
            }
        },
        IntExpr::Neg(a) => {
            let a = int_fn(a);
            Box::new(move |env| ops::neg(a(env)?).ok())
        }
        IntExpr::Abs(a) => {
            let a = int_fn(a);
            Box::new(move |env| ops::abs(a(env)?).ok())
        }
        IntExpr::Popcount(a) => {
            let a = int_fn(a);
            Box::new(move |env| ops::popcount(a(env)?).ok())
        }
        IntExpr::Isqrt(a) => {
            let a = int_fn(a);
            Box::new(move |env| ops::isqrt(a(env)?).ok())
        }
        IntExpr::Call(f, xs) => match (f.spec().ints.map(|(f, _)| f), &xs[..]) {
            (Some(crate::ir::Ints::One(f)), [a]) => {
                let a = int_fn(a);
                Box::new(move |env| f(a(env)?).ok())
            }
            (Some(crate::ir::Ints::Two(f)), [a, b]) => {
                let (a, b) = (int_fn(a), int_fn(b));
                Box::new(move |env| f(a(env)?, b(env)?).ok())
            }
            _ => Box::new(|_| None),
        },
        IntExpr::GridCanon(xs) | IntExpr::GridTurn(xs) => {
            let canon = matches!(e, IntExpr::GridCanon(_));
            // A grid of constant size, the usual case: no calls for its sides.
            // (A grid of a wrong size gives up, and the interpreter says
            // why.)
            if let (true, [m, IntExpr::Const(w), IntExpr::Const(h)]) = (canon, &xs[..]) {
                let Ok(size) = crate::board::GridSize::new(*w, *h) else {
                    return Box::new(|_| None);
                };
                let (m, cache) = (int_fn(m), crate::board::CanonCache::default());
                return Box::new(move |env| cache.canon(m(env)?, size));
            }
            // A hint's test of the position's own mask: read in place.
            if let (false, [IntExpr::Slot(m), IntExpr::Const(w), IntExpr::Const(h)]) =
                (canon, &xs[..])
            {
                let Ok(size) = crate::board::GridSize::new(*w, *h) else {
                    return Box::new(|_| None);
                };
                let m = *m;
                return Box::new(move |env| size.turn(env.int(m)?).ok());
            }
            let f = match canon {
                true => crate::board::grid_canon,
                false => crate::board::grid_turn,
            };
            let xs: Vec<IntFn<E>> = xs.iter().map(int_fn).collect();
            Box::new(move |env| match xs.as_slice() {
                [m, w, h] => f(m(env)?, w(env)?, h(env)?).ok(),
                _ => None,
            })
        }
        IntExpr::Min(xs) | IntExpr::Max(xs) => {
            let xs: Vec<IntFn<E>> = xs.iter().map(int_fn).collect();
            let min = matches!(e, IntExpr::Min(_));
            Box::new(move |env| {
                let mut best: Option<i64> = None;
                for x in &xs {
                    let v = x(env)?;
                    best = Some(match best {
                        Some(b) if min => b.min(v),
                        Some(b) => b.max(v),
                        None => v,
                    });
                }
                best
            })
        }
        IntExpr::Index(items, i) => {
            let items = items.clone();
            indexed(i, move |_, i| items.get(usize::try_from(i).ok()?).copied())
        }
        IntExpr::SlotIndex(s, i) => {
            let s = *s;
            indexed(i, move |env: &E, i| env.list_int(s, i))
        }
        &IntExpr::SlotLen(s) => Box::new(move |env| env.list_len(s)),
        IntExpr::Reduce(f, xs, lo, hi) => {
            let (f, xs, lo, hi) = (*f, Rc::clone(xs), int_fn(lo), int_fn(hi));
            Box::new(move |env| f.of(&xs, lo(env)?, hi(env)?))
        }
        IntExpr::If(c, a, b) => {
            let (c, a, b) = (bool_fn(c), int_fn(a), int_fn(b));
            Box::new(move |env| if c(env)? { a(env) } else { b(env) })
        }
    }
}

fn bool_fn<E: Slots + ?Sized + 'static>(c: &BoolExpr) -> BoolFn<E> {
    match c {
        &BoolExpr::Const(b) => Box::new(move |_| Some(b)),
        BoolExpr::Cmp(op, a, b) => match (a, b) {
            (&IntExpr::Slot(x), &IntExpr::Slot(y)) => {
                with_cmp!(*op, |f| Box::new(move |env| f(env.int(x)?, env.int(y)?)))
            }
            (&IntExpr::Slot(x), &IntExpr::Const(k)) => {
                with_cmp!(*op, |f| Box::new(move |env| f(env.int(x)?, k)))
            }
            (_, &IntExpr::Const(k)) => {
                let a = int_fn(a);
                with_cmp!(*op, |f| Box::new(move |env| f(a(env)?, k)))
            }
            (_, &IntExpr::Slot(y)) => {
                let a = int_fn(a);
                with_cmp!(*op, |f| Box::new(move |env| f(a(env)?, env.int(y)?)))
            }
            _ => {
                let (a, b) = (int_fn(a), int_fn(b));
                with_cmp!(*op, |f| Box::new(move |env| f(a(env)?, b(env)?)))
            }
        },
        // Short-circuit as the interpreter does: `b` runs only when needed.
        BoolExpr::And(a, b) => {
            let (a, b) = (bool_fn(a), bool_fn(b));
            Box::new(move |env| Some(a(env)? && b(env)?))
        }
        BoolExpr::Or(a, b) => {
            let (a, b) = (bool_fn(a), bool_fn(b));
            Box::new(move |env| Some(a(env)? || b(env)?))
        }
        // `not marked[i]`: the element read in the same closure.
        BoolExpr::Not(a) => match &**a {
            BoolExpr::SlotIndex(s, i) => {
                let s = *s;
                indexed(i, move |env: &E, i| env.list_bool(s, i).map(|b| !b))
            }
            BoolExpr::Index(xs, i) => {
                let xs = Rc::clone(xs);
                indexed(i, move |_, i| xs.get(usize::try_from(i).ok()?).map(|b| !b))
            }
            _ => {
                let a = bool_fn(a);
                Box::new(move |env| Some(!a(env)?))
            }
        },
        BoolExpr::SlotIndex(s, i) => {
            let s = *s;
            indexed(i, move |env: &E, i| env.list_bool(s, i))
        }
        BoolExpr::Index(xs, i) => {
            let xs = Rc::clone(xs);
            indexed(i, move |_, i| xs.get(usize::try_from(i).ok()?).copied())
        }
    }
}

/// `get(env, i)` at the index `i`: a variable (a board's table by cell), or
/// a variable plus or minus a constant (a DP's `d[i - 1]`), read in place
/// in one closure; any other index through its own.
fn indexed<E, T>(i: &IntExpr, get: impl Fn(&E, i64) -> Option<T> + 'static) -> SlotFn<E, T>
where
    E: Slots + ?Sized + 'static,
    T: 'static,
{
    if let &IntExpr::Slot(s) = i {
        return Box::new(move |env| get(env, env.int(s)?));
    }
    if let IntExpr::Bin(op @ (BinOp::Add | BinOp::Sub), a, b) = i
        && let (&IntExpr::Slot(s), &IntExpr::Const(k)) = (&**a, &**b)
    {
        let add = *op == BinOp::Add;
        return Box::new(move |env| {
            let v = env.int(s)?;
            get(
                env,
                if add {
                    v.checked_add(k)
                } else {
                    v.checked_sub(k)
                }?,
            )
        });
    }
    let i = int_fn(i);
    Box::new(move |env| get(env, i(env)?))
}
