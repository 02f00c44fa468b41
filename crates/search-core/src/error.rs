//! Typed errors shared by every crate of the workspace.

use thiserror::Error;

/// An error from a game: an illegal move, a malformed string, a finished game.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum GameError {
    /// The move is not legal in this position.
    #[error("illegal move {mv}: {reason}")]
    IllegalMove {
        /// The move as the user wrote it (or as the game prints it).
        mv: String,
        /// Why it is illegal ("column full", "cell occupied", ...).
        reason: String,
    },
    /// The game is already over: no move can be played.
    #[error("the game is over")]
    GameOver,
    /// A move, position or tree string could not be parsed.
    #[error("cannot parse {what} {input:?} at byte {position}: {reason}")]
    Parse {
        /// What was being parsed ("move", "position", "tree", ...).
        what: &'static str,
        /// The input (or the offending part of it).
        input: String,
        /// Byte offset of the error in the input.
        position: usize,
        /// What went wrong.
        reason: String,
    },
    /// A parameter of a game or of a search is out of its domain.
    #[error(transparent)]
    Param(#[from] ParamError),
    /// A value the search was given is not a number (an evaluator that
    /// returned NaN).
    #[error("{what} is NaN at state {state}")]
    InvalidValue {
        /// Which value ("static evaluation").
        what: &'static str,
        /// The state, as its `Debug` form (shortened).
        state: String,
    },
    /// A chance node's probabilities are not a distribution over its
    /// outcomes.
    #[error("invalid chance probabilities at state {state}: {reason}")]
    InvalidChance {
        /// The state, as its `Debug` form (shortened).
        state: String,
        /// What is wrong.
        reason: String,
    },
    /// A player was asked to move where chance moves (dice, shuffles).
    #[error("the state is a chance node: chance moves, not a player")]
    ChanceNode,
}

impl GameError {
    /// Shorthand for a [`GameError::Parse`] error.
    ///
    /// ```
    /// use search_core::GameError;
    /// let e = GameError::parse("move", "z9", 0, "unknown column");
    /// assert!(e.to_string().contains("unknown column"));
    /// ```
    /// The input is [shortened](GameError::shorten) for the message (a
    /// 50 MB line is never echoed back); `position` still counts bytes of
    /// the whole input.
    pub fn parse(what: &'static str, input: impl Into<String>, position: usize, reason: impl Into<String>) -> Self {
        GameError::Parse { what, input: Self::shorten(&input.into()), position, reason: reason.into() }
    }

    /// Shortens a state's or an input's text for an error message: at most
    /// 160 characters, cut at a character boundary, with `…` when cut (a
    /// 50 MB line is never echoed back).
    ///
    /// ```
    /// use search_core::GameError;
    /// assert_eq!(GameError::shorten("abc"), "abc");
    /// assert_eq!(GameError::shorten(&"x".repeat(1000)).chars().count(), 161);
    /// ```
    pub fn shorten(text: &str) -> String {
        const MAX: usize = 160;
        match text.char_indices().nth(MAX) {
            None => text.to_string(),
            Some((i, _)) => format!("{}…", &text[..i]),
        }
    }

    /// Shorthand for a [`GameError::IllegalMove`] error.
    pub fn illegal(mv: impl Into<String>, reason: impl Into<String>) -> Self {
        GameError::IllegalMove { mv: mv.into(), reason: reason.into() }
    }
}

/// An invalid parameter: a temperature that is not positive, a probability
/// outside `[0, 1]`, a distribution that does not sum to one, a zero depth...
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("invalid parameter `{name}`: {reason}")]
pub struct ParamError {
    /// The parameter's name, as documented.
    pub name: &'static str,
    /// What is wrong with it.
    pub reason: String,
}

impl ParamError {
    /// Creates a parameter error.
    ///
    /// ```
    /// use search_core::ParamError;
    /// let e = ParamError::new("theta", "must be > 0, got -1");
    /// assert_eq!(e.to_string(), "invalid parameter `theta`: must be > 0, got -1");
    /// ```
    pub fn new(name: &'static str, reason: impl Into<String>) -> Self {
        ParamError { name, reason: reason.into() }
    }

    /// Checks that `value` is finite and strictly positive.
    ///
    /// ```
    /// use search_core::ParamError;
    /// assert!(ParamError::positive("theta", 0.5).is_ok());
    /// assert!(ParamError::positive("theta", 0.0).is_err());
    /// assert!(ParamError::positive("theta", f64::NAN).is_err());
    /// ```
    pub fn positive(name: &'static str, value: f64) -> Result<f64, ParamError> {
        if value.is_finite() && value > 0.0 {
            Ok(value)
        } else {
            Err(ParamError::new(name, format!("must be finite and > 0, got {value}")))
        }
    }

    /// Checks that `value` is a probability: finite and within `[0, 1]`.
    pub fn probability(name: &'static str, value: f64) -> Result<f64, ParamError> {
        if (0.0..=1.0).contains(&value) {
            Ok(value)
        } else {
            Err(ParamError::new(name, format!("must be within [0, 1], got {value}")))
        }
    }

    /// Checks that `probs` is a probability distribution: every entry in
    /// `[0, 1]` and a sum within `1e-9` of one.
    ///
    /// ```
    /// use search_core::ParamError;
    /// assert!(ParamError::distribution("p", &[0.25, 0.75]).is_ok());
    /// assert!(ParamError::distribution("p", &[0.5, 0.6]).is_err());
    /// assert!(ParamError::distribution("p", &[]).is_err());
    /// ```
    pub fn distribution(name: &'static str, probs: &[f64]) -> Result<(), ParamError> {
        if probs.is_empty() {
            return Err(ParamError::new(name, "empty distribution"));
        }
        for &p in probs {
            Self::probability(name, p)?;
        }
        let sum: f64 = probs.iter().sum();
        if (sum - 1.0).abs() > 1e-9 {
            return Err(ParamError::new(name, format!("probabilities sum to {sum}, not 1")));
        }
        Ok(())
    }
}
