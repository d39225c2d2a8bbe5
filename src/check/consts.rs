//! Constants and functions: their dependency order, cycles through
//! constants reported with their path, and function bodies.

use super::*;

impl Checker {
    /// Checks constants and functions in dependency order, reporting
    /// cycles through constants. Functions may call each other in any way
    /// (recursion is theirs); a constant must not depend on itself, not even
    /// through functions, since constants are evaluated before anything runs.
    pub(super) fn check_lets(&mut self, program: &ast::Program) {
        let nc = self.out.consts.len();
        let n = nc + self.out.funs.len();
        // Nodes: constants first, then functions.
        let node_of = |c: &Checker, name: &str| match c.globals.get(name) {
            Some(Defined::Const(id)) => Some(id.index()),
            Some(Defined::Fun(id)) => Some(nc + id.index()),
            _ => None,
        };
        let mut def_of: Vec<Option<&ast::LetDef>> = vec![None; n];
        // Who asks for values: itself (`Some(me)`), or through what it names.
        let mut via: Vec<Option<usize>> = vec![None; n];
        let mut direct: Vec<Vec<usize>> = vec![Vec::new(); n];
        for item in &program.items {
            let Item::Let(l) = item else { continue };
            let Some(me) = node_of(self, &l.name.name) else {
                continue;
            };
            // The first definition of a name (a second is an error already).
            if def_of[me].is_some() {
                continue;
            }
            def_of[me] = Some(l);
            // The names free in the body (a local variable named like a
            // constant is no use of it).
            let mut names = Vec::new();
            free_names(&l.value, &mut names);
            let params = l.params.iter().flatten();
            // A query called in it (builtin names are not rebound).
            // (Not a parameter or a definition of the file hiding the builtin.)
            if names.iter().any(|n| {
                Builtin::by_name(n).is_some_and(|b| b.is_query() || b == Builtin::Describe)
                    && !params.clone().any(|p| p.name == *n)
                    && !self.globals.contains_key(n)
            }) {
                via[me] = Some(me);
            }
            for name in names {
                if params.clone().any(|p| p.name == name) {
                    continue;
                }
                if let Some(d) = node_of(self, &name) {
                    direct[me].push(d);
                }
            }
        }
        asking(&direct, &mut via);
        mark_funs(&direct, &via, nc, &mut self.out.funs);
        let deps = dependencies(&direct, nc);
        let (order, indegree) = topological(&deps);
        // What is left depends on a cycle: report each cycle once, with its path.
        // Functions are never in a cycle of their own (they need no
        // function); a cycle goes through constants, perhaps by way of
        // functions. Report each once, with its path.
        let mut in_cycle = vec![false; n];
        for i in 0..nc {
            if indegree[i] == 0 || in_cycle[i] {
                continue;
            }
            let mut path = vec![i];
            let cycle = loop {
                let cur = path[path.len() - 1];
                let Some(&next) = deps[cur].iter().find(|&&d| d < nc && indegree[d] > 0) else {
                    break Vec::new();
                };
                if let Some(at) = path.iter().position(|&p| p == next) {
                    break path[at..].to_vec();
                }
                path.push(next);
            };
            if cycle.is_empty() || cycle.iter().all(|&c| in_cycle[c]) {
                continue;
            }
            for &c in &cycle {
                in_cycle[c] = true;
            }
            let name = |k: usize| def_of[k].map_or(String::new(), |l| format!("`{}`", l.name.name));
            let Some(first) = def_of[cycle[0]] else {
                continue;
            };
            let message = if cycle.len() == 1 {
                format!("constant {} is defined in terms of itself", name(cycle[0]))
            } else {
                let names: Vec<String> = cycle.iter().map(|&c| name(c)).collect();
                format!(
                    "constants {} are defined in terms of each other",
                    names.join(", ")
                )
            };
            let mut d = Diag::user(Code::ConstantCycle, message)
                .label(first.name.span, "this constant depends on itself");
            for &c in &cycle[1..] {
                if let Some(l) = def_of[c] {
                    d = d.label(l.name.span, "part of the cycle");
                }
            }
            // The path, with the functions each step goes through.
            let mut steps = Vec::new();
            for (k, &c) in cycle.iter().enumerate() {
                steps.push(name(c));
                let next = cycle[(k + 1) % cycle.len()];
                if direct[c].contains(&next) {
                    continue;
                }
                for f in calls_to(&direct, nc, c, next) {
                    steps.push(name(f));
                    if let Some(l) = def_of[f] {
                        d = d.label(l.name.span, "a function on the way");
                    }
                }
            }
            steps.push(name(cycle[0]));
            self.errors.push(
                d.note(format!("cycle: {}", steps.join(" -> ")))
                    .help("constants are evaluated once, before anything else; break the cycle"),
            );
        }
        for i in order {
            let Some(l) = def_of[i] else { continue };
            if i >= nc {
                self.fun(i - nc, l);
                continue;
            }
            self.begin_frame(Ctx::Const);
            let start = self.out.exprs.len();
            let (e, ty) = self.infer(&l.value);
            self.out.consts[i].uses = self.out.uses_from(start);
            // A query, or a constant that needs values, anywhere in it.
            let needs_values = via[i].is_some()
                || (start..self.out.exprs.len()).any(|k| match &self.out.exprs[k] {
                    ir::Expr::Call { f, .. } => f.is_query() || *f == Builtin::Describe,
                    ir::Expr::Const(c) => self.const_tys[c.index()].1,
                    _ => false,
                });
            self.out.consts[i].needs_values = needs_values;
            self.const_tys[i] = (ty, needs_values);
            self.out.consts[i].expr = e;
            self.out.consts[i].slots = self.max_slot;
            self.out.const_order.push(ir::ConstId(i as u32));
        }
    }

