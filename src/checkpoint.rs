//! Checkpoints (`--checkpoint FILE`): the proven values of a long run,
//! saved to a file while it runs and when it ends, and read back by the
//! same command run again, which goes on from them.
//!
//! A checkpoint is written to `FILE.tmp` and then renamed over `FILE`, so
//! a run killed while saving leaves the last whole checkpoint in place. It
//! is trusted only when all of it checks: its header (what it is, which
//! grundy wrote it), the program it was saved for (the texts of the file
//! and of every `--let`), the input that program read, if it read any,
//! and a checksum over every byte. Anything else is refused with an error,
//! and the run does not start.
//!
//! The layout, little-endian: the magic line, the format (`u32`), the
//! grundy version (a length byte and its bytes), the program's hash
//! (`u128`), whether input was read and its hash (`u8`, `u64`), how many
//! positions (`u64`); then each position as its whole key (a LEB128
//! length, then each word zigzag LEB128) and its value (LEB128); last the
//! XXH3 hash of every byte before it (`u64`).

use crate::diagnostics::{Code, Diag};
use crate::store::{Full, Store};
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use xxhash_rust::xxh3::{Xxh3, xxh3_64, xxh3_128};

/// What a checkpoint file starts with.
const MAGIC: &[u8] = b"grundy checkpoint\n";
/// The layout's version.
const FORMAT: u32 = 1;
/// The grundy that writes it.
const VERSION: &str = env!("CARGO_PKG_VERSION");
/// The longest key a position may have (the store's keys are far shorter;
/// a longer one is a damaged file).
const MAX_KEY: u64 = 1 << 24;

/// The hash of a program's texts (its file's and its `--let`s', in the
/// order given), which a checkpoint must have been saved for.
pub fn program_hash<'a>(texts: impl IntoIterator<Item = &'a str>) -> u128 {
    let mut all = Vec::new();
    for t in texts {
        all.extend_from_slice(&(t.len() as u64).to_le_bytes());
        all.extend_from_slice(t.as_bytes());
    }
    xxh3_128(&all)
}

/// The hash of an input's text.
pub fn input_hash(text: &str) -> u64 {
    xxh3_64(text.as_bytes())
}

/// A run's checkpoint: where it goes, how often, and what it is for.
#[derive(Debug)]
pub struct Checkpoint {
    path: PathBuf,
    every: Duration,
    program: u128,
    /// When the next save is due, and the store's writes at the last one.
    next: Instant,
    saved: u64,
}

impl Checkpoint {
    /// The checkpoint at `path` of the program whose texts hash to
    /// `program` ([`program_hash`]), saved about every `every` while a
    /// run goes on (but never more than a tenth of the time: a save of a
    /// large store waits ten times as long as it took).
    pub fn new(path: PathBuf, every: Duration, program: u128) -> Checkpoint {
        Checkpoint {
            path,
            every,
            program,
            next: Instant::now() + every,
            saved: 0,
        }
    }

    /// Where it is saved.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Whether a save is due, with the store's writes at `writes` now.
    pub fn due(&self, writes: u64) -> bool {
        writes != self.saved && Instant::now() >= self.next
    }

    /// Whether the checkpoint can be written where it goes: `FILE.tmp` is
    /// made and removed (a run of days learns of a wrong directory at once).
    pub fn writable(&self) -> Result<(), Diag> {
        let tmp = self.tmp();
        std::fs::File::create(&tmp).map_err(|e| cannot_write(&tmp, &e))?;
        let _ = std::fs::remove_file(&tmp);
        Ok(())
    }

    /// Where a save is written before it is renamed over the file.
    fn tmp(&self) -> PathBuf {
        let mut name = self.path.clone().into_os_string();
        name.push(".tmp");
        PathBuf::from(name)
    }

    /// Saves every known value of `store`, with the hash of the input read
    /// so far, if any; how many were saved.
    pub fn save(&mut self, store: &Store, input: Option<u64>) -> Result<usize, Diag> {
        let start = Instant::now();
        // A save that fails is tried again a whole interval later.
        self.next = start + self.every;
        let tmp = self.tmp();
        let result = self.write(store, input, &tmp);
        if result.is_err() {
            let _ = std::fs::remove_file(&tmp);
        }
        let count = result?;
        std::fs::rename(&tmp, &self.path).map_err(|e| cannot_write(&self.path, &e))?;
        self.saved = store.writes();
        self.next = Instant::now() + self.every.max(start.elapsed() * 10);
        Ok(count)
    }

