//! icestorm's read-back tools, which turn a bitstream back into something to check:
//! `iceunpack` (binary bitstream to ASCII), `icebox_vlog` (ASCII bitstream to Verilog of the
//! configured chip, its ports named from a PCF) and `icetime` (timing of the configured chip,
//! a second opinion beside nextpnr's).
//!
//! `icebox_vlog`'s Verilog declares each port in the module header and again in the body
//! (`output LED2` then `reg LED2 = 0`), which Icarus accepts and Verilator refuses, joins bus
//! bits to their pins with `tran`, and drives bidirectional pins with `1'bz`:
//! [`simulation_source`] rewrites it for a simulation that drives every input pin.

use std::path::{Path, PathBuf};

use super::runner::{self, Tool, ToolError, ToolOutput};
use crate::board::Device;

/// The module name [`read_back`] gives the configured chip.
pub const CHIP_MODULE: &str = "chip";

/// `iceunpack dir/<bin_name> dir/<asc_name>`: the ASCII bitstream of a binary one.
pub fn unpack(dir: &Path, bin_name: &str, asc_name: &str) -> Result<PathBuf, ToolError> {
    runner::run(
        Tool::Iceunpack,
        dir,
        [bin_name, asc_name],
        Some(&format!("{asc_name}.iceunpack.log")),
    )?
    .expect_file(dir.join(asc_name))
}

/// The `set_io` lines of `pcf` as `icebox_vlog` reads them: `set_io NAME PIN`, without the
/// flags nextpnr takes (`-nowarn`, `-pullup yes`...) and without comments; other lines dropped.
pub fn vlog_pcf(pcf: &str) -> String {
    let mut out = String::new();
    for line in pcf.lines() {
        let body = line.split('#').next().unwrap_or_default();
        let mut words = body.split_whitespace();
        if words.next() != Some("set_io") {
            continue;
        }
        let rest: Vec<&str> = words.collect();
        // Flags start with `-`; `-pullup` and `-pullup_resistor` take a value.
        let mut plain = Vec::new();
        let mut k = 0;
        while k < rest.len() {
            match rest[k] {
                "-pullup" | "-pullup_resistor" => k += 2,
                w if w.starts_with('-') => k += 1,
                w => {
                    plain.push(w);
                    k += 1;
                }
            }
        }
        if let [name, pin] = plain[..] {
            out.push_str(&format!("set_io {name} {pin}\n"));
        }
    }
    out
}

/// `icebox_vlog -c -d <package> -n chip -p <pcf_name> <asc_name>`, written to
/// `dir/<out_name>`: the configured chip as Verilog, its ports the PCF's names (buses
/// collected), the flip-flops starting at 0 as the silicon's do. The PCF must be in the form
/// [`vlog_pcf`] makes. Cached by the contents of the ASCII bitstream and the PCF (the read-back
/// of a large design takes a minute).
pub fn read_back(
    dir: &Path,
    asc_name: &str,
    pcf_name: &str,
    package: &str,
    out_name: &str,
) -> Result<PathBuf, ToolError> {
    let args = [
        "-c",
        "-d",
        package,
        "-n",
        CHIP_MODULE,
        "-p",
        pcf_name,
        asc_name,
    ];
    let asc = super::cache::read_input(Tool::IceboxVlog, dir, Path::new(asc_name))?;
    let pcf = super::cache::read_input(Tool::IceboxVlog, dir, Path::new(pcf_name))?;
    let key = super::cache::key(
        Tool::IceboxVlog,
        dir,
        &[args.join(" ").as_bytes(), &asc, &pcf],
    )?;
    if let Some(out) = key
        .as_ref()
        .and_then(|k| super::cache::restore(k, dir, &[out_name], None))
    {
        return out.expect_file(dir.join(out_name));
    }
    let out = runner::run(Tool::IceboxVlog, dir, args, None)?;
    if !out.stdout.contains(&format!("module {CHIP_MODULE} ")) {
        return Err(out.unexpected("its output holds no `module chip`"));
    }
    let path = runner::write_file(Tool::IceboxVlog, dir, out_name, &out.stdout)?;
    if let Some(key) = &key {
        // The Verilog is the file; the stored output need not hold it twice.
        let stored = ToolOutput {
            stdout: String::new(),
            ..out
        };
        super::cache::store(key, dir, &[out_name], &stored);
    }
    Ok(path)
}

/// A port of the read-back chip, from its module header.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChipPort {
    /// `input`, `output` or `inout`.
    pub dir: String,
    /// The name (unescaped: `io_led`).
    pub name: String,
    /// `(msb, lsb)` for a bus.
    pub range: Option<(usize, usize)>,
}

