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

/// The pins `icebox_vlog` left out of its read-back (`Warning: unmatched port '\io_led[13] '`):
/// pads it found no IO cell for. It does so for an output pad in the tile of a placed PLL (on
/// the Alchitry Cu, pin A6 shares tile (16, 33) with the PLL that clocks the solver design).
pub fn unmatched_pins(verilog: &str) -> Vec<String> {
    verilog
        .lines()
        .filter_map(|l| l.trim().strip_prefix("// Warning: unmatched port '"))
        .filter_map(|rest| rest.split('\'').next())
        .map(|name| name.trim().trim_start_matches('\\').trim().to_owned())
        .collect()
}

/// The folders where icestorm installs its chip databases (`chipdb-8k.txt`, ...): Debian's
/// package, then icestorm's own `make install`.
const CHIPDB_DIRS: [&str; 2] = ["/usr/share/fpga-icestorm/chipdb", "/usr/local/share/icebox"];

/// The pad of `pin` on `package` of `device`, as icestorm's chip database gives it: the IO
/// tile `(x, y)` and the cell in it (0 or 1).
pub fn pin_site(device: Device, package: &str, pin: &str) -> Result<(u32, u32, u32), String> {
    let file = match device {
        Device::Hx1k => "chipdb-1k.txt",
        Device::Hx8k | Device::Lp8k => "chipdb-8k.txt",
        Device::Up5k => "chipdb-5k.txt",
    };
    let Some(text) = CHIPDB_DIRS
        .iter()
        .find_map(|d| std::fs::read_to_string(Path::new(d).join(file)).ok())
    else {
        return Err(format!(
            "icestorm's chip database {file} is not in {}: install fpga-icestorm (`make` \
             installs it)",
            CHIPDB_DIRS.join(" or ")
        ));
    };
    let header = format!(".pins {package}");
    let mut lines = text.lines().skip_while(|l| l.trim() != header).skip(1);
    lines
        .by_ref()
        .take_while(|l| !l.starts_with('.'))
        .find_map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            match w[..] {
                [name, x, y, z] if name == pin => {
                    Some((x.parse().ok()?, y.parse().ok()?, z.parse().ok()?))
                }
                _ => None,
            }
        })
        .ok_or_else(|| format!("pin {pin} is not a pad of package {package} in {file}"))
}