    /// Writes every known value of `store` to `tmp`; how many.
    fn write(&self, store: &Store, input: Option<u64>, tmp: &Path) -> Result<usize, Diag> {
        let cannot = |e: std::io::Error| cannot_write(tmp, &e);
        let file = std::fs::File::create(tmp).map_err(cannot)?;
        let mut out = Hashed {
            inner: BufWriter::with_capacity(1 << 16, file),
            hash: Xxh3::new(),
        };
        let mut header = Vec::from(MAGIC);
        header.extend_from_slice(&FORMAT.to_le_bytes());
        header.push(VERSION.len() as u8);
        header.extend_from_slice(VERSION.as_bytes());
        header.extend_from_slice(&self.program.to_le_bytes());
        header.push(u8::from(input.is_some()));
        header.extend_from_slice(&input.unwrap_or(0).to_le_bytes());
        let mut count = 0u64;
        store.each_known(&mut |_, _| count += 1);
        header.extend_from_slice(&count.to_le_bytes());
        out.write_all(&header).map_err(cannot)?;
        let mut record = Vec::new();
        let mut failed = None;
        store.each_known(&mut |key, value| {
            record.clear();
            leb128(&mut record, key.len() as u64);
            for &w in key {
                leb128(&mut record, zigzag(w));
            }
            leb128(&mut record, u64::from(value));
            if failed.is_none()
                && let Err(e) = out.write_all(&record)
            {
                failed = Some(e);
            }
        });
        if let Some(e) = failed {
            return Err(cannot(e));
        }
        let sum = out.hash.digest();
        let mut file = out.inner.into_inner().map_err(|e| cannot(e.into_error()))?;
        file.write_all(&sum.to_le_bytes()).map_err(cannot)?;
        file.sync_all().map_err(cannot)?;
        Ok(count as usize)
    }

    /// Reads the checkpoint back into `store`: `Ok(None)` when there is
    /// no file yet, else how many positions it held. `input` gives the
    /// hash of this run's input, asked only when the checkpoint was saved
    /// after input was read. On an error the store may hold part of the
    /// file: it is to be dropped.
    pub fn load(
        &mut self,
        store: &mut Store,
        input: &mut dyn FnMut() -> Result<u64, Diag>,
    ) -> Result<Option<usize>, Diag> {
        self.read_into(store, input).map_err(|u| match u {
            Unloaded::Refused(r) => r.diag(&self.path.display().to_string()),
            Unloaded::Failed(d) => d,
        })
    }

    fn read_into(
        &mut self,
        store: &mut Store,
        input: &mut dyn FnMut() -> Result<u64, Diag>,
    ) -> Result<Option<usize>, Unloaded> {
        let file = match std::fs::File::open(&self.path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => {
                let why = format!("cannot read the checkpoint {}: {e}", self.path.display());
                return Err(Unloaded::Failed(Diag::user(Code::CannotRead, why)));
            }
        };
        let mut r = Reader {
            inner: BufReader::with_capacity(1 << 16, file),
            hash: Xxh3::new(),
        };
        let mut magic = [0u8; MAGIC.len()];
        if r.bytes(&mut magic).is_err() || magic != MAGIC {
            return Err(Refusal::NotACheckpoint.into());
        }
        let format = r.u32()?;
        let mut version = vec![0u8; usize::from(r.u8()?)];
        r.bytes(&mut version)?;
        if format != FORMAT || version != VERSION.as_bytes() {
            let by = String::from_utf8_lossy(&version).into_owned();
            return Err(Refusal::OtherVersion(by).into());
        }
        if r.u128()? != self.program {
            return Err(Refusal::OtherProgram.into());
        }
        let has_input = r.u8()?;
        let saved_input = r.u64()?;
        let count = r.u64()?;
        let mut key = Vec::new();
        // Past the state limit the file is still read to its end: only a
        // file that checks is called too large.
        let mut full = false;
        for _ in 0..count {
            let len = r.leb128()?;
            if len > MAX_KEY {
                return Err(Refusal::Damaged.into());
            }
            key.clear();
            for _ in 0..len {
                key.push(unzigzag(r.leb128()?));
            }
            let value = u32::try_from(r.leb128()?).map_err(|_| Refusal::Damaged)?;
            if full {
                continue;
            }
            match store.restore(&key, value) {
                Ok(true) => {}
                Ok(false) => return Err(Refusal::Damaged.into()),
                Err(Full) => full = true,
            }
        }
        let sum = r.hash.digest();
        let mut trailer = [0u8; 8];
        let mut rest = [0u8; 1];
        let whole =
            r.inner.read_exact(&mut trailer).is_ok() && matches!(r.inner.read(&mut rest), Ok(0));
        if !whole || u64::from_le_bytes(trailer) != sum {
            return Err(Refusal::Damaged.into());
        }
        if full {
            return Err(Refusal::TooLarge(count).into());
        }
        // The input is read, if need be, only for a file that checks.
        match has_input {
            0 => {}
            1 if input().map_err(Unloaded::Failed)? == saved_input => {}
            1 => return Err(Refusal::OtherInput.into()),
            _ => return Err(Refusal::Damaged.into()),
        }
        self.saved = store.writes();
        Ok(Some(count as usize))
    }
}

