//! Boards solved side by side: the unknown parts of a sum whose games
//! `split` (boards, where one position is a long search of its own), each
//! on a machine of its own in a thread of its own, built from the same
//! program and constants. (Not a table's cells: they share most of their
//! sub-boards, which one machine keeps and a machine per thread solves
//! again; a table of every 4 × 4 Cram board took twice as long.) A worker's value is
//! stored by the caller; whatever a worker does not finish (an error, a
//! limit, an ∞ value) is left to the caller's own search, which then
//! reports it as it would have alone. So answers are the same with any
//! number of threads; limits are each thread's own.

use super::*;
use crate::value::Gsg;
use std::sync::atomic::{AtomicUsize, Ordering};

/// A constant's value as plain data, to hand to another thread. A value
/// that holds positions, records or ∞ belongs to its machine: a program
/// with such a constant is solved on one thread.
#[derive(Clone)]
enum Plain {
    Int(i64),
    Wide(crate::ops::Wide),
    Bool(bool),
    Str(String),
    List(Vec<Plain>),
    Range(i64, i64),
}

fn plain(v: &Value) -> Option<Plain> {
    Some(match v {
        Value::Int(x) => Plain::Int(*x),
        Value::Wide(x) => Plain::Wide((**x).clone()),
        Value::Bool(b) => Plain::Bool(*b),
        Value::Str(s) => Plain::Str(s.to_string()),
        Value::List(_) | Value::Ints(_) | Value::Bools(_) => Plain::List(
            v.elements()?
                .iter()
                .map(|x| plain(&x))
                .collect::<Option<_>>()?,
        ),
        Value::Range(a, b) => Plain::Range(*a, *b),
        Value::Pos(_) | Value::Record(_) | Value::Infinite(_) | Value::Dict(_) => return None,
    })
}

fn value(p: &Plain) -> Value {
    match p {
        Plain::Int(x) => Value::Int(*x),
        Plain::Wide(x) => Value::integer(x.clone()),
        Plain::Bool(b) => Value::Bool(*b),
        Plain::Str(s) => Value::Str(s.as_str().into()),
        Plain::List(xs) => Value::list(xs.iter().map(value).collect()),
        Plain::Range(a, b) => Value::Range(*a, *b),
    }
}

/// What a worker builds its machine from.
#[derive(Clone)]
struct Seed {
    prog: ir::Program,
    consts: Vec<Option<Plain>>,
    /// The caller's setup, but its Ctrl-C flag: the workers share one
    /// of their own.
    setup: Setup,
}

/// The most elements the constants may hold in all for boards to be
/// solved side by side (each worker copies them).
const MAX_COPIED: u64 = 1 << 16;

/// One board to solve: its id in the caller's store, and its game and
/// arguments, which name it in any store.
type Task = (PosId, GameId, Vec<i64>);

/// Solves the positions of `positions` that are boards, not known yet and
/// named by integer arguments, in up to `limits.threads` threads (this one
/// among them), and stores their values. Only from a statement, never
/// inside a search; nothing to do with fewer than two such positions.
/// Ctrl-C is passed on; any other stop is left to the caller's search.
pub fn solve_boards(m: &mut Machine, positions: &[PosId]) -> R<()> {
    if m.limits.threads < 2 || m.interp_state.searching > 0 {
        return Ok(());
    }
    let mut tasks: Vec<Task> = Vec::new();
    for &p in positions {
        let game = m.game_of(p);
        let board = m
            .prog
            .games
            .get(game.index())
            .is_some_and(|g| g.stored_as.split.is_some());
        if !board || m.store.value(p) <= MAX_VALUE || tasks.iter().any(|t| t.0 == p) {
            continue;
        }
        if let Some(args) = m.store.int_args(p) {
            tasks.push((p, game, args.as_slice().to_vec()));
        }
    }
    if tasks.len() < 2 {
        return Ok(());
    }
    // Each worker gets a copy of the constants: not of big ones.
    let size: u64 = m
        .consts
        .iter()
        .flatten()
        .map(|v| crate::value::extent(v).size)
        .sum();
    if size > MAX_COPIED {
        return Ok(());
    }
    let consts: Option<Vec<Option<Plain>>> = m
        .consts
        .iter()
        .map(|c| match c {
            Some(v) => plain(v).map(Some),
            None => Some(None),
        })
        .collect();
    let Some(consts) = consts else {
        return Ok(());
    };
    let seed = Seed {
        prog: (*m.prog).clone(),
        consts,
        setup: Setup {
            limits: m.limits.clone(),
            cancel: None,
            progress: None,
            report_values: m.interp_state.report_values,
            solvers: m.forms.plans.added.clone(),
        },
    };
    let (found, stopped) = side_by_side(m, seed, &tasks);
    for (i, v) in found {
        if let Some(&(p, _, _)) = tasks.get(i) {
            m.store.set(p, v);
        }
    }
    match stopped {
        Some(Stop::Interrupted) => Err(Stop::Interrupted),
        _ => Ok(()),
    }
}

