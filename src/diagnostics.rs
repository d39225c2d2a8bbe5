//! Diagnostics: the plain error record every stage produces, and its rendering
//! as a miette report (the only module that knows miette).

use crate::span::{Sources, Span};
use std::fmt;

/// Who is at fault for an error.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Fault {
    /// The input is wrong: the user can fix it.
    User,
    /// grundy is wrong: a bug to report.
    Bug,
}

/// Every diagnostic code: stable names shown as `grundy::CODE` and in JSON.
macro_rules! codes {
    ($($variant:ident => $name:literal,)*) => {
        /// What kind of error a [`Diag`] is.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Code {
            $(
                #[doc = $name]
                $variant,
            )*
        }

        impl Code {
            /// The stable name, e.g. `state-limit`.
            pub fn as_str(self) -> &'static str {
                match self {
                    $(Code::$variant => $name,)*
                }
            }

            /// Every code.
            pub const ALL: &'static [Code] = &[$(Code::$variant,)*];
        }
    };
}

codes! {
    BadBoard => "bad-board",
    BadBudget => "bad-budget",
    BadCheckpoint => "bad-checkpoint",
    BadCommand => "bad-command",
    BadExponent => "bad-exponent",
    BadGenerator => "bad-generator",
    BadInput => "bad-input",
    BadLimit => "bad-limit",
    BadOctal => "bad-octal",
    BadString => "bad-string",
    NoInput => "no-input",
    BadLet => "bad-let",
    BadShift => "bad-shift",
    BadSubtractionSet => "bad-subtraction-set",
    BuiltinNotCalled => "builtin-not-called",
    CannotRead => "cannot-read",
    CannotWrite => "cannot-write",
    ConstantCycle => "constant-cycle",
    ConstantFailed => "constant-failed",
    Cycle => "cycle",
    DepthLimit => "depth-limit",
    DivisionByZero => "division-by-zero",
    DuplicateDefinition => "duplicate-definition",
    DuplicateParameter => "duplicate-parameter",
    EmptyMinMax => "empty-min-max",
    GameWithoutArguments => "game-without-arguments",
    GraphTooLarge => "graph-too-large",
    IndexOutOfRange => "index-out-of-range",
    Infinite => "infinite",
    Internal => "internal",
    Interrupted => "interrupted",
    ListLimit => "list-limit",
    MemoryLimit => "memory-limit",
    MissingKey => "missing-key",
    LiteralTooLarge => "literal-too-large",
    NegativePopcount => "negative-popcount",
    NegativeRoot => "negative-root",
    NotCallable => "not-callable",
    NotSupported => "not-supported",
    NotUtf8 => "not-utf8",
    Overflow => "overflow",
    QueryNotAllowed => "query-not-allowed",
    ShadowsBuiltin => "shadows-builtin",
    UnusedPrefer => "unused-prefer",
    Runaway => "runaway",
    StateLimit => "state-limit",
    Syntax => "syntax",
    TimeLimit => "time-limit",
    TooLarge => "too-large",
    TypeMismatch => "type-mismatch",
    UnknownName => "unknown-name",
    ValueLimit => "value-limit",
    WorkLimit => "work-limit",
    WrongArity => "wrong-arity",
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl serde::Serialize for Code {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// A labeled place in the source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Label {
    /// Where.
    pub span: Span,
    /// What to say there.
    pub text: String,
}

/// One error, as data: stages build these, front ends render them. Boxed,
/// so that `Result<T, Diag>` stays small on the evaluator's hot path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diag(Box<DiagData>);

/// The contents of a [`Diag`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DiagData {
    /// Whose fault it is.
    pub fault: Fault,
    /// A short stable code, e.g. `unknown-name`; shown as `grundy::unknown-name`.
    pub code: Code,
    /// The one-line message.
    pub message: String,
    /// Labeled spans; the first is the primary one.
    pub labels: Vec<Label>,
    /// How to fix it, when we know.
    pub help: Option<String>,
    /// Further facts (e.g. the position being evaluated, a cycle's path).
    pub notes: Vec<String>,
    /// A warning: reported, and nothing stops for it.
    pub warning: bool,
}

impl std::ops::Deref for Diag {
    type Target = DiagData;
    fn deref(&self) -> &DiagData {
        &self.0
    }
}

