//! nextpnr-ice40: placement and routing, with the timing figures it reports.

use std::path::{Path, PathBuf};

use crate::board::Device;

use super::runner::{self, Tool, ToolError};

/// Pin constraints for place and route.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Pins {
    /// A `.pcf` file.
    Pcf(PathBuf),
    /// No file: `--pcf-allow-unconstrained`, nextpnr places the IOs itself.
    Unconstrained,
}

/// Options for one nextpnr-ice40 run.
#[derive(Clone, Debug, PartialEq)]
pub struct PnrOptions {
    /// The device (its nextpnr flag is [`Device::nextpnr_flag`]).
    pub device: Device,
    /// The package, e.g. `sg48`.
    pub package: String,
    /// Pin constraints.
    pub pins: Pins,
    /// Target clock frequency in MHz (`--freq`).
    pub freq_mhz: f64,
    /// Placer seed (`--seed`), fixed so runs are reproducible.
    pub seed: u64,
}

impl PnrOptions {
    /// The iCEBreaker board: UP5K in the SG48 package, unconstrained pins,
    /// its 12 MHz oscillator as target, seed 1.
    pub fn icebreaker() -> Self {
        Self::for_board(
            crate::board::Board::get(crate::board::BoardId::Icebreaker),
            Pins::Unconstrained,
        )
    }

    /// A board's part, package and clock (as `--freq`) from the board data,
    /// with the given pins, seed 1.
    pub fn for_board(board: &crate::board::Board, pins: Pins) -> Self {
        PnrOptions {
            device: board.device,
            package: board.package.to_owned(),
            pins,
            freq_mhz: board.clock_mhz(),
            seed: 1,
        }
    }
}

/// What place and route produced and reported.
#[derive(Clone, Debug, PartialEq)]
pub struct PnrReport {
    /// The placed and routed design (`<stem>.asc`).
    pub asc: PathBuf,
    /// Lowest post-route maximum clock frequency over all clocks, in MHz
    /// (`None` for a design without clocked paths).
    pub fmax_mhz: Option<f64>,
    /// Longest post-route path in ns: the largest `Max delay` nextpnr
    /// reports (for a combinational design, pad to pad through the logic),
    /// or `1000 / fmax` when only clocked paths exist.
    pub critical_path_ns: Option<f64>,
    /// `ICESTORM_LC` logic cells used.
    pub logic_cells: Option<usize>,
    /// The nextpnr log (`<stem>_pnr.log`).
    pub log: Option<PathBuf>,
    /// What nextpnr printed (the log's text), for reports beyond these figures.
    pub output: String,
    /// nextpnr routed the design but it misses `--freq` (nextpnr's own verdict: it exits
    /// with an error, since retrogate never passes `--timing-allow-fail`).
    pub timing_failed: bool,
    /// nextpnr's `Warning:` lines, in order.
    pub warnings: Vec<String>,
}

/// Run nextpnr-ice40 on the JSON netlist `json` in `dir`, writing
/// `<stem>.asc` and `<stem>_pnr.log`.
///
/// A design that is routed but misses `--freq` makes nextpnr fail (no
/// `--timing-allow-fail`); that comes back as a report with `timing_failed` set and the
/// Fmax it reached. Any other failure is an error.
pub fn place_and_route(
    dir: &Path,
    json: &Path,
    options: &PnrOptions,
    stem: &str,
) -> Result<PnrReport, ToolError> {
    let asc = format!("{stem}.asc");
    let mut args: Vec<String> = vec![
        options.device.nextpnr_flag().to_owned(),
        "--package".to_owned(),
        options.package.clone(),
        "--json".to_owned(),
        json.display().to_string(),
        "--asc".to_owned(),
        asc.clone(),
        "--freq".to_owned(),
        format!("{}", options.freq_mhz),
        "--seed".to_owned(),
        options.seed.to_string(),
    ];
    match &options.pins {
        Pins::Pcf(pcf) => {
            args.push("--pcf".to_owned());
            args.push(pcf.display().to_string());
        }
        Pins::Unconstrained => args.push("--pcf-allow-unconstrained".to_owned()),
    }
    let log = format!("{stem}_pnr.log");
    // The key: every argument but the files' paths, and the files' contents.
    let mut parts: Vec<Vec<u8>> = vec![
        b"nextpnr-ice40".to_vec(),
        options.device.nextpnr_flag().as_bytes().to_vec(),
        options.package.clone().into_bytes(),
        asc.clone().into_bytes(),
        format!("{}", options.freq_mhz).into_bytes(),
        options.seed.to_string().into_bytes(),
        super::cache::read_input(Tool::NextpnrIce40, dir, json)?,
    ];
    match &options.pins {
        Pins::Pcf(pcf) => parts.push(super::cache::read_input(Tool::NextpnrIce40, dir, pcf)?),
        Pins::Unconstrained => parts.push(b"--pcf-allow-unconstrained".to_vec()),
    }
    let parts: Vec<&[u8]> = parts.iter().map(Vec::as_slice).collect();
    let key = super::cache::key(Tool::NextpnrIce40, dir, &parts)?;
    let files = [asc.as_str()];
    let cached = key
        .as_ref()
        .and_then(|k| super::cache::restore(k, dir, &files, Some(&log)));
    let out = match cached {
        Some(out) => out,
        None => {
            let out = runner::output(Tool::NextpnrIce40, dir, &args, Some(&log))?;
            if let Some(key) = &key {
                super::cache::store(key, dir, &files, &out);
            }
            out
        }
    };
    let text = format!("{}\n{}", out.stdout, out.stderr);
    let timing = parse_timing(&text);
    let timing_failed = !out.status.success();
    if timing_failed && !(timing.routed && timing.fmax_mhz.is_some()) {
        return Err(out.check().expect_err("nextpnr failed"));
    }
    let warnings = warnings(&text);
    Ok(PnrReport {
        asc: dir.join(asc),
        fmax_mhz: timing.fmax_mhz,
        critical_path_ns: timing.critical_path_ns,
        logic_cells: timing.logic_cells,
        log: out.log,
        output: text,
        timing_failed,
        warnings,
    })
}