    /// Checks a function's body, its parameters bound to slots 0, 1, ...
    fn fun(&mut self, f: usize, l: &ast::LetDef) {
        self.begin_frame(Ctx::Fun);
        let (tys, ret) = self.fun_tys[f].clone();
        let params = l.params.as_deref().unwrap_or(&[]);
        for (i, (p, ty)) in params.iter().zip(tys).enumerate() {
            if params[..i].iter().any(|q| q.name == p.name) {
                self.errors.push(
                    Diag::user(
                        Code::DuplicateParameter,
                        format!("parameter `{}` appears twice", p.name),
                    )
                    .label(p.span, "repeated here"),
                );
            }
            self.bind(&p.name, ty);
        }
        let start = self.out.exprs.len();
        let (e, ty) = self.infer(&l.value);
        if !self.types.unify(ty, ret) {
            let name = &l.name.name;
            self.mismatch(
                l.value.span,
                ret,
                ty,
                &format!(
                    "the calls of `{name}` use its result as {}",
                    self.types.resolve(ret).describe()
                ),
            );
        }
        let uses = self.out.uses_from(start);
        let fun = &mut self.out.funs[f];
        fun.body = e;
        fun.slots = self.max_slot;
        fun.uses = uses;
    }
}

/// The functions a constant `c` goes through to reach constant `next`: the
/// shortest chain of calls from `c`'s functions to one that names `next`.
fn calls_to(direct: &[Vec<usize>], nc: usize, c: usize, next: usize) -> Vec<usize> {
    let mut parent: Vec<Option<usize>> = vec![None; direct.len()];
    let mut queue: std::collections::VecDeque<usize> = std::collections::VecDeque::new();
    for &f in direct[c].iter().filter(|&&f| f >= nc) {
        if parent[f].is_none() {
            parent[f] = Some(f);
            queue.push_back(f);
        }
    }
    while let Some(f) = queue.pop_front() {
        if direct[f].contains(&next) {
            let mut chain = vec![f];
            let mut at = f;
            while let Some(p) = parent[at].filter(|&p| p != at) {
                chain.push(p);
                at = p;
            }
            chain.reverse();
            return chain;
        }
        for &g in direct[f].iter().filter(|&&g| g >= nc) {
            if parent[g].is_none() {
                parent[g] = Some(f);
                queue.push_back(g);
            }
        }
    }
    Vec::new()
}