/// `verilog` (icebox_vlog's read-back) with the pins it left out ([`unmatched_pins`])
/// connected again: each such pin of `pcf` (`set_io <pin> <location>` lines) is driven by the
/// net its pad's `D_OUT_0` is routed from, found by the routing comments icebox_vlog writes
/// under each net (`// (16, 33, 'io_1/D_OUT_0')`), as a plain (unregistered) output. A pin
/// whose pad has no routed `D_OUT_0` is an error naming it.
pub fn reconnect_unmatched(
    verilog: &str,
    pcf: &str,
    device: Device,
    package: &str,
) -> Result<String, String> {
    let pins = unmatched_pins(verilog);
    if pins.is_empty() {
        return Ok(verilog.to_owned());
    }
    let mut added = String::new();
    for pin in &pins {
        let location = pcf
            .lines()
            .filter_map(|l| l.trim().strip_prefix("set_io "))
            .map(|l| l.split_whitespace().collect::<Vec<_>>())
            .find(|w| w.first() == Some(&pin.as_str()))
            .and_then(|w| w.get(1).map(|s| (*s).to_owned()))
            .ok_or_else(|| {
                format!("icebox_vlog left out pin {pin}, which the PCF does not place")
            })?;
        let (x, y, z) = pin_site(device, package, &location)?;
        let site = format!("// ({x}, {y}, 'io_{z}/D_OUT_0')");
        let mut net = None;
        let mut current: Option<&str> = None;
        for line in verilog.lines() {
            let t = line.trim();
            if let Some(rest) = t.strip_prefix("wire ").or_else(|| t.strip_prefix("reg ")) {
                current = rest.split([' ', ';']).next();
            } else if t == site {
                net = current;
                break;
            }
        }
        let net = net.ok_or_else(|| {
            format!(
                "icebox_vlog left out pin {pin} ({location}, IO tile ({x}, {y}) cell {z}) and no \
                 net is routed to its pad's output"
            )
        })?;
        added.push_str(&format!(
            "// {pin}: left out by icebox_vlog; its pad's D_OUT_0 is {net} (retrogate)\n\
             wire \\{pin} ;\nassign \\{pin}  = {net};\n"
        ));
    }
    let start = verilog
        .find(&format!("module {CHIP_MODULE} ("))
        .ok_or("icebox_vlog's Verilog has no `module chip (...)` header")?;
    let end = start
        + verilog[start..]
            .find(");")
            .ok_or("icebox_vlog's module header does not end")?
        + 2;
    Ok(format!("{}\n{added}{}", &verilog[..end], &verilog[end..]))
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
/// to the wire); a port of the top's outputs that `icebox_vlog` declared an input (it does for
/// some pads, e.g. the Alchitry Io's LEDs in a design with a PLL) becomes an output driven by
/// the chip's wire; and the `1'bz` drivers of input pins are dropped (the chip's drive of a pin
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
    // Pads of the top's outputs that icebox_vlog declared as inputs (it does so for some of
    // them, e.g. the Alchitry Io's LEDs when a PLL is placed): their port bits drive the
    // chip's wires (`assign \\io_led[23] = \\io_led [23];`), where the chip drives the pin.
    let misread =
        |name: &str| !is_input(name) && ports.iter().any(|p| p.name == name && p.dir == "input");
    for p in &ports {
        let dir = if is_input(&p.name) {
            "input"
        } else if misread(&p.name) {
            "output"
        } else {
            &p.dir
        };
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
        // The other way for an output pin icebox_vlog took for an input: the chip's wire
        // drives the port bit.
        if let Some((lhs, rhs)) = t
            .strip_prefix("assign ")
            .and_then(|r| r.strip_suffix(';'))
            .and_then(|r| r.split_once(" = "))
        {
            let rhs = rhs.trim();
            if rhs.starts_with('\\')
                && rhs.contains(" [")
                && !lhs.contains(" [")
                && misread(&base(rhs))
            {
                out.push_str(&format!("assign {rhs} = {} ;\n", lhs.trim()));
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

    #[test]
    fn pins_icebox_vlog_left_out_are_listed() {
        let v = "module chip (input clk);\nendmodule\n// Warning: unmatched port '\\io_led[13] '\n\
                 // Warning: unmatched port 'LED1'\n";
        assert_eq!(unmatched_pins(v), ["io_led[13]", "LED1"]);
        assert!(unmatched_pins("module chip (input clk);\nendmodule\n").is_empty());
        // Nothing left out: the read-back is unchanged.
        let same = reconnect_unmatched(
            "module chip (input clk);\nendmodule\n",
            "",
            Device::Hx8k,
            "cb132",
        );
        assert_eq!(same.as_deref(), Ok("module chip (input clk);\nendmodule\n"));
    }

    /// The Alchitry Cu's pin A6 shares its IO tile (16, 33) with the PLL: the pad's output
    /// net, found by its routing comment, drives the pin again. Reads icestorm's chip
    /// database.
    #[cfg(feature = "external-tools")]
    #[test]
    fn a_pin_left_out_is_driven_from_its_pads_output_net() {
        assert_eq!(pin_site(Device::Hx8k, "cb132", "A6"), Ok((16, 33, 1)));
        assert!(pin_site(Device::Hx8k, "cb132", "Z99").is_err());
        let v = "module chip (input clk, input [13:13] \\io_led );\n\nwire n5;\n\
                 // (16, 33, 'padin_1')\nwire n756;\n// (16, 33, 'io_1/D_OUT_0')\n\
                 // (16, 33, 'local_g1_2')\nassign n756 = clk;\nendmodule\n\
                 // Warning: unmatched port '\\io_led[13] '\n";
        let pcf = "set_io clk P7\nset_io io_led[13] A6\n";
        let s = reconnect_unmatched(v, pcf, Device::Hx8k, "cb132").unwrap();
        assert!(
            s.contains(
                ");\n// io_led[13]: left out by icebox_vlog; its pad's D_OUT_0 is n756 \
                        (retrogate)\nwire \\io_led[13] ;\nassign \\io_led[13]  = n756;\n"
            ),
            "{s}"
        );
        // A pad nothing is routed to is an error naming the pin.
        let e = reconnect_unmatched(
            &v.replace("io_1/D_OUT_0", "io_0/D_OUT_0"),
            pcf,
            Device::Hx8k,
            "cb132",
        )
        .unwrap_err();
        assert!(e.contains("io_led[13]") && e.contains("A6"), "{e}");
    }

    #[test]
    fn an_output_pin_read_back_as_an_input_is_driven_by_the_chip() {
        // As icebox_vlog reads the Alchitry Cu solver's bitstream: the LEDs' pads declared as
        // inputs, their port bits assigned to the chip's wires.
        let v = "module chip (input clk, input [1:0] \\io_led , input rst_n);\n\
                 wire \\io_led[1] ;\nassign \\io_led[0]  = \\io_led[1] ;\n\
                 assign \\io_led[1] = \\io_led [1];\nassign \\io_led[0] = \\io_led [0];\n\
                 assign \\io_led[1]  = n7;\nendmodule\n";
        let s = simulation_source(v, &["clk", "rst_n"]).unwrap();
        assert!(
            s.contains("input clk;\noutput [1:0] io_led;\ninput rst_n;\n"),
            "{s}"
        );
        assert!(s.contains("assign \\io_led [1] = \\io_led[1] ;\n"), "{s}");
        assert!(s.contains("assign \\io_led [0] = \\io_led[0] ;\n"), "{s}");
        assert!(!s.contains("= \\io_led [1]"), "{s}");
        // The chip's own drivers stay.
        assert!(s.contains("assign \\io_led[1]  = n7;"), "{s}");
        assert!(s.contains("assign \\io_led[0]  = \\io_led[1] ;"), "{s}");
    }
}
