//! Calls: of builtins (arity from the builtins' declarations, then each one's
//! argument types and where it may be used) and of games.

use super::*;
use crate::builtin::{Arg, Axes, Gives, Sig};

impl Checker {
    pub(super) fn call(
        &mut self,
        callee: &ast::Ident,
        args: &[ast::Expr],
        span: Span,
    ) -> (ExprId, Ty) {
        let name = callee.name.as_str();
        if self.local(name).is_some() {
            self.errors.push(
                Diag::user(
                    Code::NotCallable,
                    format!("`{name}` is a variable, not a game or function"),
                )
                .label(callee.span, "called here")
                .help(
                    "a `(` right after a name is a call; if it starts the next rule, end this \
                     rule with `;`",
                ),
            );
            return (self.push(ir::Expr::Int(0), span), Ty::Error);
        }
        match self.globals.get(name).copied() {
            Some(Defined::Game(game)) => return self.apply(game, args, span),
            Some(Defined::Fun(fun)) => return self.call_fun(fun, args, span),
            Some(Defined::Const(_)) => {
                self.errors.push(
                    Diag::user(
                        Code::NotCallable,
                        format!("`{name}` is a constant, not a game or function"),
                    )
                    .label(callee.span, "called here"),
                );
                return (self.push(ir::Expr::Int(0), span), Ty::Error);
            }
            None => {}
        }
        let Some(f) = Builtin::by_name(name) else {
            self.not_a_builtin(name, callee.span, args, span);
            return (self.push(ir::Expr::Int(0), span), Ty::Error);
        };
        self.query_here(f, name, span);
        let takes = f.spec().takes;
        // Once per call, however many checks below find it.
        let reported = std::cell::Cell::new(false);
        let sig_err = |c: &mut Checker| {
            if reported.replace(true) {
                return;
            }
            c.errors.push(
                Diag::user(
                    Code::WrongArity,
                    format!("`{name}` takes {takes}, but {} given", given(args.len())),
                )
                .label(
                    span,
                    format!("called with {}", plural(args.len(), "argument")),
                ),
            );
        };
        let (min, max) = f.spec().arity;
        if !(min..=max).contains(&args.len()) {
            sig_err(self);
        }
        // Most builtins declare their arguments' types in the table.
        if let Sig::Args(params, gives) = f.spec().sig {
            let ids = args
                .iter()
                .enumerate()
                .filter_map(|(i, a)| match params.get(i) {
                    Some(&(arg, why)) => Some(self.builtin_arg(a, arg, why)),
                    // Past the arity (reported): looked at, not kept.
                    None => {
                        self.infer(a);
                        None
                    }
                })
                .collect();
            let call = ir::Expr::Call {
                f,
                play: Play::Normal,
                args: ids,
            };
            let ty = match gives {
                Gives::Int => Ty::Int,
                Gives::Bool => Ty::Bool,
                Gives::Str => Ty::Str,
                Gives::List => Ty::List,
                Gives::Dict => Ty::Dict,
                Gives::Value => self.types.fresh_any(),
                Gives::Pos => Ty::Pos,
                Gives::Report => Ty::Report,
            };
            return (self.push(call, span), ty);
        }
        let (ids, ty): (Vec<ExprId>, Ty) = match f.spec().sig {
            Sig::ListOrInts => {
                let want = if args.len() == 1 { Ty::List } else { Ty::Int };
                let ids = args
                    .iter()
                    .map(|a| self.check_ty(a, want, &format!("`{name}` takes a list or integers")))
                    .collect();
                (ids, Ty::Int)
            }
            Sig::Position
                if args.len() == 2
                    && matches!(&args[1].kind, ExprKind::Name(n) if self.means_misere(n)) =>
            {
                misere_slip(&mut self.errors, &mut self.reported, &args[1], name);
                let p = self.check_ty(&args[0], Ty::Pos, &format!("`{name}` takes a position"));
                let call = ir::Expr::Call {
                    f,
                    play: Play::Misere,
                    args: vec![p],
                };
                return (self.push(call, span), Ty::Report);
            }
            Sig::Position => {
                // Two arguments, the second not `misere`.
                if args.len() == 2 {
                    sig_err(self);
                }
                let ids = args
                    .iter()
                    .map(|a| self.check_ty(a, Ty::Pos, &format!("`{name}` takes a position")))
                    .collect();
                (ids, Ty::Report)
            }
            Sig::Game { periodic } => (self.game_query_args(f, args, periodic), Ty::Report),
            Sig::Formula => (self.guess_args(args, span), Ty::Report),
            Sig::PositionOrAxes(axes) => {
                return self.position_or_table(f, axes, args, span, &sig_err);
            }
            Sig::Axes(axes) => return self.table_call(f, axes, args, span, &sig_err),
            // Plain signatures are answered above; a fold is no builtin's,
            // and every builtin declares its signature (`Spec::of`).
            Sig::Args(..) | Sig::Fold | Sig::Undeclared => {
                self.errors.push(
                    Diag::bug(format!("`{name}` has no signature to check"))
                        .label(span, "this call"),
                );
                (Vec::new(), Ty::Error)
            }
        };
        let call = ir::Expr::Call {
            f,
            play: Play::Normal,
            args: ids,
        };
        (self.push(call, span), ty)
    }

