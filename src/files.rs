//! Where answers that are files go (`graph` with `--out`, every `plot`):
//! one file per answer. `--out DIR` (an existing directory, or a path
//! ending in `/`) holds `plot-1.svg`, `graph-1.dot`, ... numbered per kind;
//! `--out FILE` is the first file with the same extension (or the first
//! file, if the name has none), and the others are numbered, each with its
//! kind's extension (`g.dot`, `g-2.dot`, `g-3.svg`); `--out` naming a
//! device (`/dev/null`, a pipe) or `-` (standard output) takes every file
//! as it is; with no `--out`, plots go to `plot-1.svg`, ... in the current
//! directory.

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
    /// Whether a file took the name `--out` gave.
    named: bool,
}

/// Where one file goes.
#[derive(Debug, PartialEq, Eq)]
enum Dest {
    Path(PathBuf),
    Stdout,
}

/// `-` and the names of standard output (`/dev/stdout`, `/dev/fd/1`).
fn is_stdout(p: &Path) -> bool {
    matches!(
        p.to_str(),
        Some("-" | "/dev/stdout" | "/dev/fd/1" | "/proc/self/fd/1")
    )
}

impl Files {
    /// Files for `--out PATH` (or none).
    pub fn new(out: Option<PathBuf>) -> Files {
        Files {
            out,
            ..Files::default()
        }
    }

    /// Whether files go to standard output (`--out -`, or one of its
    /// names: opened as a file, it would be truncated, and what was
    /// printed before it lost).
    pub fn to_stdout(&self) -> bool {
        self.out.as_deref().is_some_and(is_stdout)
    }

    /// Whether `--out` was given.
    pub fn has_out(&self) -> bool {
        self.out.is_some()
    }

    /// Where the next file of a `kind` (`plot`, `graph`) with extension
    /// `ext` goes, counted as used.
    fn next(&mut self, kind: &str, ext: &str) -> Dest {
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
        let numbered = |dir: &Path| Dest::Path(dir.join(format!("{kind}-{k}.{ext}")));
        let Some(p) = &self.out else {
            return numbered(Path::new(""));
        };
        if is_stdout(p) {
            return Dest::Stdout;
        }
        if p.is_dir() || p.to_string_lossy().ends_with('/') {
            return numbered(p);
        }
        // A device or a pipe takes every file as it is.
        if std::fs::metadata(p).is_ok_and(|m| !m.is_file() && !m.is_dir()) {
            return Dest::Path(p.clone());
        }
        let fits = p.extension().is_none_or(|e| e == ext);
        if !self.named && fits {
            self.named = true;
            return Dest::Path(p.clone());
        }
        let stem = p.file_stem().map(|s| s.to_string_lossy().into_owned());
        let n = self.written;
        Dest::Path(p.with_file_name(format!("{}-{n}.{ext}", stem.unwrap_or_default())))
    }

    /// Writes one answer's file; its path as shown to users.
    pub fn write(
        &mut self,
        kind: &str,
        ext: &str,
        bytes: &[u8],
    ) -> Result<String, (String, std::io::Error)> {
        let path = match self.next(kind, ext) {
            Dest::Path(path) => path,
            Dest::Stdout => {
                use std::io::Write;
                let shown = "standard output".to_string();
                let mut out = std::io::stdout().lock();
                out.write_all(bytes)
                    .and_then(|()| out.flush())
                    .map_err(|e| (shown.clone(), e))?;
                return Ok(shown);
            }
        };
        let shown = path.display().to_string();
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| (shown.clone(), e))?;
        }
        write_whole(&path, bytes).map_err(|e| (shown.clone(), e))?;
        Ok(shown)
    }
}

