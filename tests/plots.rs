//! Plots through the real binary: `plot(...)` writes one SVG file per
//! answer, each valid XML with an `<svg>` root, drawing what it should: a
//! dot per value, and the P-positions of Wythoff's game (from its closed
//! form, not from grundy) as black cells; `:plot` in the REPL names its file.

use std::path::Path;

mod common;
use common::run_in as run;

/// The elements of an SVG file named `tag`, after checking it parses with
/// an `<svg>` root.
fn elements(path: &Path, tag: &str) -> Vec<Vec<(String, String)>> {
    let text = std::fs::read_to_string(path).expect("the SVG file");
    let doc = roxmltree::Document::parse(&text).expect("the SVG is well-formed XML");
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    doc.descendants()
        .filter(|n| n.tag_name().name() == tag)
        .map(|n| {
            n.attributes()
                .map(|a| (a.name().to_string(), a.value().to_string()))
                .collect()
        })
        .collect()
}

fn attr<'a>(e: &'a [(String, String)], name: &str) -> &'a str {
    e.iter()
        .find(|(n, _)| n == name)
        .map_or("", |(_, v)| v.as_str())
}

/// Wythoff's P-positions (a, b) with a, b < n: (⌊kφ⌋, ⌊kφ²⌋) and mirrored.
fn wythoff_p(n: i64) -> usize {
    let phi = (1.0 + 5f64.sqrt()) / 2.0;
    let mut count = 0;
    for k in 0..n {
        let a = (k as f64 * phi).floor() as i64;
        let b = a + k;
        if a < n && b < n {
            count += if k == 0 { 1 } else { 2 };
        }
    }
    count
}

#[test]
fn plots_are_svg_files_that_draw_the_values() {
    let dir = common::scratch("plots-files");
    let game = "octal Kayles = 0.77\n\
                game W(a, b) = {\n\
                  W(a - k, b) for k in 1..=a\n\
                  W(a, b - k) for k in 1..=b\n\
                  W(a - k, b - k) for k in 1..=min(a, b)\n\
                }\n\
                print plot(Kayles, 0..=100)\n\
                print plot(W, 0..30, 0..30)\n";
    std::fs::write(dir.join("p.game"), game).expect("write");
    let (code, out, err) = run(&["--out", "pics/", "p.game"], &dir, "");
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(
        out,
        "plot of Kayles(n) for n in 0..=100: written to pics/plot-1.svg\n\
         plot of W(a, b) for a in 0..=29, b in 0..=29: written to pics/plot-2.svg\n"
    );
    // One dot per value, and the period in the caption.
    let seq = dir.join("pics/plot-1.svg");
    assert_eq!(elements(&seq, "circle").len(), 101);
    let text = std::fs::read_to_string(&seq).expect("read");
    assert!(text.contains("period 12, pre-period 71 (proven)"), "{text}");
    // A black cell per P-position.
    let heat = dir.join("pics/plot-2.svg");
    let black = elements(&heat, "rect")
        .iter()
        .filter(|r| attr(r, "fill") == "#000000")
        .count();
    assert_eq!(black, wythoff_p(30));
    assert_eq!(black, 23);

    // Without --out, plots are numbered in the current directory.
    let (code, out, _) = run(&["p.game"], &dir, "");
    assert_eq!(code, Some(0));
    assert!(out.ends_with("written to plot-2.svg\n"), "{out}");
    assert_eq!(elements(&dir.join("plot-1.svg"), "circle").len(), 101);
}

#[test]
fn a_plot_too_large_is_an_error_that_says_so() {
    let dir = common::scratch("plots-large");
    std::fs::write(
        dir.join("big.game"),
        "octal Kayles = 0.77\nprint plot(Kayles, 0..1000000)\n",
    )
    .expect("write");
    let (code, out, err) = run(&["big.game"], &dir, "");
    assert_eq!(code, Some(2));
    assert_eq!(out, "");
    assert!(err.contains("a plot draws at most 100000 points"), "{err}");
    assert!(!dir.join("plot-1.svg").exists());
}

#[test]
fn the_repl_plot_command_writes_and_names_the_file() {
    let dir = common::scratch("plots-repl");
    let script = "subtraction S = {1, 2, 3}\n:plot S, 0..=40\n:plot\n";
    let (_, out, err) = run(&["repl", "--out", "figs/"], &dir, script);
    assert!(
        out.contains("plot of S(n) for n in 0..=40: written to figs/plot-1.svg"),
        "{out}"
    );
    assert!(err.contains("`:plot` needs a game and ranges"), "{err}");
    let dots = elements(&dir.join("figs/plot-1.svg"), "circle");
    assert_eq!(dots.len(), 41);
}

/// Huge arguments keep their dots apart (coordinates count from the first
/// argument), and a short axis labels only whole numbers (no `-0`, no
/// `0` twice).
#[test]
fn huge_and_short_axes_read_right() {
    let dir = common::scratch("plots-axes");
    std::fs::write(
        dir.join("axes.game"),
        "octal Kayles = 0.77\nprint plot(Kayles, 10**18..=10**18 + 5)\nprint plot(Kayles, 0..=2)\n",
    )
    .expect("write");
    let (code, _, err) = run(&["--out", "pics/", "axes.game"], &dir, "");
    assert_eq!(code, Some(0), "{err}");
    let dots = elements(&dir.join("pics/plot-1.svg"), "circle");
    let mut xs: Vec<&str> = dots.iter().map(|d| attr(d, "cx")).collect();
    xs.sort_unstable();
    xs.dedup();
    assert_eq!(xs.len(), 6, "six dots at six places: {xs:?}");
    let labels = |name: &str| -> Vec<String> {
        let t = std::fs::read_to_string(dir.join(name)).expect("read");
        let doc = roxmltree::Document::parse(&t).expect("xml");
        doc.descendants()
            .filter(|n| n.tag_name().name() == "text")
            .filter_map(|n| n.text().map(|s| s.trim().to_string()))
            .collect()
    };
    let huge = labels("pics/plot-1.svg");
    assert!(
        huge.iter().any(|l| l == "1000000000000000002"),
        "ticks show the arguments: {huge:?}"
    );
    let labels = labels("pics/plot-2.svg");
    assert!(!labels.iter().any(|l| l == "-0"), "{labels:?}");
    let zeros = labels.iter().filter(|l| *l == "0").count();
    assert!(zeros <= 2, "one 0 per axis: {labels:?}");
}