    /// `genus(P)`, or `genus(G, xs[, ys])` as a table.
    fn position_or_table(
        &mut self,
        f: Builtin,
        axes: Axes,
        args: &[ast::Expr],
        span: Span,
        sig_err: &dyn Fn(&mut Checker),
    ) -> (ExprId, Ty) {
        if let [p] = args {
            let p = self.check_ty(p, Ty::Pos, &format!("`{}` takes a position", f.name()));
            let call = ir::Expr::Call {
                f,
                play: Play::Normal,
                args: vec![p],
            };
            return (self.push(call, span), Ty::Report);
        }
        self.table_call(f, axes, args, span, sig_err)
    }

    /// `table`, `ppositions`, `map`, `plot`, `quotient` (and `genus` of a
    /// game): a game name, one range or list per parameter, and where the
    /// signature says so a last `misere`.
    fn table_call(
        &mut self,
        f: Builtin,
        axes: Axes,
        args: &[ast::Expr],
        span: Span,
        sig_err: &dyn Fn(&mut Checker),
    ) -> (ExprId, Ty) {
        let name = f.name();
        // A last argument `misere` asks for misère values.
        let (args, play) = match args.split_last() {
            Some((last, rest))
                if args.len() >= 3
                    && matches!(&last.kind, ExprKind::Name(n) if self.means_misere(n)) =>
            {
                misere_slip(&mut self.errors, &mut self.reported, last, name);
                (rest, Play::Misere)
            }
            _ => (args, Play::Normal),
        };
        // A genus and a quotient are already about misère play.
        if !axes.misere && play == Play::Misere {
            sig_err(self);
        }
        // `ppositions` may run over more axes (marked, for games whose
        // moves are translations); the others over one or two.
        let most = axes.most;
        if args.len() > 1 + most {
            sig_err(self);
        }
        let mut ids = Vec::new();
        let mut game = None;
        // `table(G(_, 6), 0..=20)`: a game of several parameters, all but
        // one fixed, over one axis; or all but two, over two
        // (`map(G(_, _, 2), ROWS, COLUMNS)`).
        let mut sectioned = None;
        for (i, a) in args.iter().enumerate() {
            if i == 0
                && axes.sections
                && let Some((free, section)) = section_args(self, a, name, most)
            {
                sectioned = Some(free);
                ids.extend(section);
            } else if let (0, ExprKind::Name(n)) = (i, &a.kind)
                && self.local(n).is_none()
                && !self.globals.contains_key(n)
            {
                let d = self.unknown(n, a.span, "unknown game");
                self.errors.push(d);
                ids.push(self.push(ir::Expr::Int(0), a.span));
            } else if let (0, ExprKind::Name(n)) = (i, &a.kind)
                && self.local(n).is_none()
                && let Some(Defined::Game(g)) = self.globals.get(n).copied()
            {
                game = Some(g);
                ids.push(self.push(ir::Expr::GameRef(g), a.span));
            } else if i == 0 {
                let (id, ty) = self.infer(a);
                match self.out.expr(id) {
                    ir::Expr::GameRef(g) => game = Some(*g),
                    _ if ty == Ty::Error => {}
                    _ => self.errors.push(
                        Diag::user(
                            Code::TypeMismatch,
                            format!("`{name}` needs a game name first"),
                        )
                        .label(
                            a.span,
                            format!("this is {}", self.types.resolve(ty).describe()),
                        )
                        .help(format!("write e.g. `{name}(Kayles, 0..=20)`")),
                    ),
                }
                ids.push(id);
            } else {
                let (id, ty) = self.infer(a);
                if !matches!(self.types.resolve(ty), Ty::Range | Ty::List | Ty::Error) {
                    self.mismatch(a.span, Ty::Range, ty, "tables run over ranges or lists");
                }
                ids.push(id);
            }
        }
        self.table_axes(f, axes, args, span, (sectioned, game), &mut ids, sig_err);
        let call = ir::Expr::Call { f, play, args: ids };
        (self.push(call, span), Ty::Report)
    }

