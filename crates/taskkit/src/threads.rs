//! The `--threads N` flag of every task.

/// The most worker threads a `--threads` flag accepts, per available core.
pub const THREADS_PER_CORE: usize = 4;

/// The most worker threads a `--threads` flag accepts:
/// [`THREADS_PER_CORE`] × the available cores.
pub fn max_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get()).saturating_mul(THREADS_PER_CORE)
}

/// Why a `--threads` value was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ThreadsError {
    /// Not a whole number.
    #[error("{0:?} is not a whole number of threads")]
    NotANumber(String),
    /// Zero: refused rather than given a meaning.
    #[error("0 threads: give 1 to {max}, or leave --threads out for one per core")]
    Zero {
        /// The most accepted.
        max: usize,
    },
    /// More than [`max_threads`]: thousands of threads would only thrash.
    #[error("{given} threads is too many: at most {max} ({THREADS_PER_CORE} per core)")]
    TooMany {
        /// The value given.
        given: usize,
        /// The most accepted.
        max: usize,
    },
}

/// The value parser of every `--threads N` flag: `1..=`[`max_threads`].
/// 0 is refused rather than given a meaning (leave the flag out for one
/// thread per core), and so is anything above the cap.
///
/// ```
/// assert_eq!(taskkit::threads::parse_threads("2"), Ok(2));
/// assert!(taskkit::threads::parse_threads("0").is_err());
/// ```
pub fn parse_threads(text: &str) -> Result<usize, ThreadsError> {
    let max = max_threads();
    let n: usize = text.trim().parse().map_err(|_| ThreadsError::NotANumber(text.to_string()))?;
    match n {
        0 => Err(ThreadsError::Zero { max }),
        n if n > max => Err(ThreadsError::TooMany { given: n, max }),
        n => Ok(n),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn threads_are_one_to_the_cap() {
        let max = max_threads();
        assert!(max >= THREADS_PER_CORE);
        assert_eq!(parse_threads("1"), Ok(1));
        assert_eq!(parse_threads(&max.to_string()), Ok(max));
        assert!(parse_threads("0").unwrap_err().to_string().contains("leave --threads out"));
        assert!(parse_threads(&(max + 1).to_string()).unwrap_err().to_string().contains("too many"));
        for bad in ["", "x", "-1", "1.5"] {
            assert!(parse_threads(bad).is_err(), "{bad}");
        }
    }
}
