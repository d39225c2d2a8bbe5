//! `--checkpoint FILE`: a run saves what it proved, is stopped (Ctrl-C,
//! or killed outright), and the same command goes on from the file with
//! the answer an uninterrupted run gives; a file that is not a whole
//! checkpoint of the same program and input is refused, and left alone.
//!
//! Each run is stopped at a point the test sees (an answer printed, the
//! file written), never by a race with a clock; that the second run went
//! on from the file is shown by work, not time: it answers within a work
//! limit that a run from nothing does not.

mod common;

use common::{run_in, scratch};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Cram, `examples/cram.game` as it is.
fn cram() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/cram.game"))
        .expect("examples/cram.game")
}

/// The answers of a run, without the statement that runs for ever.
const ANSWER: &str = "grundy(Cram((1 << (w * h)) - 1)) = 0\n";

/// Cram 5 × 5, then a statement that runs for days: a run of this is
/// stopped while it is sure to be running.
fn endless(dir: &Path) -> String {
    let text = format!("{}\ncheck r >= 0 for r in 1..=10**15\n", cram());
    std::fs::write(dir.join("endless.game"), text).expect("write");
    "endless.game".into()
}

/// The arguments of a run of `file` on Cram `w` × `h`, with more.
fn args<'a>(file: &'a str, size: &'a [String; 2], more: &[&'a str]) -> Vec<&'a str> {
    let mut a = vec![file, "--let", &size[0], "--let", &size[1], "--runaway", "0"];
    a.extend_from_slice(more);
    a
}

fn size(w: u32, h: u32) -> [String; 2] {
    [format!("w={w}"), format!("h={h}")]
}

fn spawn(args: &[&str], dir: &Path, stdout: &Path) -> Child {
    Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(dir.join(stdout)).expect("stdout file"))
        .stderr(std::fs::File::create(dir.join("stderr")).expect("stderr file"))
        .spawn()
        .expect("grundy runs")
}

