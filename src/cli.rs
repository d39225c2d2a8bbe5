//! The command line: argument parsing, reading files, printing answers and
//! reports, exit codes.

use crate::answer::json_line;
use crate::diagnostics::{self, Diag, Style};
use crate::eval::Limits;
use crate::session::{Event, Session, Summary};
use clap::{Parser, Subcommand, ValueEnum};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;

/// grundy: write the rules of an impartial game, get Grundy values, winners,
/// winning moves and tables.
///
/// Exit codes: 0 success, 1 a `check` statement failed, 2 errors in the input,
/// 130 stopped by Ctrl-C.
#[derive(Parser, Debug)]
#[command(name = "grundy", version, subcommand_precedence_over_arg = true)]
#[command(
    after_help = "Examples:\n  grundy examples/kayles.game          run a file's statements\n  grundy check examples/kayles.game    only parse and check it\n  grundy --json examples/nim.game      one JSON object per answer\n  grundy --out pics/ plots.game        write plot(...) (SVG) and graph(...) (DOT) answers into pics/
  grundy repl examples/kayles.game     load a file, then explore interactively\n  grundy                               the REPL (a script when input is piped)"
)]
pub struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// A .game file to run (same as `grundy run FILE`).
    file: Option<PathBuf>,
    #[command(flatten)]
    opts: Opts,
}

/// Options shared by every command.
#[derive(clap::Args, Debug, Clone)]
pub struct Opts {
    /// Print one JSON object per answer (and per error) on standard output.
    #[arg(long, global = true)]
    json: bool,
    /// Checks that hold print nothing, and a failed check is reported on
    /// standard error: standard output holds only what the file prints (a
    /// judge's answer). A failed check still exits with 1.
    #[arg(long, global = true)]
    quiet_checks: bool,
    /// The limits of each statement.
    #[command(flatten)]
    limits: LimitOpts,
    /// Where answers that are files go, one file each: `plot(...)` (SVG;
    /// without --out, plot-1.svg, ... here) and `graph(...)` (DOT; without
    /// --out, printed). A directory (existing, or ending in /) gets
    /// plot-1.svg, graph-1.dot, ...; a file name is the first file's with
    /// its extension, the others numbered: g.dot, g-2.dot, g-3.svg. A
    /// device (/dev/null) takes every file; `-` is standard output.
    #[arg(long, global = true, value_name = "FILE|DIR")]
    out: Option<PathBuf>,
    /// Plain evaluation: every rule in the general evaluator, no compiled
    /// fast paths and no bottom-up filling (slower; for checking them).
    #[arg(long, global = true)]
    no_kernels: bool,
    /// Bind (or replace) a constant: `--let 'heaps=[4, 7, 9]'`, the value
    /// in the language's own syntax; may be given several times.
    #[arg(long = "let", global = true, value_name = "NAME=EXPR")]
    lets: Vec<String>,
    /// Save the proven values to FILE while the run goes on and when it
    /// ends (Ctrl-C, an error or a limit included); the same command run
    /// again goes on from them. A file that is not a whole checkpoint of
    /// the same program (and input) is refused, and nothing runs.
    #[arg(long, global = true, value_name = "FILE")]
    checkpoint: Option<PathBuf>,
    /// How often a run with --checkpoint saves, in seconds (a save that
    /// took long waits ten times as long before the next).
    #[arg(long, global = true, value_name = "SECONDS", default_value_t = 60.0)]
    checkpoint_every: f64,
    /// When to color error reports.
    #[arg(long, global = true, value_enum, default_value_t = ColorChoice::Auto)]
    color: ColorChoice,
}

/// The limits: what a run or a statement may spend.
#[derive(clap::Args, Debug, Clone)]
struct LimitOpts {
    /// Stop with an error after this many distinct positions.
    #[arg(long, global = true, value_name = "N", default_value_t = Limits::default().max_states)]
    max_states: usize,
    /// Stop with an error when a list or range would hold more elements.
    #[arg(long, global = true, value_name = "N", default_value_t = Limits::default().max_list)]
    max_list: usize,
    /// Stop with an error when the search holds more positions at once.
    #[arg(long, global = true, value_name = "N", default_value_t = Limits::default().max_depth)]
    max_depth: usize,
    /// Most values a period search computes (for `period(G)` and for
    /// large positions of one-parameter games); 0 turns the searches off.
    #[arg(long, global = true, value_name = "N", default_value_t = Limits::default().period_budget)]
    period_budget: i64,
    /// Most moves and loop values one statement may examine; 0: no limit.
    #[arg(long, global = true, value_name = "N", default_value_t = Limits::default().max_work)]
    max_work: u64,
    /// Most seconds one statement may run (no limit unless given).
    #[arg(long, global = true, value_name = "SECONDS")]
    time_limit: Option<f64>,
    /// Stop a statement whose work is projected to take longer than this
    /// many seconds (0: never).
    #[arg(long, global = true, value_name = "SECONDS", default_value_t = crate::budget::DEFAULT_RUNAWAY.as_secs_f64())]
    runaway: f64,
    /// Most memory in use, e.g. 512M or 8G (a plain number is in MB); 0: no
    /// limit.
    #[arg(long, global = true, value_name = "SIZE", default_value = "2G", value_parser = parse_size)]
    max_memory: usize,
    /// Threads that solve boards side by side (the parts of a sum that are
    /// positions of games that `split`); default: the machine's cores. 1:
    /// one thread.
    #[arg(long, global = true, value_name = "N")]
    threads: Option<usize>,
}

