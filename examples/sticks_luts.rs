//! Prints the LUT table of docs/sticks-luts.md: the `SB_LUT4` count after `yosys synth_ice40`
//! of both stick strategy implementations (ROM and minimised logic) for take sets {1,2,3},
//! {1,3,4} and {2,5,7} with 18, 20, 100 and 255 sticks (whoever takes the last stick loses).
//!
//! ```sh
//! cargo run --release --example sticks_luts
//! ```
//!
//! Needs yosys on PATH. Work files go to a temporary directory that is removed afterwards.

use retrogate::bench::sticks::{lut_table, lut_table_games};

fn main() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    match lut_table(&lut_table_games(), dir.path()) {
        Ok((_, markdown)) => print!("{markdown}"),
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(1);
        }
    }
}
