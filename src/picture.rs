//! Pictures as SVG, drawn with plotters: a value sequence against n (with
//! its period marked) and a two-parameter table as a heat map (P-positions
//! black). Plain data in, SVG text out: knows nothing of games.

use plotters::prelude::*;

/// The most points a sequence plot draws, and the most cells of a heat map:
/// beyond them the SVG grows past what a viewer opens comfortably.
pub const MAX_POINTS: usize = 100_000;

/// A period to mark on a sequence plot.
#[derive(Clone, Copy, Debug)]
pub struct Mark {
    /// The smallest n from which values repeat.
    pub preperiod: i64,
    /// The period.
    pub period: i64,
    /// What a period adds to the values (0: a plain period).
    pub saltus: i64,
    /// Whether a theorem proves it (else it was only observed).
    pub proven: bool,
}

const WIDTH: u32 = 960;
const HEIGHT: u32 = 540;

/// Why drawing failed (plotters' error, in words).
fn failed<E: std::fmt::Debug>(e: E) -> String {
    format!("drawing the plot failed: {e:?}")
}

/// A tick's label: an integer tick as `base + x`, a tick between
/// integers (a short axis) left blank.
fn integer_tick(base: i64, x: f64) -> String {
    let r = x.round();
    if (x - r).abs() > 1e-6 {
        return String::new();
    }
    (i128::from(base) + r as i128).to_string()
}

/// The value of each argument as dots, value against argument, with the
/// pre-period and the period's repeats as vertical lines.
pub fn sequence(
    title: &str,
    param: &str,
    args: &[i64],
    values: &[u32],
    mark: Option<Mark>,
) -> Result<String, String> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, HEIGHT)).into_drawing_area();
        root.fill(&WHITE).map_err(failed)?;
        // Coordinates from the first argument on: f64 holds 10^18 + 5 and
        // 10^18 as the same number, but their difference exactly.
        let base = args.iter().copied().min().unwrap_or(0);
        let at = |n: i64| (i128::from(n) - i128::from(base)) as f64;
        let (lo, hi) = match args.iter().max() {
            Some(&b) => (0.0, at(b)),
            None => (0.0, 1.0),
        };
        let pad = ((hi - lo) / 50.0).max(0.5);
        let top = f64::from(values.iter().copied().max().unwrap_or(0)) + 1.0;
        let mut caption = title.to_string();
        if let Some(m) = mark {
            let how = if m.proven { "proven" } else { "observed" };
            let saltus = match m.saltus {
                0 => String::new(),
                s => format!(" with saltus {s}"),
            };
            caption.push_str(&format!(
                ": period {}{saltus}, pre-period {} ({how})",
                m.period, m.preperiod
            ));
        }
        let mut chart = ChartBuilder::on(&root)
            .caption(&caption, ("sans-serif", 20))
            .margin(12)
            .x_label_area_size(36)
            .y_label_area_size(44)
            .build_cartesian_2d((lo - pad)..(hi + pad), -0.5..(top + 0.5))
            .map_err(failed)?;
        chart
            .configure_mesh()
            .x_desc(param)
            .y_desc("Grundy value")
            .x_label_formatter(&|x| integer_tick(base, *x))
            .y_label_formatter(&|y| integer_tick(0, *y))
            .light_line_style(WHITE.mix(0.0))
            .draw()
            .map_err(failed)?;
        if let Some(m) = mark {
            let grey = RGBColor(150, 150, 150);
            // The pre-period's end, then each repeat while they stay apart:
            // from the first one on the axis (a plot far past the pre-period
            // shows repeats only).
            let (e, p, b) = (
                i128::from(m.preperiod),
                i128::from(m.period.max(1)),
                i128::from(base),
            );
            let first = if e >= b {
                e
            } else {
                e + (b - e + p - 1) / p * p
            };
            let mut x = (first - b) as f64;
            let mut red = first == e;
            let mut lines = 0;
            while x <= hi && lines < 200 {
                let style = if red {
                    RGBColor(200, 60, 40).stroke_width(2)
                } else {
                    grey.stroke_width(1)
                };
                chart
                    .draw_series(LineSeries::new([(x, -0.5), (x, top + 0.5)], style))
                    .map_err(failed)?;
                red = false;
                x += p as f64;
                lines += 1;
            }
        }
        let dot = if args.len() > 2000 { 1 } else { 3 };
        chart
            .draw_series(
                args.iter()
                    .zip(values)
                    .map(|(&n, &v)| Circle::new((at(n), f64::from(v)), dot, BLUE.filled())),
            )
            .map_err(failed)?;
        root.present().map_err(failed)?;
    }
    Ok(svg)
}

/// The colour of a value from 1 to `top`: from pale yellow to deep red.
fn heat(v: u32, top: u32) -> RGBColor {
    let t = f64::from(v) / f64::from(top.max(1));
    let mix = |a: f64, b: f64| (a + (b - a) * t).round() as u8;
    RGBColor(mix(255.0, 180.0), mix(236.0, 20.0), mix(160.0, 40.0))
}

/// A two-parameter table as coloured cells, row 0 at the top; value 0
/// (P-positions) black.
pub fn heatmap(
    title: &str,
    params: [&str; 2],
    rows: &[i64],
    cols: &[i64],
    values: &[Vec<u32>],
) -> Result<String, String> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (800, 760)).into_drawing_area();
        root.fill(&WHITE).map_err(failed)?;
        let top = values.iter().flatten().copied().max().unwrap_or(0);
        let caption = format!("{title}: black = P-position, red = high value (max {top})");
        let (nr, nc) = (rows.len() as f64, cols.len() as f64);
        let mut chart = ChartBuilder::on(&root)
            .caption(&caption, ("sans-serif", 18))
            .margin(12)
            .x_label_area_size(36)
            .y_label_area_size(48)
            .build_cartesian_2d(-0.5..(nc - 0.5), (nr - 0.5)..-0.5)
            .map_err(failed)?;
        // Cell i spans i ± 0.5: a label at a whole number is its argument.
        let at = |xs: &[i64], x: f64| {
            let i = x.round();
            match xs.get(i as usize) {
                Some(a) if (x - i).abs() < 1e-9 && i >= 0.0 => a.to_string(),
                _ => String::new(),
            }
        };
        let col_at = |x: &f64| at(cols, *x);
        let row_at = |y: &f64| at(rows, *y);
        chart
            .configure_mesh()
            .disable_mesh()
            .x_desc(params[1])
            .y_desc(params[0])
            .x_labels(cols.len().min(20))
            .y_labels(rows.len().min(20))
            .x_label_formatter(&col_at)
            .y_label_formatter(&row_at)
            .draw()
            .map_err(failed)?;
        chart
            .draw_series(values.iter().enumerate().flat_map(|(i, row)| {
                row.iter().enumerate().map(move |(j, &v)| {
                    let colour = if v == 0 { BLACK } else { heat(v, top) };
                    let (x, y) = (j as f64, i as f64);
                    Rectangle::new([(x - 0.5, y - 0.5), (x + 0.5, y + 0.5)], colour.filled())
                })
            }))
            .map_err(failed)?;
        root.present().map_err(failed)?;
    }
    Ok(svg)
}