/// The `Warning:` lines of a tool's output (yosys and nextpnr both start warnings so).
pub fn warnings(text: &str) -> Vec<String> {
    text.lines()
        .map(str::trim)
        .filter(|line| line.starts_with("Warning:"))
        .map(str::to_owned)
        .collect()
}

/// Figures parsed from a nextpnr-ice40 log.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Timing {
    /// See [`PnrReport::fmax_mhz`].
    pub fmax_mhz: Option<f64>,
    /// See [`PnrReport::critical_path_ns`].
    pub critical_path_ns: Option<f64>,
    /// See [`PnrReport::logic_cells`].
    pub logic_cells: Option<usize>,
    /// The log reaches `Routing complete`.
    pub routed: bool,
}

/// Parse nextpnr-ice40's log. Only the report after `Routing complete` is
/// used for timing (the earlier one is a pre-route estimate).
pub fn parse_timing(log: &str) -> Timing {
    let routed_at = log.rfind("Routing complete");
    let post_route = routed_at.map_or(log, |at| &log[at..]);
    let mut fmax: Option<f64> = None;
    let mut delay: Option<f64> = None;
    for line in post_route.lines() {
        // "Info: Max frequency for clock 'clk': 123.45 MHz (PASS at 12.00 MHz)"
        if let Some(rest) = line.split("Max frequency for clock").nth(1) {
            if let Some(mhz) = rest.split("': ").nth(1).and_then(first_number) {
                fmax = Some(fmax.map_or(mhz, |f| f.min(mhz)));
            }
        }
        // "Info: Max delay <async> -> <async>: 11.07 ns"
        if let Some(rest) = line.split("Max delay ").nth(1) {
            if let Some(ns) = rest.rsplit(": ").next().and_then(first_number) {
                delay = Some(delay.map_or(ns, |d| d.max(ns)));
            }
        }
    }
    let logic_cells = log.lines().find_map(|line| {
        let rest = line.split("ICESTORM_LC:").nth(1)?;
        rest.split('/').next()?.trim().parse().ok()
    });
    Timing {
        fmax_mhz: fmax,
        critical_path_ns: delay.or(fmax.map(|f| 1000.0 / f)),
        logic_cells,
        routed: routed_at.is_some(),
    }
}

fn first_number(text: &str) -> Option<f64> {
    text.split_whitespace().next()?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_async_design() {
        let log = "Info: \t         ICESTORM_LC:     5/ 5280     0%\n\
                   Info: Max delay <async> -> <async>: 10.55 ns\n\
                   Info: Routing complete.\n\
                   Info: No Fmax available; no interior timing paths found in design.\n\
                   Info: Max delay <async> -> <async>: 11.07 ns\n";
        let t = parse_timing(log);
        assert_eq!(
            t,
            Timing {
                fmax_mhz: None,
                critical_path_ns: Some(11.07),
                logic_cells: Some(5),
                routed: true,
            }
        );
    }

    #[test]
    fn parses_clocked_design() {
        let log = "Info: Routing complete.\n\
                   Info: Max frequency for clock 'clk$SB_IO_IN_$glb_clk': 150.02 MHz (PASS at 12.00 MHz)\n\
                   Info: Max frequency for clock 'other': 90.00 MHz (PASS at 12.00 MHz)\n";
        let t = parse_timing(log);
        assert_eq!(t.fmax_mhz, Some(90.0));
        assert!((t.critical_path_ns.unwrap_or(0.0) - 11.111).abs() < 0.01);
    }

    /// nextpnr's verdict on a miss: an `ERROR:` line with the post-route Fmax.
    #[test]
    fn parses_a_timing_failure() {
        let log = "Info: Routing complete.\n\
                   Warning: something odd\n\
                   ERROR: Max frequency for clock 'clk$SB_IO_IN_$glb_clk': 94.33 MHz (FAIL at 100.00 MHz)\n\
                   1 warning, 1 error\n";
        let t = parse_timing(log);
        assert_eq!((t.fmax_mhz, t.routed), (Some(94.33), true));
        assert_eq!(warnings(log), ["Warning: something odd"]);
    }

    #[test]
    fn icebreaker_flags() {
        let o = PnrOptions::icebreaker();
        assert_eq!(
            (o.device.nextpnr_flag(), o.package.as_str(), o.freq_mhz),
            ("--up5k", "sg48", 12.0)
        );
    }
}
