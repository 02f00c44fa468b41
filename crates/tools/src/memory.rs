//! Peak resident memory (Linux's `VmHWM`) of a process: this one, or a
//! child the benchmark drives.

use std::path::Path;

/// The `VmHWM` line of a `/proc/<pid>/status` text, in MiB.
fn parse_hwm(status: &str) -> Option<f64> {
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: f64 = line.trim_start_matches("VmHWM:").trim().trim_end_matches("kB").trim().parse().ok()?;
    Some(kib / 1024.0)
}

/// This process's peak resident memory so far, in MiB (`None` where
/// `/proc` does not exist).
pub(crate) fn peak_rss_mib() -> Option<f64> {
    parse_hwm(&std::fs::read_to_string("/proc/self/status").ok()?)
}

/// The peak resident memory of the live process `pid`, in MiB.
pub(crate) fn peak_rss_of(pid: u32) -> Option<f64> {
    parse_hwm(&std::fs::read_to_string(Path::new("/proc").join(pid.to_string()).join("status")).ok()?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_status_line() {
        let status = "Name:\tx\nVmPeak:\t  20000 kB\nVmHWM:\t    3072 kB\nVmRSS:\t 1000 kB\n";
        assert_eq!(parse_hwm(status), Some(3.0));
        assert_eq!(parse_hwm("Name:\tx\n"), None);
        assert_eq!(parse_hwm("VmHWM:\tlots kB\n"), None);
    }

    #[test]
    fn this_process_has_a_peak_on_linux() {
        if cfg!(target_os = "linux") {
            assert!(peak_rss_mib().is_some_and(|m| m > 0.0));
        }
    }
}
