//! grundy: a language and toolkit for impartial combinatorial games.
//!
//! The pipeline, one module per stage (see docs/ARCHITECTURE.md):
//!
//! ```text
//! text --syntax--> AST --check--> IR (ir::Program) --eval--> values --answer--> text / JSON
//! ```

/// Source spans and the table of source texts.
pub mod span;

/// Parsing: pest grammar glue and the AST.
pub mod syntax;

/// Integer semantics, written once for every evaluator.
pub mod ops;

/// Boards as bitmasks: components and canonical shapes on a grid.
pub mod board;

/// Name resolution, arity and type checking; lowering to the IR.
pub mod check;

/// The builtins in one table: names, arities, kinds, help.
pub mod builtin;

/// The flat, index-addressed program IR.
pub mod ir;

/// Ids of expressions, games, constants, functions and slots: newtypes,
/// below the IR.
pub mod ids;

/// Run-time values and position keys.
pub mod value;

/// The input `input_ints()` reads, read once when first asked.
pub mod input;

/// The keys of positions: arguments encoded for the store, and decoded.
pub mod key;

/// The store: positions interned into ids, and their values.
pub mod store;

/// Checkpoints: a long run's proven values saved to a file and read back.
pub mod checkpoint;

/// Integer expressions and conditions compiled for fast evaluation.
pub mod compiled;

/// Linear forms and value intervals of compiled expressions, shared by the
/// kernels and the shape analysis.
pub mod linear;

/// Mex sets: the option values seen at a position.
pub mod mex;

/// Formulas searched bottom-up by size: plain data, below the engine.
pub mod guess;
/// P-positions of translation games by marking: plain bits, below the engine.
pub mod marking;

/// Kernels: rules of common shapes compiled to tight loops.
pub mod kernel;

/// Sparse-space (rare/common) evaluation of take-and-break games.
pub mod sparse;

/// What solvers and analyses see of the engine: options, values, limits.
pub mod oracle;

/// The solvers: the engine's clients that find values, outcomes and
/// periods through the oracle (pruned search, loopy graphs, periods,
/// misère play, quotients), and the seam a new solver plugs into.
pub mod solve;

/// The evaluator: expressions, interning, memoized Grundy values.
pub mod eval;

/// The state graph of a position as Graphviz DOT.
pub mod graph;

/// Answers as data, rendered as text or JSON.
pub mod answer;

/// Pictures: value sequences and heat maps as SVG (plotters).
pub mod picture;

/// Files the front ends write answers to (`--out`): one per answer.
pub mod files;

/// Diagnostics as data, rendered by miette.
pub mod diagnostics;

/// Control flow of a computation: interrupted, aborted, or an error.
pub mod flow;

/// Memory in use, counted by the binary's allocator.
pub mod memory;

/// What one statement may spend: Ctrl-C, work, time and memory.
pub mod budget;

/// Progress of long work, and its display on a terminal.
pub mod progress;

/// The UI-agnostic session: source text in, answers and diagnostics out.
pub mod session;

/// Report queries shaped from what the engine computes: answers, values,
/// JSON.
pub mod report;

/// Statements, answered from the engine.
pub mod query;

/// How answers and diagnostics are printed, by the CLI and the REPL alike.
pub mod printer;

/// Standard output of a file's run: held and written out in large writes,
/// and at least every 50 ms by a thread of its own.
pub mod output;

/// The REPL: a UI-agnostic core and its rustyline front end.
pub mod repl;

/// `grundy lsp`: the language server for editors.
pub mod lsp;

/// The command line.
pub mod cli;