    /// A table query's axes against its game: one range per parameter (a
    /// section's free ones), two for `map`.
    #[allow(clippy::too_many_arguments)]
    fn table_axes(
        &mut self,
        f: Builtin,
        axes: Axes,
        args: &[ast::Expr],
        span: Span,
        (sectioned, game): (Option<usize>, Option<ir::GameId>),
        ids: &mut Vec<ExprId>,
        sig_err: &dyn Fn(&mut Checker),
    ) {
        let name = f.name();
        if axes.two && args.len() != 3 {
            sig_err(self);
        } else if axes.two
            && let Some(free @ 1) = sectioned
        {
            self.errors.push(
                Diag::user(
                    Code::WrongArity,
                    format!(
                        "`map` of a game with {} free: a map has two axes",
                        plural(free, "parameter")
                    ),
                )
                .label(args[0].span, "one `_` here")
                .help("leave two parameters free: `map(G(_, _, 2), 0..=10, 0..=10)`"),
            );
        } else if let Some(free) = sectioned
            && args.len() != 1 + free
        {
            let (ranges, example) = match free {
                1 => ("one range".to_string(), format!("{name}(G(_, 6), 0..=20)")),
                2 => (
                    "two ranges".to_string(),
                    format!("{name}(G(_, _, 2), 0..=10, 0..=10)"),
                ),
                n => (
                    format!("{n} ranges"),
                    format!("{name}(G(_, _, _), 0..=10, 0..=10, 0..=10)"),
                ),
            };
            self.errors.push(
                Diag::user(
                    Code::WrongArity,
                    format!(
                        "`{name}` of a game with {} free takes {ranges}",
                        plural(free, "parameter")
                    ),
                )
                .label(span, "here")
                .help(format!("write e.g. `{example}`")),
            );
        } else if let Some(g) = game {
            let arity = self.game_params[g.index()].len();
            if args.len() >= 2 && arity != args.len() - 1 {
                let gname = &self.out.games[g.index()].name;
                self.errors.push(
                    Diag::user(
                        Code::WrongArity,
                        format!(
                            "`{gname}` has {}, but `{name}` was given {}",
                            plural(arity, "parameter"),
                            plural(args.len() - 1, "range")
                        ),
                    )
                    .label(span, "here")
                    .help("give one range per parameter (up to 2; `ppositions` up to 4)"),
                );
            } else {
                if args.len() > 3 {
                    *ids = self.all_free(arity, ids, args[0].span);
                }
                for i in 0..arity {
                    let p = self.game_params[g.index()][i];
                    if !self.types.unify(p, Ty::Int) {
                        self.errors.push(
                            Diag::user(
                                Code::TypeMismatch,
                                format!("`{name}` needs integer parameters"),
                            )
                            .label(args[0].span, "this game has a non-integer parameter"),
                        );
                    }
                }
            }
        }
    }

