//! icepack: turn nextpnr's ASCII bitstream into a binary one.

use std::path::{Path, PathBuf};

use super::runner::{self, Tool, ToolError};

/// Pack `asc` into `dir/<bin_name>` and return its path.
pub fn pack(dir: &Path, asc: &Path, bin_name: &str) -> Result<PathBuf, ToolError> {
    let bin = dir.join(bin_name);
    let log = format!("{bin_name}.icepack.log");
    runner::run(
        Tool::Icepack,
        dir,
        [asc.as_os_str(), bin.as_os_str()],
        Some(&log),
    )?
    .expect_file(bin)
}