/// When to use colors.
#[derive(ValueEnum, Clone, Copy, Debug)]
enum ColorChoice {
    /// Colors when standard error is a terminal.
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Run a file's statements in order (the default).
    Run {
        /// The .game file.
        file: PathBuf,
    },
    /// Only parse and check a file; report every error, run nothing.
    Check {
        /// The .game file.
        file: PathBuf,
    },
    /// An interactive session (`:help` inside); with piped input, runs it
    /// as a script without prompts.
    Repl {
        /// Files to load first.
        files: Vec<PathBuf>,
    },
    /// A Language Server Protocol server on standard input and output, for
    /// editors (docs/editors.md): diagnostics, hover, completion,
    /// definitions, references, outline, rename.
    Lsp,
}

/// A memory size: a number of MB, or a number with K, M, G or T.
fn parse_size(text: &str) -> Result<usize, String> {
    let t = text
        .trim()
        .trim_end_matches(['B', 'b'])
        .trim_end_matches('i');
    let (digits, shift) = match t.char_indices().last() {
        Some((i, c)) if c.is_ascii_alphabetic() => {
            let shift = match c.to_ascii_uppercase() {
                'K' => 10,
                'M' => 20,
                'G' => 30,
                'T' => 40,
                _ => return Err(format!("unknown unit `{c}`: write e.g. 512M or 8G")),
            };
            (&t[..i], shift)
        }
        _ => (t, 20),
    };
    let n: f64 = digits
        .trim()
        .parse()
        .map_err(|_| format!("`{text}` is not a size: write e.g. 512M or 8G"))?;
    if !(n.is_finite() && n >= 0.0) {
        return Err(format!("`{text}` is not a size: write e.g. 512M or 8G"));
    }
    Ok((n * (1u64 << shift) as f64).min(usize::MAX as f64) as usize)
}

/// Parses the process arguments and runs; returns the exit code.
pub fn main() -> i32 {
    let cli = Cli::parse();
    let (file, check_only) = match cli.command {
        Some(Command::Run { file }) => (file, false),
        Some(Command::Check { file }) => (file, true),
        Some(Command::Repl { files }) => return repl(&files, &cli.opts),
        Some(Command::Lsp) => return crate::lsp::main(),
        None => match cli.file {
            Some(file) => (file, false),
            None => return repl(&[], &cli.opts),
        },
    };
    run_file(&file, check_only, &cli.opts)
}

fn repl(files: &[PathBuf], opts: &Opts) -> i32 {
    if opts.checkpoint.is_some() {
        stderr(
            "error: `--checkpoint` is for running a file: `grundy --checkpoint FILE game.game`\n",
        );
        return 2;
    }
    crate::repl::line::run(
        files,
        &opts.lets,
        opts.limits(),
        opts.style(),
        opts.json,
        opts.out.clone(),
    )
}

impl Opts {
    fn limits(&self) -> Limits {
        let l = &self.limits;
        Limits {
            max_states: l.max_states,
            max_list: l.max_list,
            max_depth: l.max_depth,
            kernels: !self.no_kernels,
            fill: !self.no_kernels,
            compiled: true,
            period_budget: l.period_budget,
            max_work: l.max_work,
            time_limit: l
                .time_limit
                .filter(|s| s.is_finite() && *s > 0.0)
                .map(|s| std::time::Duration::from_secs_f64(s.min(1e9))),
            runaway: Some(l.runaway)
                .filter(|s| s.is_finite() && *s > 0.0)
                .map(|s| std::time::Duration::from_secs_f64(s.min(1e12))),
            max_memory: l.max_memory,
            threads: l
                .threads
                .unwrap_or_else(|| {
                    std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
                })
                .max(1),
        }
    }

    fn style(&self) -> Style {
        match self.color {
            ColorChoice::Always => Style::Fancy,
            ColorChoice::Never => Style::Plain,
            ColorChoice::Auto if std::io::stderr().is_terminal() => Style::Fancy,
            ColorChoice::Auto => Style::Plain,
        }
    }
}

/// Reports an error that belongs to no statement (a file that cannot be
/// read or written): rendered, and as a JSON object under `--json`.
fn report(session: &Session, d: &Diag, opts: &Opts) {
    if opts.json {
        let _ = writeln!(
            std::io::stdout(),
            "{}",
            json_line(diagnostics::to_json(d, session.sources()))
        );
    }
    stderr(&diagnostics::render(d, session.sources(), opts.style()));
}