/// The values the workers and this thread found, by task, and what
/// stopped this thread's own search if anything did.
fn side_by_side(m: &mut Machine, seed: Seed, tasks: &[Task]) -> (Vec<(usize, u32)>, Option<Stop>) {
    let next = AtomicUsize::new(0);
    // Set when this thread stops early (an error, Ctrl-C): the workers
    // stop too, and what they leave is this thread's to do.
    let halt = Arc::new(AtomicBool::new(false));
    let workers = m.limits.threads.min(tasks.len()) - 1;
    // Each worker holds a sender until it ends: the receiver hears of the
    // last one at once.
    let (ended, ends) = std::sync::mpsc::channel::<()>();
    std::thread::scope(|s| {
        // On as deep a stack as the engine's own thread (a worker that
        // cannot be started leaves its share to the others).
        let handles: Vec<_> = (0..workers)
            .filter_map(|_| {
                let (seed, next, halt) = (seed.clone(), &next, Arc::clone(&halt));
                let ended = ended.clone();
                std::thread::Builder::new()
                    .stack_size(crate::flow::ENGINE_STACK)
                    .spawn_scoped(s, move || {
                        let found = work(seed, tasks, next, halt);
                        drop(ended);
                        found
                    })
                    .ok()
            })
            .collect();
        drop(ended);
        let mut found = Vec::new();
        let mut stopped = None;
        while let Some(i) = take(&next, tasks.len()) {
            match m.gsg(tasks[i].0) {
                Ok(Gsg::Finite(v)) => found.push((i, v)),
                Ok(_) => {}
                Err(stop) => {
                    halt.store(true, Ordering::Relaxed);
                    stopped = Some(stop);
                    break;
                }
            }
        }
        // Ctrl-C reaches the workers through `halt`; the flag itself is
        // left for this thread's search, which reports it.
        let tick = std::time::Duration::from_millis(5);
        while let Err(std::sync::mpsc::RecvTimeoutError::Timeout) = ends.recv_timeout(tick) {
            if m.budget.cancel_pending() {
                halt.store(true, Ordering::Relaxed);
            }
        }
        for h in handles {
            // A worker that panicked found nothing: its tasks are redone.
            found.extend(h.join().unwrap_or_default());
        }
        (found, stopped)
    })
}

/// The next task's index, if any is left.
fn take(next: &AtomicUsize, n: usize) -> Option<usize> {
    let i = next.fetch_add(1, Ordering::Relaxed);
    (i < n).then_some(i)
}

/// A worker: its machine, and the values of the tasks it takes.
fn work(
    seed: Seed,
    tasks: &[Task],
    next: &AtomicUsize,
    halt: Arc<AtomicBool>,
) -> Vec<(usize, u32)> {
    let mut w = Machine::new(Setup {
        cancel: Some(Arc::clone(&halt)),
        ..seed.setup
    });
    install(&mut w, seed.prog, &[]);
    w.consts = seed.consts.iter().map(|c| c.as_ref().map(value)).collect();
    w.const_stopped = vec![false; w.consts.len()];
    compile_rules(&mut w);
    w.budget.start();
    let mut found = Vec::new();
    while !halt.load(Ordering::Relaxed) {
        let Some(i) = take(next, tasks.len()) else {
            break;
        };
        let (_, game, args) = &tasks[i];
        let Ok(p) = w.store.intern_ints(*game, args) else {
            break;
        };
        match w.gsg(p) {
            Ok(Gsg::Finite(v)) => found.push((i, v)),
            Ok(_) => {}
            // Stopped by `halt`, which its budget took: set again, for
            // the other workers.
            Err(Stop::Interrupted) => {
                halt.store(true, Ordering::Relaxed);
                break;
            }
            // Its own limit or an error: the caller's search meets it.
            Err(_) => break,
        }
    }
    found
}