    /// A query's game and axes (`[G, AXES...]`) written as the section with
    /// every parameter free (`G(_, _, _)`): more axes than a table's, read
    /// past the parameters' values as a section's are.
    fn all_free(&mut self, arity: usize, ids: &[ExprId], span: Span) -> Vec<ExprId> {
        let mask = self.push(ir::Expr::Int((1i64 << arity) - 1), span);
        let mut with = vec![ids[0], mask];
        for _ in 0..arity {
            with.push(self.push(ir::Expr::Int(0), span));
        }
        with.extend_from_slice(&ids[1..]);
        with
    }

    /// The arguments of `describe(G)` and `period(G[, budget])`.
    fn game_query_args(&mut self, f: Builtin, args: &[ast::Expr], periodic: bool) -> Vec<ExprId> {
        let name = f.name();
        let mut ids = Vec::new();
        for (i, a) in args.iter().enumerate() {
            if i > 0 {
                ids.push(self.check_ty(a, Ty::Int, "a budget is a number of positions"));
                continue;
            }
            if periodic && let Some((_, section)) = section_args(self, a, name, 1) {
                ids.extend(section);
                continue;
            }
            let (id, game) = self.game_arg(a, name);
            if periodic
                && let Some(g) = game
                && self.game_params[g.index()].len() == 1
                && !self.types.unify(self.game_params[g.index()][0], Ty::Int)
            {
                self.errors.push(
                    Diag::user(
                        Code::TypeMismatch,
                        format!("`{name}` needs a game whose parameter is an integer"),
                    )
                    .label(a.span, "this game's parameter is not an integer")
                    .help("periods are of value sequences G(0), G(1), ..."),
                );
            }
            if periodic
                && let Some(g) = game
                && self.game_params[g.index()].len() != 1
            {
                let gname = &self.out.games[g.index()].name;
                self.errors.push(
                    Diag::user(
                        Code::WrongArity,
                        format!(
                            "`{name}` needs a game of one parameter; `{gname}` has {}",
                            plural(self.game_params[g.index()].len(), "parameter")
                        ),
                    )
                    .label(a.span, "this game")
                    .help("periods are of value sequences G(0), G(1), ..."),
                );
            }
            ids.push(id);
        }
        ids
    }

    /// The arguments of `guess(G[, budget])`: a game of one to three
    /// integer parameters, or a section with one to three free, written as
    /// a section's (`[game, mask, values...]`), then the budget.
    fn guess_args(&mut self, args: &[ast::Expr], span: Span) -> Vec<ExprId> {
        let mut ids = Vec::new();
        let Some(first) = args.first() else {
            return ids;
        };
        if let Some((_, section)) = section_args(self, first, "guess", 3) {
            ids.extend(section);
        } else if let (id, Some(g)) = self.game_arg(first, "guess") {
            let params = self.game_params[g.index()].clone();
            if !(1..=3).contains(&params.len()) {
                let gname = &self.out.games[g.index()].name;
                self.errors.push(
                    Diag::user(
                        Code::WrongArity,
                        format!(
                            "`guess` needs a game of one to three parameters; `{gname}` has {}",
                            plural(params.len(), "parameter")
                        ),
                    )
                    .label(first.span, "this game")
                    .help("fix the others with a section: `guess(G(_, 6))`"),
                );
            } else if params.iter().any(|&p| !self.types.unify(p, Ty::Int)) {
                self.errors.push(
                    Diag::user(Code::TypeMismatch, "`guess` needs integer parameters")
                        .label(first.span, "this game's parameters are not all integers")
                        .help("a formula is of integers: G(0), G(1), ..."),
                );
            }
            ids = self.all_free(params.len(), &[id], span);
        } else {
            return ids;
        }
        if let Some(b) = args.get(1) {
            ids.push(self.check_ty(b, Ty::Int, "a budget is a number of formulas"));
        }
        ids
    }

    /// A query inside a rule is an error: values are computed from the
    /// rules. (A function may ask one; rules then may not call it.)
    fn query_here(&mut self, f: Builtin, name: &str, span: Span) {
        if (f.is_query() || f == Builtin::Describe) && self.ctx == Ctx::Rule {
            self.errors.push(
                Diag::user(
                    Code::QueryNotAllowed,
                    format!("`{name}` cannot be used inside a game's rules"),
                )
                .label(span, "needs Grundy values")
                .help("rules say which moves exist; values are computed from them"),
            );
        }
    }

