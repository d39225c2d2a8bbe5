//! Byte spans: the one currency for source locations in every stage.

use std::fmt;

/// A half-open byte range `start..end` in one source text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Span {
    /// First byte.
    pub start: u32,
    /// One past the last byte.
    pub end: u32,
}

impl Span {
    /// A span from byte offsets (saturating at 4 GiB, far beyond any source).
    pub fn new(start: usize, end: usize) -> Span {
        Span {
            start: u32::try_from(start).unwrap_or(u32::MAX),
            end: u32::try_from(end).unwrap_or(u32::MAX),
        }
    }

    /// The smallest span covering both.
    pub fn to(self, other: Span) -> Span {
        Span {
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }

    /// As a `usize` range, for slicing the source.
    pub fn range(self) -> std::ops::Range<usize> {
        self.start as usize..self.end as usize
    }

    /// Length in bytes.
    pub fn len(self) -> usize {
        (self.end - self.start) as usize
    }

    /// Whether the span is empty.
    pub fn is_empty(self) -> bool {
        self.start == self.end
    }
}

impl fmt::Display for Span {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}..{}", self.start, self.end)
    }
}

/// Which source text a span refers to (an index into [`Sources`]).
pub type SourceId = u32;

/// One source text: a file, or one REPL entry.
#[derive(Clone, Debug)]
pub struct Source {
    /// The name shown in diagnostics (a path, or `<repl:3>`).
    pub name: String,
    /// The text.
    pub text: std::sync::Arc<str>,
}

/// Every source text a session has seen, addressed by [`SourceId`].
#[derive(Clone, Debug, Default)]
pub struct Sources {
    files: Vec<Source>,
}

impl Sources {
    /// Stores a text and returns its id.
    pub fn add(
        &mut self,
        name: impl Into<String>,
        text: impl Into<std::sync::Arc<str>>,
    ) -> SourceId {
        self.files.push(Source {
            name: name.into(),
            text: text.into(),
        });
        (self.files.len() - 1) as SourceId
    }

    /// The source with this id, if any.
    pub fn get(&self, id: SourceId) -> Option<&Source> {
        self.files.get(id as usize)
    }

    /// The text a span covers (empty if out of range).
    pub fn snippet(&self, id: SourceId, span: Span) -> &str {
        self.get(id)
            .and_then(|s| s.text.get(span.range()))
            .unwrap_or("")
    }
}