impl std::ops::DerefMut for Diag {
    fn deref_mut(&mut self) -> &mut DiagData {
        &mut self.0
    }
}

impl Diag {
    /// An error in the user's input.
    pub fn user(code: Code, message: impl Into<String>) -> Diag {
        Diag(Box::new(DiagData {
            fault: Fault::User,
            code,
            message: message.into(),
            labels: Vec::new(),
            help: None,
            notes: Vec::new(),
            warning: false,
        }))
    }

    /// A warning: the user's, but nothing stops for it.
    pub fn warning(code: Code, message: impl Into<String>) -> Diag {
        let mut d = Diag::user(code, message);
        d.warning = true;
        d
    }

    /// An internal error: a bug in grundy, never the user's fault.
    pub fn bug(message: impl Into<String>) -> Diag {
        let mut d = Diag::user(Code::Internal, message);
        d.fault = Fault::Bug;
        d
    }

    /// Adds a labeled span (the first one added is the primary label).
    pub fn label(mut self, span: Span, text: impl Into<String>) -> Diag {
        self.labels.push(Label {
            span,
            text: text.into(),
        });
        self
    }

    /// Sets the help text.
    pub fn help(mut self, text: impl Into<String>) -> Diag {
        self.help = Some(text.into());
        self
    }

    /// Adds a note.
    pub fn note(mut self, text: impl Into<String>) -> Diag {
        self.notes.push(text.into());
        self
    }

    /// The primary span, if any.
    pub fn primary(&self) -> Option<Span> {
        self.labels.first().map(|l| l.span)
    }
}

impl fmt::Display for Diag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// A diagnostic bound to its source text, in the shape miette renders.
struct Report<'a> {
    diag: &'a Diag,
    source: Option<miette::NamedSource<String>>,
    /// The labels in `source`, with local spans.
    labels: Vec<Label>,
    help: Option<String>,
}

impl fmt::Debug for Report<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.diag, f)
    }
}

impl fmt::Display for Report<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.diag.fault {
            Fault::User => f.write_str(&self.diag.message),
            Fault::Bug => write!(f, "internal error (a bug in grundy): {}", self.diag.message),
        }
    }
}

impl std::error::Error for Report<'_> {}

impl miette::Diagnostic for Report<'_> {
    fn code<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        Some(Box::new(format!("grundy::{}", self.diag.code)))
    }

    fn severity(&self) -> Option<miette::Severity> {
        Some(if self.diag.warning {
            miette::Severity::Warning
        } else {
            miette::Severity::Error
        })
    }

    fn help<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        self.help
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }

    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        self.source.as_ref().map(|s| s as &dyn miette::SourceCode)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = miette::LabeledSpan> + '_>> {
        self.source.as_ref()?;
        let labels = self.labels.iter().enumerate().map(|(i, l)| {
            let span = miette::SourceSpan::from(l.span.range());
            let text = (!l.text.is_empty()).then(|| l.text.clone());
            if i == 0 {
                miette::LabeledSpan::new_primary_with_span(text, span)
            } else {
                miette::LabeledSpan::new_with_span(text, span)
            }
        });
        Some(Box::new(labels))
    }
}

/// How to draw reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// Unicode and colors, for a terminal.
    Fancy,
    /// Unicode without colors: files, pipes and snapshot tests.
    Plain,
}