/// What each constant and function must come after (constants first, then
/// functions, by node): a constant needs what it names and the constants its
/// functions reach through any chain of calls; a function needs the
/// constants it reaches, not other functions.
fn dependencies(direct: &[Vec<usize>], nc: usize) -> Vec<Vec<usize>> {
    let n = direct.len();
    // The constants each function reaches, through any chain of calls.
    let mut reach: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (f, out) in reach.iter_mut().enumerate().skip(nc) {
        let mut seen = vec![false; n];
        let mut work = vec![f];
        while let Some(x) = work.pop() {
            for &d in &direct[x] {
                if !seen[d] {
                    seen[d] = true;
                    if d < nc {
                        out.push(d);
                    } else {
                        work.push(d);
                    }
                }
            }
        }
    }
    // What must be checked (and, for constants, evaluated) first: a
    // constant needs what it names and the constants its functions
    // reach; a function needs the constants it reaches, not other
    // functions.
    let mut deps: Vec<Vec<usize>> = vec![Vec::new(); n];
    for me in 0..n {
        let mut ds: Vec<usize> = if me < nc {
            let mut ds = direct[me].clone();
            for &d in &direct[me] {
                if d >= nc {
                    ds.extend(&reach[d]);
                }
            }
            ds
        } else {
            reach[me].clone()
        };
        ds.sort_unstable();
        ds.dedup();
        deps[me] = ds;
    }
    deps
}

/// Each function's chain to a query it asks (`via`), and whether it is
/// memoized: a function that can call itself (through functions), whose
/// calls repeat; any other is evaluated afresh at each call. `direct`: the
/// names each node uses, constants first (`nc` of them), then functions.
fn mark_funs(direct: &[Vec<usize>], via: &[Option<usize>], nc: usize, funs: &mut [ir::Fun]) {
    for (f, fun) in funs.iter_mut().enumerate() {
        // Through a constant, or in its own body: the chain ends here.
        fun.asks = via[nc + f].map(|d| {
            if d >= nc {
                ir::FunId((d - nc) as u32)
            } else {
                ir::FunId(f as u32)
            }
        });
        let me = nc + f;
        let mut seen = vec![false; direct.len()];
        let mut stack: Vec<usize> = direct[me].iter().copied().filter(|&d| d >= nc).collect();
        while let Some(d) = stack.pop() {
            if d == me {
                fun.recursive = true;
                break;
            }
            if !std::mem::replace(&mut seen[d], true) {
                stack.extend(direct[d].iter().copied().filter(|&e| e >= nc));
            }
        }
        // Remembered as declared (`memo`, `memo(N)`), else when recursive.
        fun.memo = match fun.memo_limit {
            Some(n) => n > 0,
            None => fun.recursive,
        };
    }
}

/// Who asks for values, to a fixed point: a node that names one that asks
/// asks too, through it.
fn asking(direct: &[Vec<usize>], via: &mut [Option<usize>]) {
    loop {
        let mut changed = false;
        for (me, ds) in direct.iter().enumerate() {
            if via[me].is_none()
                && let Some(&d) = ds.iter().find(|&&d| via[d].is_some())
            {
                via[me] = Some(d);
                changed = true;
            }
        }
        if !changed {
            return;
        }
    }
}

/// Kahn's algorithm: the nodes in an order where each comes after what it
/// needs, and each node's count of needs not met (above 0: on or after a
/// cycle).
fn topological(deps: &[Vec<usize>]) -> (Vec<usize>, Vec<usize>) {
    let n = deps.len();
    let mut indegree = vec![0usize; n];
    let mut users: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (me, ds) in deps.iter().enumerate() {
        for &d in ds {
            indegree[me] += 1;
            users[d].push(me);
        }
    }
    let mut ready: Vec<usize> = (0..n).filter(|&i| indegree[i] == 0).rev().collect();
    let mut order = Vec::new();
    while let Some(i) = ready.pop() {
        order.push(i);
        for &u in &users[i] {
            indegree[u] -= 1;
            if indegree[u] == 0 {
                ready.push(u);
            }
        }
    }
    (order, indegree)
}