/// A checkpoint that cannot be written at `path`.
fn cannot_write(path: &Path, e: &std::io::Error) -> Diag {
    Diag::user(
        Code::CannotWrite,
        format!("cannot write the checkpoint {}: {e}", path.display()),
    )
    .help("check that the directory exists and can be written (`--checkpoint FILE`)")
}

/// Why a checkpoint was not read back.
#[derive(Debug)]
enum Unloaded {
    /// The file is not to be trusted.
    Refused(Refusal),
    /// It could not be read, or this run's input could not.
    Failed(Diag),
}

/// Why a checkpoint file is not trusted.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Refusal {
    /// It does not start as one.
    NotACheckpoint,
    /// Another grundy (or layout) saved it: which.
    OtherVersion(String),
    /// It was saved for another program.
    OtherProgram,
    /// It was saved for another input.
    OtherInput,
    /// Its bytes do not check: cut short, or changed.
    Damaged,
    /// It holds more positions than the state limit allows: how many.
    TooLarge(u64),
}

impl From<Refusal> for Unloaded {
    fn from(r: Refusal) -> Unloaded {
        Unloaded::Refused(r)
    }
}

impl Refusal {
    /// The error that refuses the checkpoint `name`.
    fn diag(&self, name: &str) -> Diag {
        let (why, help) = match self {
            Refusal::NotACheckpoint => (
                "is not a grundy checkpoint".to_string(),
                "give `--checkpoint` the file an earlier run of the same command saved, or a new \
                 file name",
            ),
            Refusal::OtherVersion(by) => (
                format!(
                    "was saved by grundy {by} (this is {VERSION}), whose checkpoints this one cannot read"
                ),
                "run the grundy that saved it, or give a new checkpoint file name",
            ),
            Refusal::OtherProgram => (
                "was saved for another program".to_string(),
                "a checkpoint goes on only with the same file and the same `--let` values it was \
                 saved with; give this program a checkpoint file of its own",
            ),
            Refusal::OtherInput => (
                "was saved for another input".to_string(),
                "a checkpoint goes on only with the input it was saved with; give this input a \
                 checkpoint file of its own",
            ),
            Refusal::Damaged => (
                "is damaged or cut short: it does not check".to_string(),
                "nothing was run: delete it (the run starts afresh) or give a new checkpoint file \
                 name",
            ),
            Refusal::TooLarge(n) => (
                format!("holds {n} positions, more than the state limit allows"),
                "raise it with `--max-states N`",
            ),
        };
        Diag::user(Code::BadCheckpoint, format!("the checkpoint {name} {why}")).help(help)
    }
}

/// A writer that hashes what it writes.
struct Hashed<W> {
    inner: W,
    hash: Xxh3,
}

impl<W: Write> Hashed<W> {
    fn write_all(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.hash.update(bytes);
        self.inner.write_all(bytes)
    }
}

/// A reader of a checkpoint's fields that hashes what it reads; a file
/// that ends early is damaged.
struct Reader<R> {
    inner: R,
    hash: Xxh3,
}

impl<R: Read> Reader<R> {
    fn bytes(&mut self, out: &mut [u8]) -> Result<(), Refusal> {
        self.inner.read_exact(out).map_err(|_| Refusal::Damaged)?;
        self.hash.update(out);
        Ok(())
    }

    fn u8(&mut self) -> Result<u8, Refusal> {
        let mut b = [0u8; 1];
        self.bytes(&mut b)?;
        Ok(b[0])
    }

    fn u32(&mut self) -> Result<u32, Refusal> {
        let mut b = [0u8; 4];
        self.bytes(&mut b)?;
        Ok(u32::from_le_bytes(b))
    }

    fn u64(&mut self) -> Result<u64, Refusal> {
        let mut b = [0u8; 8];
        self.bytes(&mut b)?;
        Ok(u64::from_le_bytes(b))
    }

    fn u128(&mut self) -> Result<u128, Refusal> {
        let mut b = [0u8; 16];
        self.bytes(&mut b)?;
        Ok(u128::from_le_bytes(b))
    }

    fn leb128(&mut self) -> Result<u64, Refusal> {
        let mut x = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.u8()?;
            x |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return Ok(x);
            }
        }
        Err(Refusal::Damaged)
    }
}

fn leb128(out: &mut Vec<u8>, mut x: u64) {
    while x >= 0x80 {
        out.push((x as u8) | 0x80);
        x >>= 7;
    }
    out.push(x as u8);
}

fn zigzag(x: i64) -> u64 {
    ((x << 1) ^ (x >> 63)) as u64
}

fn unzigzag(x: u64) -> i64 {
    ((x >> 1) as i64) ^ -((x & 1) as i64)
}

#[cfg(test)]
mod tests;
