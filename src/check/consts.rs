//! Constants: their dependency order, and cycles among them reported with
//! their path.

use super::*;

impl Checker {
    /// Checks constants in dependency order, reporting cycles among them.
    pub(super) fn check_consts(&mut self, program: &ast::Program) {
        let lets: Vec<&ast::LetDef> = program
            .items
            .iter()
            .filter_map(|i| match i {
                Item::Let(l) => Some(l),
                _ => None,
            })
            .filter(|l| matches!(self.globals.get(&l.name.name), Some(Global::Const(_))))
            .collect();
        let id_of = |c: &Checker, name: &str| match c.globals.get(name) {
            Some(Global::Const(id)) => Some(*id as usize),
            _ => None,
        };
        // Dependencies: constants named anywhere in the body (shadowing by a
        // comprehension variable is rare and only adds an edge).
        let n = self.out.consts.len();
        let mut deps: Vec<Vec<usize>> = vec![Vec::new(); n];
        let mut def_of: Vec<Option<&ast::LetDef>> = vec![None; n];
        for l in &lets {
            let Some(me) = id_of(self, &l.name.name) else {
                continue;
            };
            def_of[me] = Some(l);
            let mut names = Vec::new();
            free_names(&l.value, &mut names);
            for name in names {
                if let Some(d) = id_of(self, &name) {
                    deps[me].push(d);
                }
            }
        }
        // Kahn's algorithm.
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
        // What is left depends on a cycle: report each cycle once, with its path.
        let mut reported = vec![false; n];
        for i in 0..n {
            if indegree[i] == 0 || reported[i] {
                continue;
            }
            let mut path = vec![i];
            let cycle = loop {
                let cur = path[path.len() - 1];
                let Some(&next) = deps[cur].iter().find(|&&d| indegree[d] > 0) else {
                    break Vec::new();
                };
                if let Some(at) = path.iter().position(|&p| p == next) {
                    break path[at..].to_vec();
                }
                path.push(next);
            };
            for &p in &path {
                reported[p] = true;
            }
            let defs: Vec<&ast::LetDef> = cycle.iter().filter_map(|&c| def_of[c]).collect();
            let Some(first) = defs.first() else { continue };
            let mut names: Vec<String> =
                defs.iter().map(|l| format!("`{}`", l.name.name)).collect();
            let message = if defs.len() == 1 {
                format!("constant {} is defined in terms of itself", names[0])
            } else {
                format!(
                    "constants {} are defined in terms of each other",
                    names.join(", ")
                )
            };
            names.push(names[0].clone());
            let mut d = Diag::user(Code::ConstantCycle, message)
                .label(first.name.span, "this constant depends on itself");
            for l in &defs[1..] {
                d = d.label(l.name.span, "part of the cycle");
            }
            self.errors.push(
                d.note(format!("cycle: {}", names.join(" -> ")))
                    .help("constants are evaluated once, before anything else; break the cycle"),
            );
        }
        for i in order {
            let Some(l) = def_of[i] else { continue };
            self.begin_frame(Ctx::Const);
            let start = self.out.exprs.len();
            let (e, ty) = self.infer(&l.value);
            self.out.consts[i].uses = self.uses_since(start);
            if ty == Ty::Report {
                self.errors.push(report_misuse(l.value.span));
            }
            self.const_tys[i] = ty;
            self.out.consts[i].expr = e;
            self.out.consts[i].slots = self.max_slot;
            self.out.const_order.push(i as u32);
        }
    }
}