/// Waits (up to the hang net) for `ready`.
fn wait_for(mut ready: impl FnMut() -> bool) {
    let start = Instant::now();
    while !ready() {
        assert!(
            start.elapsed() < Duration::from_secs(300),
            "waited five minutes"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[cfg(unix)]
#[test]
fn a_run_stopped_by_ctrl_c_saves_and_the_same_command_goes_on() {
    let dir = scratch("checkpoint-ctrl-c");
    let file = endless(&dir);
    let s = size(5, 5);
    let run = args(&file, &s, &["--checkpoint", "cram.ck"]);
    let mut child = spawn(&run, &dir, Path::new("out"));
    wait_for(|| std::fs::read_to_string(dir.join("out")).unwrap_or_default() == ANSWER);
    let pid = child.id().to_string();
    let sent = Command::new("kill").args(["-INT", &pid]).status();
    assert!(sent.is_ok_and(|s| s.success()));
    let status = child.wait().expect("it ends");
    let err = std::fs::read_to_string(dir.join("stderr")).unwrap_or_default();
    assert_eq!(status.code(), Some(130), "{err}");
    assert!(err.contains("interrupted"), "{err}");
    assert!(
        err.contains("positions in the checkpoint cram.ck: the same command goes on from them"),
        "{err}"
    );

    // From nothing, this many moves are not enough for Cram 5 × 5 ...
    let limit = ["--max-work", "1000"];
    let (code, out, err) = run_in(&args(&file, &s, &limit), &dir, "");
    assert_eq!((code, out.as_str()), (Some(2), ""), "{err}");
    assert!(err.contains("work-limit"), "{err}");
    // ... and from the checkpoint they are: the values are read back, and
    // only the endless statement meets the limit.
    let mut again = run.clone();
    again.extend(limit);
    let (code, out, err) = run_in(&again, &dir, "");
    assert_eq!((code, out.as_str()), (Some(2), ANSWER), "{err}");
    assert!(
        err.contains("going on from the checkpoint cram.ck"),
        "{err}"
    );
    assert_eq!(err.matches("work-limit").count(), 1, "{err}");
}

/// Killed outright (no save at the end): what the run saved while it went
/// on is all there is, and the same command goes on from it to the answer
/// of a run never stopped.
#[test]
fn a_run_killed_mid_way_goes_on_to_the_answer_of_one_never_stopped() {
    let dir = scratch("checkpoint-kill");
    std::fs::write(dir.join("cram.game"), cram()).expect("write");
    let s = size(5, 7);
    let whole = run_in(&args("cram.game", &s, &[]), &dir, "");
    assert_eq!(whole.0, Some(0), "{}", whole.2);
    assert!(whole.1.starts_with("grundy(Cram"), "{}", whole.1);

    // Cram 5 × 7, then the statement that runs for days: the run is still
    // going when it is killed, whenever that is.
    let file = endless(&dir);
    let every = ["--checkpoint", "cram.ck", "--checkpoint-every", "0.01"];
    let mut child = spawn(&args(&file, &s, &every), &dir, Path::new("out"));
    wait_for(|| dir.join("cram.ck").exists());
    assert!(child.try_wait().expect("wait").is_none(), "it ended");
    child.kill().expect("kill");
    let status = child.wait().expect("it ends");
    assert_eq!(status.code(), None, "killed by a signal");

    // The same command, but the endless statement stopped at once as the
    // runaway it is (the bound on projected time is no part of what a
    // checkpoint is for).
    let mut again = args(&file, &s, &every);
    again.retain(|a| *a != "--runaway" && *a != "0");
    let (code, out, err) = run_in(&again, &dir, "");
    assert_eq!((code, &out), (Some(2), &whole.1), "{err}");
    assert!(
        err.contains("going on from the checkpoint cram.ck"),
        "{err}"
    );
    assert!(err.contains("runaway"), "{err}");
}

/// A run refused: exit 2, nothing printed, the refusal on standard error,
/// and the file as it was.
fn refused(dir: &Path, run: &[&str], stdin: &str, why: &str) {
    let before = std::fs::read(dir.join("g.ck")).expect("the file");
    let (code, out, err) = run_in(run, dir, stdin);
    assert_eq!((code, out.as_str()), (Some(2), ""), "{err}");
    assert!(err.contains("bad-checkpoint") && err.contains(why), "{err}");
    assert_eq!(std::fs::read(dir.join("g.ck")).expect("the file"), before);
}

#[test]
fn a_damaged_or_foreign_checkpoint_is_refused_and_left_alone() {
    let dir = scratch("checkpoint-refused");
    std::fs::write(
        dir.join("g.game"),
        "let take = input_ints()\n\
         game G(n) = { G(n - k) for k in take if k <= n }\n\
         print [grundy(G(n)) for n in 0..=13]\n",
    )
    .expect("write");
    let run = ["g.game", "--checkpoint", "g.ck"];
    let (code, out, err) = run_in(&run, &dir, "1 3 4");
    assert_eq!(code, Some(0), "{err}");
    // The subtraction game {1, 3, 4}: 0 1 0 1 2 3 2, period 7.
    let want = "[grundy(G(n)) for n in 0..=13] = [0, 1, 0, 1, 2, 3, 2, 0, 1, 0, 1, 2, 3, 2]\n";
    assert_eq!(out, want);
    // Once more, from the checkpoint.
    let (code, again, err) = run_in(&run, &dir, "1 3 4");
    assert_eq!((code, again.as_str()), (Some(0), want), "{err}");
    assert!(err.contains("going on from the checkpoint g.ck"), "{err}");

    refused(&dir, &run, "1 3 5", "was saved for another input");
    let other = ["g.game", "--checkpoint", "g.ck", "--let", "take=[1, 3, 4]"];
    refused(&dir, &other, "", "was saved for another program");

    let whole = std::fs::read(dir.join("g.ck")).expect("the file");
    std::fs::write(dir.join("g.ck"), &whole[..whole.len() - 3]).expect("write");
    refused(&dir, &run, "1 3 4", "is damaged or cut short");
    let mut changed = whole.clone();
    changed[whole.len() / 2] ^= 4;
    std::fs::write(dir.join("g.ck"), &changed).expect("write");
    refused(&dir, &run, "1 3 4", "is damaged or cut short");
    std::fs::write(dir.join("g.ck"), "print 1\n").expect("write");
    refused(&dir, &run, "1 3 4", "is not a grundy checkpoint");
}

/// A refused checkpoint stops the run before its constants: the error
/// of one (a division by zero) is never met.
#[test]
fn a_refused_checkpoint_stops_the_run_before_its_constants() {
    let dir = scratch("checkpoint-first");
    std::fs::write(dir.join("g.game"), "let boom = 1 / 0\nprint 1\n").expect("write");
    std::fs::write(dir.join("g.ck"), "not a checkpoint\n").expect("write");
    refused(
        &dir,
        &["g.game", "--checkpoint", "g.ck"],
        "",
        "is not a grundy checkpoint",
    );
    let (_, _, err) = run_in(&["g.game", "--checkpoint", "g.ck"], &dir, "");
    assert!(!err.contains("division"), "{err}");
    // A checkpoint that cannot be written is said at once.
    let (code, out, err) = run_in(&["g.game", "--checkpoint", "no/such/dir/g.ck"], &dir, "");
    assert_eq!((code, out.as_str()), (Some(2), ""), "{err}");
    assert!(
        err.contains("cannot write the checkpoint no/such/dir/g.ck.tmp"),
        "{err}"
    );
}

#[test]
fn the_repl_has_no_checkpoint() {
    let dir = scratch("checkpoint-repl");
    let (code, out, err) = run_in(&["repl", "--checkpoint", "r.ck"], &dir, "print 1\n");
    assert_eq!((code, out.as_str()), (Some(2), ""), "{err}");
    assert!(
        err.contains("`--checkpoint` is for running a file"),
        "{err}"
    );
    assert!(!dir.join("r.ck").exists());
}