/// Writes a file whole or not at all: a regular file (or a new one) is
/// written beside it under another name and renamed into place, so that a
/// failed write (a full disk) leaves no partial file, and an existing file
/// stays as it was; a device (`/dev/null`) is written as it is.
fn write_whole(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    // A device, or a link (written through, as it was): as it is.
    let direct = std::fs::symlink_metadata(path).is_ok_and(|m| !m.is_file());
    let Some(name) = path.file_name().filter(|_| !direct) else {
        return std::fs::write(path, bytes);
    };
    let mut temp = std::ffi::OsString::from(".");
    temp.push(name);
    temp.push(format!(".{}.partial", std::process::id()));
    let temp = path.with_file_name(temp);
    let Ok(mut file) = std::fs::File::create(&temp) else {
        // No new file can be made beside it: the file itself, as before.
        return std::fs::write(path, bytes);
    };
    let written = std::io::Write::write_all(&mut file, bytes)
        .and_then(|()| file.sync_all())
        .and_then(|()| std::fs::rename(&temp, path));
    if written.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    written
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

    fn path(t: Dest) -> PathBuf {
        match t {
            Dest::Path(p) => p,
            Dest::Stdout => PathBuf::from("-"),
        }
    }

    #[test]
    fn a_file_is_written_whole_or_not_at_all() {
        let dir = std::env::temp_dir().join(format!("grundy-whole-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("plot.svg");
        std::fs::write(&file, "old").unwrap();
        write_whole(&file, b"new").unwrap();
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "new");
        // A write that fails (here: no room for the name beside it, a
        // file where its directory should be) leaves nothing behind, and
        // the file as it was.
        let blocked = dir.join("plot.svg").join("inner.svg");
        assert!(write_whole(&blocked, b"x").is_err());
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "new");
        let left: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(left, [std::ffi::OsString::from("plot.svg")]);
        // A device is written as it is.
        write_whole(Path::new("/dev/null"), b"x").unwrap();
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn names_are_numbered_per_kind_in_a_directory_and_in_order_after_a_file() {
        let mut f = Files::new(None);
        assert_eq!(path(f.next("plot", "svg")), PathBuf::from("plot-1.svg"));
        assert_eq!(path(f.next("plot", "svg")), PathBuf::from("plot-2.svg"));
        assert_eq!(path(f.next("graph", "dot")), PathBuf::from("graph-1.dot"));
        let mut f = Files::new(Some(PathBuf::from("pics/")));
        assert_eq!(
            path(f.next("graph", "dot")),
            PathBuf::from("pics/graph-1.dot")
        );
        assert_eq!(
            path(f.next("plot", "svg")),
            PathBuf::from("pics/plot-1.svg")
        );
        let mut f = Files::new(Some(PathBuf::from("out/g.dot")));
        assert_eq!(path(f.next("graph", "dot")), PathBuf::from("out/g.dot"));
        assert_eq!(path(f.next("graph", "dot")), PathBuf::from("out/g-2.dot"));
        assert_eq!(path(f.next("plot", "svg")), PathBuf::from("out/g-3.svg"));
    }

    #[test]
    fn a_name_goes_to_the_first_file_of_its_extension() {
        // A plot first: `g.dot` waits for the graph.
        let mut f = Files::new(Some(PathBuf::from("g.dot")));
        assert_eq!(path(f.next("plot", "svg")), PathBuf::from("g-1.svg"));
        assert_eq!(path(f.next("graph", "dot")), PathBuf::from("g.dot"));
        assert_eq!(path(f.next("graph", "dot")), PathBuf::from("g-3.dot"));
        // No extension: the first file takes the name.
        let mut f = Files::new(Some(PathBuf::from("pic")));
        assert_eq!(path(f.next("plot", "svg")), PathBuf::from("pic"));
        assert_eq!(path(f.next("plot", "svg")), PathBuf::from("pic-2.svg"));
    }

    #[test]
    fn standard_output_by_its_names_is_standard_output() {
        for name in ["-", "/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"] {
            let mut f = Files::new(Some(PathBuf::from(name)));
            assert!(f.to_stdout(), "{name}");
            assert_eq!(f.next("plot", "svg"), Dest::Stdout, "{name}");
        }
        assert!(!Files::new(Some(PathBuf::from("/dev/null"))).to_stdout());
    }

    #[test]
    fn devices_and_standard_output_take_every_file() {
        let mut f = Files::new(Some(PathBuf::from("/dev/null")));
        for _ in 0..3 {
            assert_eq!(path(f.next("plot", "svg")), PathBuf::from("/dev/null"));
        }
        let mut f = Files::new(Some(PathBuf::from("-")));
        assert_eq!(f.next("plot", "svg"), Dest::Stdout);
        assert_eq!(f.next("graph", "dot"), Dest::Stdout);
    }
}
