use super::*;
use crate::ids::GameId;
use crate::store::{GameShape, TAG_INTS};

fn shapes() -> Vec<GameShape> {
    vec![
        GameShape {
            arity: 1,
            ints: true,
            sparse: false,
        },
        GameShape {
            arity: 1,
            ints: true,
            sparse: true,
        },
        GameShape {
            arity: 1,
            ints: false,
            sparse: false,
        },
    ]
}

/// A store with a value of every kind of position.
fn store() -> Store {
    let mut s = Store::new(&shapes(), 1000);
    for n in 0..20 {
        let p = s.intern_ints(GameId(0), &[n]).unwrap();
        s.set(p, (n % 3) as u32);
    }
    let p = s.intern_ints(GameId(1), &[i64::MIN]).unwrap();
    s.set(p, 7);
    let p = s.intern_ints(GameId(1), &[-5]).unwrap();
    s.set(p, 1);
    let p = s.intern_whole_key(&[2, TAG_INTS, 3, 1, -2, 3]).unwrap();
    s.set(p, 2);
    s
}

fn known(s: &Store) -> Vec<(Vec<i64>, u32)> {
    let mut all = Vec::new();
    s.each_known(&mut |k, v| all.push((k.to_vec(), v)));
    all.sort();
    all
}

/// A file of this test's own in the temporary directory.
fn file(name: &str) -> PathBuf {
    let path =
        std::env::temp_dir().join(format!("grundy-checkpoint-{}-{name}", std::process::id()));
    let _ = std::fs::remove_file(&path);
    path
}

fn checkpoint(path: &Path, program: u128) -> Checkpoint {
    Checkpoint::new(path.to_path_buf(), Duration::from_secs(60), program)
}

fn no_input() -> Result<u64, Diag> {
    panic!("the input was asked for")
}

fn load(path: &Path, program: u128, input: Option<u64>) -> Result<Option<usize>, Unloaded> {
    let mut s = Store::new(&shapes(), 1000);
    let mut input = || input.ok_or_else(|| Diag::user(Code::NoInput, "none"));
    checkpoint(path, program).read_into(&mut s, &mut input)
}

fn refusal(path: &Path, program: u128, input: Option<u64>) -> Refusal {
    match load(path, program, input) {
        Err(Unloaded::Refused(r)) => r,
        other => panic!("not refused: {other:?}"),
    }
}

#[test]
fn what_is_saved_is_read_back() {
    let path = file("round-trip");
    let s = store();
    assert_eq!(checkpoint(&path, 42).save(&s, None), Ok(23));
    let mut back = Store::new(&shapes(), 1000);
    let n = checkpoint(&path, 42).load(&mut back, &mut no_input);
    assert_eq!(n, Ok(Some(23)));
    assert_eq!(known(&back), known(&s));
    let mut tmp = path.clone().into_os_string();
    tmp.push(".tmp");
    assert!(!std::fs::exists(&tmp).unwrap_or(true));
    let _ = std::fs::remove_file(&path);
}

#[test]
fn a_save_that_fails_waits_for_the_next_interval() {
    let path = std::env::temp_dir()
        .join(format!(
            "grundy-checkpoint-{}-no-such-dir",
            std::process::id()
        ))
        .join("f.ck");
    let mut c = Checkpoint::new(path, Duration::from_secs(3600), 1);
    assert_eq!(c.writable().map_err(|d| d.code), Err(Code::CannotWrite));
    let s = store();
    c.next = Instant::now();
    assert!(c.due(s.writes()));
    assert_eq!(c.save(&s, None).map_err(|d| d.code), Err(Code::CannotWrite));
    // Not again at the next poll: an hour later.
    assert!(!c.due(s.writes()));
}

#[test]
fn no_file_yet_is_a_fresh_start() {
    assert!(matches!(load(&file("none"), 1, None), Ok(None)));
}

#[test]
fn a_checkpoint_cut_short_anywhere_is_refused() {
    let path = file("cut");
    checkpoint(&path, 7).save(&store(), None).unwrap();
    let whole = std::fs::read(&path).unwrap();
    for len in 0..whole.len() {
        std::fs::write(&path, &whole[..len]).unwrap();
        let why = refusal(&path, 7, None);
        let short = len < MAGIC.len();
        assert_eq!(
            why,
            if short {
                Refusal::NotACheckpoint
            } else {
                Refusal::Damaged
            },
            "{len}"
        );
    }
    let mut longer = whole.clone();
    longer.push(0);
    std::fs::write(&path, &longer).unwrap();
    assert_eq!(refusal(&path, 7, None), Refusal::Damaged);
    let _ = std::fs::remove_file(&path);
}

#[test]
fn a_checkpoint_with_any_byte_changed_is_refused() {
    let path = file("changed");
    checkpoint(&path, 7).save(&store(), None).unwrap();
    let whole = std::fs::read(&path).unwrap();
    for i in 0..whole.len() {
        for flip in [1u8, 0x80] {
            let mut changed = whole.clone();
            changed[i] ^= flip;
            std::fs::write(&path, &changed).unwrap();
            refusal(&path, 7, None);
        }
    }
    let _ = std::fs::remove_file(&path);
}

#[test]
fn a_foreign_file_is_refused_for_what_it_is() {
    let path = file("foreign");
    std::fs::write(&path, "game G(n): n - 1\n").unwrap();
    assert_eq!(refusal(&path, 7, None), Refusal::NotACheckpoint);
    checkpoint(&path, 7).save(&store(), None).unwrap();
    assert_eq!(refusal(&path, 8, None), Refusal::OtherProgram);
    let mut other = std::fs::read(&path).unwrap();
    // The version's first byte changed.
    let at = MAGIC.len() + 5;
    other[at] = if other[at] == b'9' { b'8' } else { b'9' };
    std::fs::write(&path, &other).unwrap();
    let by = String::from_utf8_lossy(&other[at..at + VERSION.len()]).into_owned();
    assert_ne!(by, VERSION);
    assert_eq!(refusal(&path, 7, None), Refusal::OtherVersion(by));
    checkpoint(&path, 7).save(&store(), Some(99)).unwrap();
    assert_eq!(refusal(&path, 7, Some(98)), Refusal::OtherInput);
    assert!(matches!(load(&path, 7, Some(99)), Ok(Some(23))));
    // This run's input could not be read: that error, not the values.
    match load(&path, 7, None) {
        Err(Unloaded::Failed(d)) => assert_eq!(d.code, Code::NoInput),
        other => panic!("{other:?}"),
    }
    let _ = std::fs::remove_file(&path);
}

#[test]
fn a_checkpoint_larger_than_the_state_limit_is_refused() {
    let path = file("full");
    checkpoint(&path, 7).save(&store(), None).unwrap();
    let mut small = Store::new(&shapes(), 10);
    match checkpoint(&path, 7).read_into(&mut small, &mut no_input) {
        Err(Unloaded::Refused(r)) => assert_eq!(r, Refusal::TooLarge(23)),
        other => panic!("{other:?}"),
    }
    let _ = std::fs::remove_file(&path);
}

#[test]
fn keys_write_and_read_as_they_were() {
    for x in [0, 1, -1, 63, -64, 64, i64::MAX, i64::MIN] {
        assert_eq!(unzigzag(zigzag(x)), x);
        let mut bytes = Vec::new();
        leb128(&mut bytes, zigzag(x));
        let mut r = Reader {
            inner: &bytes[..],
            hash: Xxh3::new(),
        };
        assert_eq!(r.leb128().map(unzigzag), Ok(x));
    }
}