/// The ports of `icebox_vlog`'s module header (`module chip (output [7:0] \io_led , input
/// CLK, ...);`), or `None` when there is no such header.
pub fn chip_ports(verilog: &str) -> Option<Vec<ChipPort>> {
    let start = verilog.find(&format!("module {CHIP_MODULE} ("))?;
    let body = &verilog[start + CHIP_MODULE.len() + 9..];
    let end = body.find(");")?;
    let mut ports = Vec::new();
    for decl in body[..end].split(',') {
        let mut words = decl.split_whitespace();
        let dir = words.next()?.to_owned();
        let mut rest: Vec<&str> = words.collect();
        let mut range = None;
        if rest.first().is_some_and(|w| w.starts_with('[')) {
            let r = rest.remove(0);
            let (msb, lsb) = r.trim_matches(|c| c == '[' || c == ']').split_once(':')?;
            range = Some((msb.parse().ok()?, lsb.parse().ok()?));
        }
        let name = rest.first()?.trim_start_matches('\\').to_owned();
        ports.push(ChipPort { dir, name, range });
    }
    Some(ports)
}

/// `icebox_vlog`'s Verilog made fit for a simulation that drives every input pin (Verilator
/// included): the header becomes a plain port list with one declaration per port; the ports
/// named in `inputs` (the top's inputs, which the testbench drives as a switch or button does,
/// whatever `icebox_vlog` declared for their pads) and `inout` ports become inputs; each `tran`
/// becomes an `assign` (from the chip's wire to an output port's bit, from an input port's bit
/// to the wire); and the `1'bz` drivers of input pins are dropped (the chip's drive of a pin
/// read as a switch is not modelled).
pub fn simulation_source(verilog: &str, inputs: &[&str]) -> Option<String> {
    let ports = chip_ports(verilog)?;
    let start = verilog.find(&format!("module {CHIP_MODULE} ("))?;
    let end = start + verilog[start..].find(");")? + 2;
    let names: Vec<String> = ports.iter().map(|p| escaped(&p.name)).collect();
    let mut out = String::with_capacity(verilog.len());
    out.push_str(&verilog[..start]);
    out.push_str(&format!("module {CHIP_MODULE} ({});\n", names.join(", ")));
    let is_input = |name: &str| {
        inputs.contains(&name) || ports.iter().any(|p| p.name == name && p.dir == "inout")
    };
    // The port a `\\io_dip[0] ` or `\\io_dip [0]` names.
    let base = |word: &str| {
        word.trim()
            .trim_start_matches('\\')
            .split([' ', '['])
            .next()
            .unwrap_or_default()
            .to_owned()
    };
    for p in &ports {
        let dir = if is_input(&p.name) { "input" } else { &p.dir };
        let range = p
            .range
            .map_or(String::new(), |(m, l)| format!("[{m}:{l}] "));
        out.push_str(&format!("{dir} {range}{};\n", escaped(&p.name)));
    }
    for line in verilog[end..].lines() {
        let t = line.trim();
        if let Some(args) = t.strip_prefix("tran(").and_then(|a| a.strip_suffix(");")) {
            if let Some((port, wire)) = args.split_once(", ") {
                let output = !is_input(&base(port));
                let (to, from) = if output { (port, wire) } else { (wire, port) };
                // An escaped name ends at white space: keep one before the `;`.
                out.push_str(&format!("assign {} = {} ;\n", to.trim(), from.trim()));
                continue;
            }
        }
        // A pad icebox_vlog took for an output drives its port bit from the chip's wire
        // (`assign \\io_dip [0] = \\io_dip[0] ;`): for a pin the top reads, the other way.
        if let Some((lhs, rhs)) = t
            .strip_prefix("assign ")
            .and_then(|r| r.strip_suffix(';'))
            .and_then(|r| r.split_once(" = "))
        {
            let lhs = lhs.trim();
            if lhs.starts_with('\\')
                && lhs.contains(" [")
                && !rhs.contains('?')
                && is_input(&base(lhs))
            {
                out.push_str(&format!("assign {} = {lhs} ;\n", rhs.trim()));
                continue;
            }
        }
        if let Some(lhs) = t
            .strip_prefix("assign ")
            .filter(|_| t.ends_with(": 1'bz;"))
            .and_then(|rest| rest.split_once(" = "))
        {
            if is_input(&base(lhs.0)) {
                continue;
            }
        }
        out.push_str(line);
        out.push('\n');
    }
    Some(out)
}

/// `name` as a Verilog identifier: escaped (`\io_led[3] `) unless it is a plain one.
pub fn escaped(name: &str) -> String {
    let plain = name
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if plain {
        name.to_owned()
    } else {
        format!("\\{name} ")
    }
}

/// What `icetime` found: the longest path and the clock it allows.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Icetime {
    /// The longest path's delay, ns.
    pub path_ns: f64,
    /// The frequency it allows, MHz.
    pub fmax_mhz: f64,
}