/// Writes to standard error; a closed standard error is no reason to stop.
fn stderr(text: &str) {
    let _ = std::io::stderr().write_all(text.as_bytes());
}

use crate::files::cannot_write;
use crate::output::Stdout;

fn run_file(file: &std::path::Path, check_only: bool, opts: &Opts) -> i32 {
    let style = opts.style();
    let mut session = Session::new(opts.limits());
    session.set_input(crate::input::Input::stdin());
    for arg in &opts.lets {
        if let Err(diags) = session.add_let(arg) {
            for d in &diags {
                report(&session, d, opts);
            }
            return 2;
        }
    }
    if let Some(path) = &opts.checkpoint {
        let every = opts.checkpoint_every;
        if !(every.is_finite() && every > 0.0) {
            stderr(&format!(
                "error: `--checkpoint-every {every}`: give a number of seconds above 0\n"
            ));
            return 2;
        }
        let every = std::time::Duration::from_secs_f64(every.min(1e9));
        session.set_checkpoint(path.clone(), every);
    }
    let name = file.display().to_string();
    let text = match session.read_file(&name) {
        Ok(t) => t,
        Err(d) => {
            report(&session, &d, opts);
            return 2;
        }
    };
    let json = opts.json;
    // Plots, and graphs under --out, go to files: one per answer.
    let mut printer = crate::printer::Printer {
        style,
        json,
        quiet_checks: opts.quiet_checks,
        files: crate::files::Files::new(opts.out.clone()),
        text: String::new(),
    };
    // A failed write (a full disk, a closed pipe) fails the run. Failures
    // of standard output are reported at the end, on standard error.
    let mut out_failed = false;
    let mut out = Stdout::new();
    // A progress line for long statements, on a terminal only.
    let display = (!json && std::io::stderr().is_terminal())
        .then(|| crate::progress::Display::start(session.progress()));
    // Ctrl-C ends the statement running, which reports it (clearing the
    // progress line), and the run; a second press before that ends the
    // process at once.
    let flag = session.cancel_flag();
    let _ = ctrlc::set_handler(move || {
        if flag.swap(true, std::sync::atomic::Ordering::Relaxed) {
            std::process::exit(INTERRUPTED);
        }
    });
    let mut print = |s: &Session, e: Event| {
        if let Some(d) = &display {
            d.clear();
        }
        match e {
            Event::Answer(a) => out_failed |= !printer.answer(s.sources(), a, &mut out),
            Event::Error(d) | Event::Interrupted(d) => printer.error(s.sources(), &d, &mut out),
            Event::Note(note) => {
                out.flush();
                stderr(&format!("{note}\n"));
            }
        }
        // On a terminal each answer shows at once; into a file or a pipe
        // (a judge's million lines), output goes in large writes.
        if out.terminal {
            out.flush();
        }
    };
    let summary = if check_only {
        match session.check(&name, &text) {
            Ok((_, warnings)) => {
                for w in warnings {
                    print(&session, Event::Error(w));
                }
                if !json {
                    stderr(&format!("{name}: ok\n"));
                }
                Summary::default()
            }
            Err(diags) => {
                let errors = diags.len();
                for d in diags {
                    print(&session, Event::Error(d));
                }
                Summary {
                    errors,
                    ..Summary::default()
                }
            }
        }
    } else {
        session.run(&name, &text, &mut print)
    };
    // The checkpoint is saved at the end, however the run ended; a run
    // that did not finish says where it can go on from.
    match session.save_checkpoint() {
        Some(Ok((n, path))) if summary.interrupted || summary.errors > 0 => {
            out.flush();
            stderr(&format!(
                "saved {} positions in the checkpoint {}: the same command goes on from them\n",
                crate::progress::grouped(n as u64),
                path.display()
            ));
        }
        Some(Err(d)) => {
            out.flush();
            report(&session, &d, opts);
            out_failed = true;
        }
        Some(Ok(_)) | None => {}
    }
    // A reader that stopped early (`| head`) needs no report.
    let stdout_error = out.finish();
    if let Some(e) = stdout_error
        .as_ref()
        .filter(|e| e.kind() != std::io::ErrorKind::BrokenPipe)
    {
        let d = cannot_write("standard output", e);
        stderr(&diagnostics::render(&d, session.sources(), style));
    }
    if out_failed || stdout_error.is_some() {
        return 2;
    }
    if summary.interrupted {
        return INTERRUPTED;
    }
    summary.exit_code()
}

/// Standard output for a file's run (`crate::output`): the first failed
/// write is kept, to be reported at the end (and to fail the run); reports
/// on standard error come after what was printed before them.
impl crate::printer::Output for Stdout {
    fn flush(&mut self) {
        Stdout::flush(self);
    }
    fn out(&mut self, text: &str) {
        Stdout::out(self, text);
    }
    fn err(&mut self, text: &str) {
        self.flush();
        stderr(text);
    }
}

/// The exit code after Ctrl-C, as shells give a process that SIGINT ended.
const INTERRUPTED: i32 = 130;
