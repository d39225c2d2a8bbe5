//! Where answers that are files go (`graph` with `--out`, every `plot`):
//! one file per answer. `--out DIR` (an existing directory, or a path
//! ending in `/`) holds `plot-1.svg`, `graph-1.dot`, ... numbered per kind;
//! `--out FILE` is the first file, and later ones are numbered, each with
//! its kind's extension (`g.dot`, `g-2.dot`, `g-3.svg`); with no `--out`,
//! plots go to `plot-1.svg`, ... in the current directory.

use crate::answer::Answer;
use crate::diagnostics::{Code, Diag};
use std::path::{Path, PathBuf};

/// Names and writes the files of one run (or one REPL session).
#[derive(Debug, Default)]
pub struct Files {
    out: Option<PathBuf>,
    /// How many files have been written, in all and per kind.
    written: usize,
    per_kind: Vec<(String, usize)>,
}

impl Files {
    /// Files for `--out PATH` (or none).
    pub fn new(out: Option<PathBuf>) -> Files {
        Files {
            out,
            ..Files::default()
        }
    }

    /// Whether `--out` was given.
    pub fn has_out(&self) -> bool {
        self.out.is_some()
    }

    /// The next file's name for a `kind` (`plot`, `graph`) with extension
    /// `ext`, counted as used.
    fn next(&mut self, kind: &str, ext: &str) -> PathBuf {
        let k = match self.per_kind.iter_mut().find(|(n, _)| n == kind) {
            Some((_, k)) => {
                *k += 1;
                *k
            }
            None => {
                self.per_kind.push((kind.to_string(), 1));
                1
            }
        };
        self.written += 1;
        let numbered = |dir: &Path| dir.join(format!("{kind}-{k}.{ext}"));
        match &self.out {
            None => numbered(Path::new("")),
            Some(p) if p.is_dir() || p.to_string_lossy().ends_with('/') => numbered(p),
            Some(p) if self.written == 1 => p.clone(),
            Some(p) => {
                let stem = p.file_stem().map(|s| s.to_string_lossy().into_owned());
                let n = self.written;
                p.with_file_name(format!("{}-{n}.{ext}", stem.unwrap_or_default()))
            }
        }
    }

    /// Writes one answer's file; its path as shown to users.
    pub fn write(
        &mut self,
        kind: &str,
        ext: &str,
        bytes: &[u8],
    ) -> Result<String, (String, std::io::Error)> {
        let path = self.next(kind, ext);
        let shown = path.display().to_string();
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| (shown.clone(), e))?;
        }
        std::fs::write(&path, bytes).map_err(|e| (shown.clone(), e))?;
        Ok(shown)
    }
}

impl Files {
    /// Writes an answer that is a file (a plot; a graph when `--out` was
    /// given) and records where in it; other answers are left as they are.
    pub fn place(&mut self, a: &mut Answer) -> Result<(), (String, std::io::Error)> {
        match a {
            Answer::Plot { svg, file, .. } => {
                *file = Some(self.write("plot", "svg", svg.as_bytes())?);
            }
            Answer::Graph { dot, file, .. } if self.has_out() => {
                *file = Some(self.write("graph", "dot", dot.as_bytes())?);
            }
            _ => {}
        }
        Ok(())
    }
}

/// The report of a file that cannot be written.
pub fn cannot_write(path: &str, e: &std::io::Error) -> Diag {
    Diag::user(Code::CannotWrite, format!("cannot write {path}: {e}"))
        .help("check that the directory exists and can be written (`--out FILE|DIR`)")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_numbered_per_kind_in_a_directory_and_in_order_after_a_file() {
        let mut f = Files::new(None);
        assert_eq!(f.next("plot", "svg"), PathBuf::from("plot-1.svg"));
        assert_eq!(f.next("plot", "svg"), PathBuf::from("plot-2.svg"));
        assert_eq!(f.next("graph", "dot"), PathBuf::from("graph-1.dot"));
        let mut f = Files::new(Some(PathBuf::from("pics/")));
        assert_eq!(f.next("graph", "dot"), PathBuf::from("pics/graph-1.dot"));
        assert_eq!(f.next("plot", "svg"), PathBuf::from("pics/plot-1.svg"));
        let mut f = Files::new(Some(PathBuf::from("out/g.dot")));
        assert_eq!(f.next("graph", "dot"), PathBuf::from("out/g.dot"));
        assert_eq!(f.next("graph", "dot"), PathBuf::from("out/g-2.dot"));
        assert_eq!(f.next("plot", "svg"), PathBuf::from("out/g-3.svg"));
    }
}