/// `icetime -d <device> -P <package> -t <asc_name>`: the configured chip's longest path.
pub fn icetime(
    dir: &Path,
    asc_name: &str,
    device: Device,
    package: &str,
) -> Result<Icetime, ToolError> {
    let device = device.nextpnr_flag().trim_start_matches('-');
    let log = format!("{asc_name}.icetime.log");
    let out = runner::run(
        Tool::Icetime,
        dir,
        ["-d", device, "-P", package, "-t", asc_name],
        Some(&log),
    )?;
    parse_icetime(&out.stdout)
        .ok_or_else(|| out.unexpected("no `Total path delay: X ns (Y MHz)` line"))
}

/// The `Total path delay: 12.91 ns (77.47 MHz)` line of `icetime -t`.
pub fn parse_icetime(stdout: &str) -> Option<Icetime> {
    let line = stdout
        .lines()
        .rev()
        .find_map(|l| l.trim().strip_prefix("Total path delay:"))?;
    let (ns, rest) = line.trim().split_once(" ns (")?;
    let mhz = rest.strip_suffix(" MHz)")?;
    Some(Icetime {
        path_ns: ns.trim().parse().ok()?,
        fmax_mhz: mhz.trim().parse().ok()?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pcf_for_icebox_vlog_is_plain() {
        let pcf = "# comment\nset_io -nowarn CLK 35     # input\n\
                   set_io -nowarn -pullup yes BTN_N 10\nset_io io_led[3] A1\nset_frequency CLK 12\n";
        assert_eq!(
            vlog_pcf(pcf),
            "set_io CLK 35\nset_io BTN_N 10\nset_io io_led[3] A1\n"
        );
    }

    #[test]
    fn icetime_line_is_read() {
        let out = "\nTotal number of logic levels: 2\nTotal path delay: 12.91 ns (77.47 MHz)\n\n";
        assert_eq!(
            parse_icetime(out),
            Some(Icetime {
                path_ns: 12.91,
                fmax_mhz: 77.47
            })
        );
        assert_eq!(parse_icetime("no timing here"), None);
    }

    #[test]
    fn chip_header_becomes_plain_declarations() {
        let v = "// Reading file 'x.asc'..\n\nmodule chip (output [7:0] \\io_led , inout [1:0] \
                 \\io_dip , output [1:0] \\io_sw , input clk);\n\nwire clk;\nwire \\io_dip[0] ;\n\
                 tran(\\io_dip [0], \\io_dip[0] );\ntran(\\io_led [1], \\io_led[1] );\n\
                 tran(\\io_sw [1], \\io_sw[1] );\nassign \\io_dip[0]  = n9 ? n3 : 1'bz;\n\
                 assign \\io_sw[1]  = n9 ? n9 : 1'bz;\nassign \\io_sw [0] = \\io_sw[0] ;\n\
                 assign \\io_led [0] = \\io_led[0] ;\nassign \\io_led[2]  = n9 ? n9 : 1'bz;\n\
                 reg n5 = 0;\nendmodule\n";
        let ports = chip_ports(v).unwrap();
        assert_eq!(
            ports,
            [
                ChipPort {
                    dir: "output".into(),
                    name: "io_led".into(),
                    range: Some((7, 0))
                },
                ChipPort {
                    dir: "inout".into(),
                    name: "io_dip".into(),
                    range: Some((1, 0))
                },
                ChipPort {
                    dir: "output".into(),
                    name: "io_sw".into(),
                    range: Some((1, 0))
                },
                ChipPort {
                    dir: "input".into(),
                    name: "clk".into(),
                    range: None
                },
            ]
        );
        // io_sw: a pad icebox_vlog calls an output that the top reads (a switch).
        let s = simulation_source(v, &["io_sw", "clk"]).unwrap();
        assert!(
            s.contains("module chip (io_led, io_dip, io_sw, clk);\n"),
            "{s}"
        );
        assert!(s.contains(
            "output [7:0] io_led;\ninput [1:0] io_dip;\ninput [1:0] io_sw;\ninput clk;\n"
        ));
        assert!(s.contains("assign \\io_sw[1] = \\io_sw [1] ;\n"), "{s}");
        assert!(!s.contains("io_sw[1]  = n9"), "{s}");
        assert!(s.contains("assign \\io_sw[0] = \\io_sw [0] ;\n"), "{s}");
        assert!(s.contains("assign \\io_led [0] = \\io_led[0] ;\n"), "{s}");
        // An output's own tri-state driver stays.
        assert!(s.contains("assign \\io_led[2]  = n9 ? n9 : 1'bz;"), "{s}");
        assert!(s.contains("assign \\io_dip[0] = \\io_dip [0] ;\n"), "{s}");
        assert!(s.contains("assign \\io_led [1] = \\io_led[1] ;\n"), "{s}");
        assert!(!s.contains("tran("));
        assert!(!s.contains("io_dip[0]  = n9"));
        assert!(s.contains("reg n5 = 0;"));
    }
}