/// Renders a diagnostic as a miette report.
/// Spans are in the session's span space: the report shows the source of
/// the primary label, and labels in other sources become notes naming
/// where they point.
pub fn render(diag: &Diag, sources: &Sources, style: Style) -> String {
    let home = diag.primary().and_then(|p| sources.locate(p));
    let mut labels = Vec::new();
    let mut elsewhere = Vec::new();
    for l in &diag.labels {
        match (sources.locate(l.span), home) {
            (Some((id, _, local)), Some((home_id, _, _))) if id == home_id => labels.push(Label {
                span: local,
                text: l.text.clone(),
            }),
            (Some(_), _) => {
                let at = sources.position(l.span).unwrap_or_default();
                elsewhere.push(if l.text.is_empty() {
                    format!("see {at}")
                } else {
                    format!("{} ({at})", l.text)
                })
            }
            (None, _) => {}
        }
    }
    // miette shows whole lines (and cannot pad past 65535 columns): a label
    // on a very long line is given as a position instead.
    let home_src = home.map(|(_, s, _)| s);
    if let Some(src) = home_src
        && labels.iter().any(|l| on_long_line(&src.text, l.span))
    {
        for l in std::mem::take(&mut labels).into_iter().rev() {
            let (line, col) = src.line_col(l.span.start as usize);
            elsewhere.insert(0, format!("{} ({}:{line}:{col})", l.text, src.name));
        }
    }
    let source = home_src
        .filter(|_| !labels.is_empty())
        .map(|s| miette::NamedSource::new(s.name.clone(), s.text.to_string()));
    let report = Report {
        diag,
        source,
        labels,
        help: diag.help.clone(),
    };
    let theme = match style {
        Style::Fancy => miette::GraphicalTheme::unicode(),
        Style::Plain => miette::GraphicalTheme::unicode_nocolor(),
    };
    let handler = miette::GraphicalReportHandler::new_themed(theme)
        .with_links(false)
        .with_width(100);
    let mut out = String::new();
    if handler.render_report(&mut out, &report).is_err() {
        out = format!("error: {}\n", diag.message);
    }
    // miette has no notes; they follow the report, one per line.
    for n in elsewhere.iter().chain(&diag.notes) {
        out.push_str(&format!("  note: {n}\n"));
    }
    out
}

/// Lines longer than this are not quoted in reports.
const LONG_LINE: usize = 1000;

/// Whether a span starts or ends on a line longer than [`LONG_LINE`] bytes.
fn on_long_line(text: &str, span: Span) -> bool {
    let line_len = |at: usize| {
        let at = at.min(text.len());
        let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
        let end = text[at..].find('\n').map_or(text.len(), |i| at + i);
        end - start
    };
    !text.is_char_boundary((span.start as usize).min(text.len()))
        || !text.is_char_boundary((span.end as usize).min(text.len()))
        || line_len(span.start as usize) > LONG_LINE
        || line_len(span.end as usize) > LONG_LINE
}

/// A diagnostic as a JSON object: code, message, file, line and column.
pub fn to_json(d: &Diag, sources: &Sources) -> serde_json::Value {
    let at = d.primary().and_then(|span| sources.locate(span));
    let src = at.map(|(_, src, _)| src);
    let (line, column) = match at {
        Some((_, src, local)) => {
            let (line, col) = src.line_col(local.start as usize);
            (Some(line), Some(col))
        }
        None => (None, None),
    };
    serde_json::json!({
        "kind": if d.warning { "warning" } else { "error" },
        "fault": d.fault,
        "code": d.code,
        "message": d.message,
        "file": src.map(|s| s.name.clone()),
        "line": line,
        "column": column,
        "help": d.help,
        "notes": d.notes,
    })
}

/// Finds the known name closest to `name`, for "did you mean" help.
pub fn did_you_mean<'a>(name: &str, known: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    // One- and two-letter names are all close to each other: suggest only a
    // different capitalization for them.
    let len = name.chars().count();
    let limit = if len <= 2 { 0 } else { (len / 3).max(1) };
    known
        .into_iter()
        .filter(|k| *k != name)
        .map(|k| (edit_distance(&name.to_lowercase(), &k.to_lowercase()), k))
        .filter(|(d, _)| *d <= limit)
        // On a tie, the first in alphabetical order: the same answer
        // whatever order the names come in (a hash map's varies by run).
        .min_by_key(|&(d, k)| (d, k))
        .map(|(_, k)| k)
}

/// Edit distance counting a swap of two adjacent letters as one edit.
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = best;
        }
    }
    d[a.len()][b.len()]
}

#[cfg(test)]
mod tests {
    use super::did_you_mean;

    /// Two names equally close: the same one is suggested whatever order
    /// they come in (a hash map's order changes from run to run).
    #[test]
    fn a_tie_is_broken_the_same_way_in_any_order() {
        let names = ["Kayles", "Dawson", "Cayles", "Kaylet"];
        let mut orders = vec![names.to_vec()];
        orders.push(names.iter().rev().copied().collect());
        orders.push(vec![names[2], names[0], names[3], names[1]]);
        for order in orders {
            assert_eq!(did_you_mean("Kaylez", order), Some("Kayles"));
        }
        // Distance first: `Kaylet` is one edit from `Kaylett`, `Kayles` two.
        assert_eq!(did_you_mean("Kaylett", names), Some("Kaylet"));
    }
}