    /// A call of a name that is no game, function or builtin function: a
    /// fold without its generator, or an unknown name.
    fn not_a_builtin(&mut self, name: &str, at: Span, args: &[ast::Expr], span: Span) {
        let generator =
            crate::builtin::lookup(name).is_some_and(|s| s.kind == crate::builtin::Kind::Generator);
        let d = if generator {
            Diag::user(Code::BadGenerator, format!("`{name}` takes a generator"))
                .label(span, "here")
                .help(format!("write `{name}(cond for x in ...)`"))
        } else {
            self.unknown(name, at, "unknown game or function")
        };
        self.errors.push(d);
        for a in args {
            self.infer(a);
        }
    }

    /// One argument of a builtin whose table entry gives its type.
    fn builtin_arg(&mut self, a: &ast::Expr, arg: Arg, why: &str) -> ExprId {
        match arg {
            Arg::Int => self.check_ty(a, Ty::Int, why),
            Arg::Str => self.check_ty(a, Ty::Str, why),
            Arg::List => self.check_ty(a, Ty::List, why),
            Arg::Seq => {
                let (id, ty) = match &a.kind {
                    ExprKind::Binary(BinOp::Add, l, r) => {
                        self.binary(BinOp::Add, l, r, a.span, true)
                    }
                    _ => self.infer(a),
                };
                if !matches!(
                    self.types.resolve(ty),
                    Ty::List | Ty::Str | Ty::Range | Ty::Dict | Ty::Var(_) | Ty::Error
                ) {
                    self.mismatch(a.span, Ty::List, ty, why);
                }
                id
            }
            Arg::Dict => self.check_ty(a, Ty::Dict, why),
            Arg::Key => {
                let (id, ty) = self.infer(a);
                if !matches!(
                    self.types.resolve(ty),
                    Ty::Int | Ty::Str | Ty::Var(_) | Ty::Error
                ) {
                    self.mismatch(a.span, Ty::Int, ty, why);
                }
                id
            }
            Arg::Pos => self.check_ty(a, Ty::Pos, why),
            Arg::Move => self.check_ty(a, Ty::Record(RecordKind::Move), why),
            Arg::Data => self.data(a),
            Arg::Value => {
                let (id, ty) = self.infer(a);
                if matches!(self.types.resolve(ty), Ty::Report) {
                    self.mismatch(a.span, Ty::Str, ty, why);
                }
                id
            }
        }
    }

    /// A builtin's first argument that must name a game.
    fn game_arg(&mut self, a: &ast::Expr, name: &str) -> (ExprId, Option<GameId>) {
        if let ExprKind::Name(n) = &a.kind
            && self.local(n).is_none()
        {
            match self.globals.get(n).copied() {
                Some(Defined::Game(g)) => {
                    return (self.push(ir::Expr::GameRef(g), a.span), Some(g));
                }
                None => {
                    let d = self.unknown(n, a.span, "unknown game");
                    self.errors.push(d);
                    return (self.push(ir::Expr::Int(0), a.span), None);
                }
                Some(Defined::Const(_) | Defined::Fun(_)) => {}
            }
        }
        let (id, ty) = self.infer(a);
        if ty != Ty::Error {
            self.errors.push(
                Diag::user(Code::TypeMismatch, format!("`{name}` needs a game name"))
                    .label(
                        a.span,
                        format!("this is {}", self.types.resolve(ty).describe()),
                    )
                    .help(format!("write e.g. `{name}(Kayles)`")),
            );
        }
        (id, None)
    }

