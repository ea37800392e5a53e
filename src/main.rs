use std::process::ExitCode;

fn main() -> ExitCode {
    retrogate::cli::main()
}
