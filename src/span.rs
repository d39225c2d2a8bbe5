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
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SourceId(pub u32);

impl SourceId {
    /// Its place in [`Sources`].
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// One source text: a file, or one REPL entry.
#[derive(Clone, Debug)]
pub struct Source {
    /// The name shown in diagnostics (a path, or `<repl:3>`).
    pub name: String,
    /// The text.
    pub text: std::sync::Arc<str>,
    /// The offset of its first byte in the session's span space.
    pub base: u32,
}

impl Source {
    /// The 1-based line and column (in characters) of a local byte offset.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let before = self.text.get(..offset).unwrap_or(&self.text);
        let line = before.matches('\n').count() + 1;
        let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        (line, col)
    }
}

/// Every source text a session has seen. Sources are laid end to end in one
/// span space (each starts one byte after the previous one ends), so a
/// [`Span`] names its source by itself and items from several sources can be
/// checked and evaluated together. The first source starts at 0.
#[derive(Clone, Debug, Default)]
pub struct Sources {
    files: Vec<Source>,
}

impl Sources {
    /// Stores a text and returns its id; its spans start at `get(id).base`.
    pub fn add(
        &mut self,
        name: impl Into<String>,
        text: impl Into<std::sync::Arc<str>>,
    ) -> SourceId {
        let base = self.files.last().map_or(0, |s| {
            s.base.saturating_add(s.text.len() as u32).saturating_add(1)
        });
        self.files.push(Source {
            name: name.into(),
            text: text.into(),
            base,
        });
        SourceId((self.files.len() - 1) as u32)
    }

    /// Every source's text, in the order added.
    pub fn texts(&self) -> impl Iterator<Item = &str> {
        self.files.iter().map(|s| &*s.text)
    }

    /// The source with this id, if any.
    pub fn get(&self, id: SourceId) -> Option<&Source> {
        self.files.get(id.index())
    }

    /// The source a span starts in, and the span made local to it.
    pub fn locate(&self, span: Span) -> Option<(SourceId, &Source, Span)> {
        let i = self
            .files
            .partition_point(|s| s.base <= span.start)
            .checked_sub(1)?;
        let src = &self.files[i];
        let local = Span {
            start: span.start - src.base,
            end: span.end.saturating_sub(src.base).min(src.text.len() as u32),
        };
        Some((SourceId(i as u32), src, local))
    }

    /// The text a span covers (empty if it is not in one source).
    pub fn text(&self, span: Span) -> &str {
        self.locate(span)
            .and_then(|(_, src, local)| src.text.get(local.range()))
            .unwrap_or("")
    }

    /// `name:line:column` of a span's start, for messages.
    pub fn position(&self, span: Span) -> Option<String> {
        let (_, src, local) = self.locate(span)?;
        let (line, col) = src.line_col(local.start as usize);
        Some(format!("{}:{line}:{col}", src.name))
    }
}