    /// A call of a function of the program: its arguments against its
    /// parameters' types, its result type.
    fn call_fun(&mut self, fun: ir::FunId, args: &[ast::Expr], span: Span) -> (ExprId, Ty) {
        if self.ctx == Ctx::Rule && self.out.funs[fun.index()].asks.is_some() {
            let d = asking_chain(&self.out.funs, fun, span);
            self.errors.push(d);
        }
        let (params, ret) = self.fun_tys[fun.index()].clone();
        if params.len() != args.len() {
            let f = &self.out.funs[fun.index()];
            let (name, names, at) = (f.name.clone(), f.params.clone(), f.span);
            self.errors
                .push(arity_error("function", &name, &names, at, args.len(), span));
            for a in args {
                self.infer(a);
            }
            return (self.push(ir::Expr::Int(0), span), Ty::Error);
        }
        let mut ids = Vec::with_capacity(args.len());
        for (i, (a, p)) in args.iter().zip(params).enumerate() {
            let (id, ty) = self.infer(a);
            if !self.types.unify(ty, p) {
                let f = &self.out.funs[fun.index()];
                let note = format!(
                    "parameter `{}` of `{}` holds {}, as its other uses require",
                    f.params[i],
                    f.name,
                    self.types.resolve(p).describe()
                );
                self.mismatch(a.span, p, ty, &note);
            }
            ids.push(id);
        }
        (self.push(ir::Expr::CallFun { fun, args: ids }, span), ret)
    }

    fn apply(&mut self, game: GameId, args: &[ast::Expr], span: Span) -> (ExprId, Ty) {
        let params = self.game_params[game.index()].clone();
        let g = &self.out.games[game.index()];
        if params.len() != args.len() {
            let (name, names, at) = (g.name.clone(), g.params.clone(), g.header);
            self.errors
                .push(arity_error("game", &name, &names, at, args.len(), span));
            for a in args {
                self.infer(a);
            }
            return (self.push(ir::Expr::Int(0), span), Ty::Pos);
        }
        let mut ids = Vec::with_capacity(args.len());
        for (i, (a, p)) in args.iter().zip(params).enumerate() {
            let (id, ty) = self.infer(a);
            let open = matches!(self.types.resolve(p), Ty::Var(_));
            let unified = self.types.unify(ty, p);
            let origin = match p {
                Ty::Var(x) => {
                    if unified && open && !matches!(self.types.resolve(p), Ty::Var(_)) {
                        self.types.set_origin(x, a.span);
                    }
                    self.types.origin(x)
                }
                _ => None,
            };
            if !unified {
                let game = &self.out.games[game.index()];
                let param_note = match origin {
                    Some(_) => format!(
                        "no rule of `{}` fixes what parameter `{}` holds, so its first \
                         call decided: {}",
                        game.name,
                        game.params[i],
                        self.types.resolve(p).describe()
                    ),
                    None => format!(
                        "parameter `{}` of `{}` holds {}, as its uses in the rules require",
                        game.params[i],
                        game.name,
                        self.types.resolve(p).describe()
                    ),
                };
                let found = self.types.resolve(ty);
                let want = self.types.resolve(p);
                let msg = if matches!(want, Ty::Var(_)) {
                    format!(
                        "a game's arguments are integers, booleans or lists, not {}",
                        found.describe()
                    )
                } else {
                    format!("expected {}, found {}", want.describe(), found.describe())
                };
                let mut d = Diag::user(Code::TypeMismatch, msg)
                    .label(a.span, format!("this is {}", found.describe()));
                if let Some(at) = origin {
                    d = d.label(at, format!("this call passed {}", want.describe()));
                }
                self.errors.push(d.note(param_note));
            }
            ids.push(id);
        }
        (
            self.push(ir::Expr::Apply { game, args: ids }, span),
            Ty::Pos,
        )
    }
}

pub(super) fn given(n: usize) -> String {
    if n == 1 {
        "1 was".to_string()
    } else {
        format!("{n} were")
    }
}

pub(super) fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// A misspelled `misere` (read as `misere`, and reported).
fn misere_slip(errors: &mut Vec<Diag>, reported: &mut Reported, a: &ast::Expr, name: &str) {
    if let ExprKind::Name(n) = &a.kind
        && n != "misere"
    {
        let usage = match name {
            "table" | "ppositions" | "plot" => format!("`{name}(G, RANGE, misere)`"),
            _ => format!("`{name}(P, misere)`"),
        };
        reported.names.push((errors.len(), n.clone()));
        errors.push(
            Diag::user(Code::UnknownName, format!("unknown name `{n}`"))
                .label(a.span, "not defined")
                .help(format!("did you mean `misere`? ({usage}: misère play)")),
        );
    }
}

/// A call of a function or a game with the wrong number of arguments.
fn arity_error(
    what: &str,
    name: &str,
    params: &[String],
    defined: Span,
    given_args: usize,
    span: Span,
) -> Diag {
    let want = params.len();
    let params = params.join(", ");
    Diag::user(
        Code::WrongArity,
        format!(
            "{what} `{name}` takes {}, but {} given",
            plural(want, "argument"),
            given(given_args)
        ),
    )
    .label(
        span,
        format!("called with {}", plural(given_args, "argument")),
    )
    .label(defined, format!("`{name}({params})` is defined here"))
}

/// A rule calling a function that asks for values: the error, with the
/// chain of calls down to the function that asks.
fn asking_chain(funs: &[ir::Fun], fun: ir::FunId, span: Span) -> Diag {
    let mut chain = vec![fun];
    while let Some(next) = funs[chain.last().unwrap_or(&fun).index()].asks {
        if chain.contains(&next) {
            break;
        }
        chain.push(next);
    }
    let names: Vec<String> = chain
        .iter()
        .map(|&f| format!("`{}`", funs[f.index()].name))
        .collect();
    let last = &funs[chain.last().unwrap_or(&fun).index()];
    let mut d = Diag::user(
        Code::QueryNotAllowed,
        format!(
            "`{}` asks for values, and cannot be called from a game's rules",
            funs[fun.index()].name
        ),
    )
    .label(span, "called in a rule")
    .label(
        last.span,
        "asks a query here (or uses a constant that does)",
    );
    if chain.len() > 1 {
        d = d.note(format!("it calls {}", names.join(" -> ")));
    }
    d.help("rules say which moves exist, and values are computed from them: ask for values in `print`, `check`, a constant or a function called from them")
}

/// `G(_, 6)` in `period(G(_, 6))`: a game of several parameters with
/// all but those written `_` fixed (at most `most` of them), as the
/// arguments `G`, the free parameters as a mask (bit `i` for parameter
/// `i`), and each parameter's value (0 for the free ones'); with how many
/// are free. `None` where the argument is not written so.
fn section_args(
    c: &mut Checker,
    a: &ast::Expr,
    query: &str,
    most: usize,
) -> Option<(usize, Vec<ExprId>)> {
    let ExprKind::Call { callee, args } = &a.kind else {
        return None;
    };
    let Some(Defined::Game(g)) = c.globals.get(&callee.name).copied() else {
        return None;
    };
    let blank = |e: &ast::Expr| matches!(&e.kind, ExprKind::Name(n) if n == "_");
    let free = args.iter().filter(|e| blank(e)).count();
    // Every parameter free: a plain table, but for more axes than two.
    if args.len() < 2 || !(1..=most).contains(&free) || (free == args.len() && free <= 2) {
        return None;
    }
    if args.len() != c.game_params[g.index()].len() || args.len() > 62 {
        return None;
    }
    let mut out = vec![c.push(ir::Expr::GameRef(g), callee.span)];
    let mask = args
        .iter()
        .enumerate()
        .filter(|(_, e)| blank(e))
        .fold(0i64, |m, (i, _)| m | 1 << i);
    out.push(c.push(ir::Expr::Int(mask), a.span));
    for (i, e) in args.iter().enumerate() {
        let p = c.game_params[g.index()][i];
        if !c.types.unify(p, Ty::Int) {
            c.errors.push(
                Diag::user(
                    Code::TypeMismatch,
                    format!("`{query}` needs integer parameters"),
                )
                .label(e.span, "this game's parameter is not an integer")
                .help(format!(
                    "`{query}` of a game with one parameter free runs over G(0, k), G(1, k), ..."
                )),
            );
        }
        if blank(e) {
            out.push(c.push(ir::Expr::Int(0), e.span));
        } else {
            out.push(c.check_ty(e, Ty::Int, "a fixed parameter is an integer"));
        }
    }
    Some((free, out))
}
