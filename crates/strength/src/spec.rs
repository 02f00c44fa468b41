//! Agents written as text: `random`, `alphabeta:depth=6`,
//! `boltzmann:depth=3,theta=2`, `elo:1500`, `uci:/usr/games/stockfish,UCI_Elo=1500`.
//!
//! The grammar is `KIND[:ITEM[,ITEM...]]`, where an item is `key=value`
//! or, first only, a bare argument (`elo:1500`'s rating, `uci:PATH`'s
//! path). Keys are checked by whoever builds the agent
//! ([`SpecReader::take`], [`SpecReader::finish`]): an unknown or repeated key
//! is an error naming the keys the kind accepts, never silently ignored.
//!
//! ```
//! use strength::spec::AgentSpec;
//! let s: AgentSpec = "rminimax:depth=4,theta=0.5".parse()?;
//! assert_eq!(s.kind(), "rminimax");
//! assert_eq!(s.get("theta"), Some("0.5"));
//! assert_eq!(s.to_string(), "rminimax:depth=4,theta=0.5");
//! let e: AgentSpec = "elo:1500".parse()?;
//! assert_eq!(e.argument(), Some("1500"));
//! # Ok::<(), strength::spec::SpecError>(())
//! ```

use std::fmt;
use std::str::FromStr;

use search_core::policy::ScoreCap;

/// An error in an agent spec: the spec, and what is wrong with it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("agent spec {spec:?}: {message}")]
pub struct SpecError {
    /// The spec as given (shortened if very long).
    pub spec: String,
    /// What is wrong.
    pub message: String,
}

impl SpecError {
    /// An error about `spec`.
    pub fn new(spec: impl fmt::Display, message: impl Into<String>) -> Self {
        let mut spec = spec.to_string();
        if spec.len() > 200 {
            let mut cut = 200;
            while !spec.is_char_boundary(cut) {
                cut -= 1;
            }
            spec.truncate(cut);
            spec.push('…');
        }
        SpecError { spec, message: message.into() }
    }
}

/// A parsed agent spec.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AgentSpec {
    kind: String,
    argument: Option<String>,
    params: Vec<(String, String)>,
}

impl AgentSpec {
    /// A spec of `kind` with no items.
    pub fn new(kind: impl Into<String>) -> Self {
        AgentSpec { kind: kind.into(), argument: None, params: Vec::new() }
    }

    /// Adds (or replaces) `key=value`.
    #[must_use]
    pub fn with(mut self, key: &str, value: impl fmt::Display) -> Self {
        let value = value.to_string();
        match self.params.iter_mut().find(|p| p.0 == key) {
            Some(p) => p.1 = value,
            None => self.params.push((key.to_string(), value)),
        }
        self
    }

    /// Sets the bare argument.
    #[must_use]
    pub fn with_argument(mut self, argument: impl Into<String>) -> Self {
        self.argument = Some(argument.into());
        self
    }

    /// The kind: `alphabeta`, `elo`...
    pub fn kind(&self) -> &str {
        &self.kind
    }

    /// The bare argument, if any (`1500` in `elo:1500`).
    pub fn argument(&self) -> Option<&str> {
        self.argument.as_deref()
    }

    /// The `key=value` items, in the order written.
    pub fn params(&self) -> &[(String, String)] {
        &self.params
    }

    /// The value of `key`, if given.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.params.iter().find(|p| p.0 == key).map(|p| p.1.as_str())
    }

    /// The value scale given by `cap=C` (hard) or `softcap=C` (soft), if
    /// either is: see [`SpecReader::take_score_cap`]. For reading a spec
    /// that names an existing curve (a dial's `boltzmann:depth=D,softcap=C`);
    /// an agent's builder reads it with its reader, so that `finish` knows
    /// the keys were read.
    ///
    /// ```
    /// use search_core::policy::ScoreCap;
    /// use strength::spec::AgentSpec;
    /// let s: AgentSpec = "boltzmann:depth=2,softcap=10000".parse()?;
    /// assert_eq!(s.score_cap()?, Some(ScoreCap::Soft(10000.0)));
    /// assert_eq!("boltzmann:depth=2".parse::<AgentSpec>()?.score_cap()?, None);
    /// assert!("boltzmann:depth=2,cap=5,softcap=5".parse::<AgentSpec>()?.score_cap().is_err());
    /// assert!("boltzmann:depth=2,cap=-1".parse::<AgentSpec>()?.score_cap().is_err());
    /// # Ok::<(), strength::spec::SpecError>(())
    /// ```
    pub fn score_cap(&self) -> Result<Option<ScoreCap>, SpecError> {
        self.reader().take_score_cap()
    }

    /// Starts reading this spec's items: see [`SpecReader`].
    pub fn reader(&self) -> SpecReader<'_> {
        SpecReader { spec: self, used: vec![false; self.params.len()], argument_used: false }
    }

    fn error(&self, message: impl Into<String>) -> SpecError {
        SpecError::new(self, message)
    }
}

/// Reads a spec's items once each, parsing values, and at the end refuses
/// any item left unread.
///
/// ```
/// use strength::spec::AgentSpec;
/// let s: AgentSpec = "alphabeta:depth=6,nodes=1000,colour=red".parse()?;
/// let mut r = s.reader();
/// assert_eq!(r.take::<u32>("depth")?, Some(6));
/// assert_eq!(r.take::<u64>("nodes")?, Some(1000));
/// let e = r.finish(&["depth", "nodes"]).unwrap_err();
/// assert!(e.message.contains("colour"));
/// # Ok::<(), strength::spec::SpecError>(())
/// ```
#[derive(Debug)]
pub struct SpecReader<'a> {
    spec: &'a AgentSpec,
    used: Vec<bool>,
    argument_used: bool,
}

impl SpecReader<'_> {
    /// The value of `key` parsed as `T`, or `None` if absent. A value that
    /// does not parse is an error naming the key.
    pub fn take<T: FromStr>(&mut self, key: &str) -> Result<Option<T>, SpecError> {
        let Some(i) = self.spec.params.iter().position(|p| p.0 == key) else {
            return Ok(None);
        };
        self.used[i] = true;
        let text = &self.spec.params[i].1;
        text.parse::<T>()
            .map(Some)
            .map_err(|_| self.spec.error(format!("{key}={text}: not a valid {}", short_type_name::<T>())))
    }

    /// The value scale: `cap=C` (a hard cap, [`ScoreCap::Hard`]) or
    /// `softcap=C` (`C·tanh(v/C)`, [`ScoreCap::Soft`]), or `None` if
    /// neither is given. Errors: both given, or a value that is not a
    /// finite positive number.
    pub fn take_score_cap(&mut self) -> Result<Option<ScoreCap>, SpecError> {
        let hard: Option<f64> = self.take("cap")?;
        let soft: Option<f64> = self.take("softcap")?;
        let cap = match (hard, soft) {
            (Some(_), Some(_)) => return Err(self.spec.error("give `cap` (hard) or `softcap`, not both")),
            (Some(c), None) => ScoreCap::hard(c),
            (None, Some(c)) => ScoreCap::soft(c),
            (None, None) => return Ok(None),
        };
        cap.map(Some).map_err(|e| self.spec.error(e.to_string()))
    }

    /// Like [`take`](Self::take), but the key must be present.
    pub fn require<T: FromStr>(&mut self, key: &str) -> Result<T, SpecError> {
        self.take(key)?.ok_or_else(|| self.spec.error(format!("{} needs {key}=...", self.spec.kind)))
    }

    /// The bare argument parsed as `T`; `what` names it in errors.
    pub fn argument<T: FromStr>(&mut self, what: &str) -> Result<T, SpecError> {
        self.argument_used = true;
        let text = self.spec.argument.as_deref().ok_or_else(|| {
            self.spec.error(format!("{} needs {what} after the colon, e.g. {}:...", self.spec.kind, self.spec.kind))
        })?;
        text.parse::<T>().map_err(|_| self.spec.error(format!("{text:?} is not a valid {what}")))
    }

    /// The `key=value` items not read yet, marking them read (for kinds that
    /// pass unknown items on, such as an external engine's options).
    pub fn rest(&mut self) -> Vec<(String, String)> {
        let mut out = Vec::new();
        for (i, p) in self.spec.params.iter().enumerate() {
            if !self.used[i] {
                self.used[i] = true;
                out.push(p.clone());
            }
        }
        out
    }

    /// Succeeds if every item was read; otherwise names the first unread
    /// one and the keys the kind accepts (`known`).
    pub fn finish(self, known: &[&str]) -> Result<(), SpecError> {
        if self.spec.argument.is_some() && !self.argument_used {
            return Err(self.spec.error(format!("{} takes no bare argument", self.spec.kind)));
        }
        if let Some(i) = self.used.iter().position(|u| !u) {
            let accepted = if known.is_empty() { "none".to_string() } else { known.join(", ") };
            return Err(self.spec.error(format!(
                "unknown key {:?} for {} (it accepts: {accepted})",
                self.spec.params[i].0, self.spec.kind
            )));
        }
        Ok(())
    }
}

fn short_type_name<T>() -> &'static str {
    let name = std::any::type_name::<T>();
    match name {
        "f64" | "f32" => "number",
        "u32" | "u64" | "usize" | "u8" | "u16" => "non-negative integer",
        "i32" | "i64" => "integer",
        "bool" => "boolean (true/false)",
        _ => name.rsplit("::").next().unwrap_or(name),
    }
}

impl FromStr for AgentSpec {
    type Err = SpecError;

    fn from_str(text: &str) -> Result<Self, SpecError> {
        let text = text.trim();
        let (kind, rest) = match text.split_once(':') {
            Some((k, r)) => (k.trim(), Some(r)),
            None => (text, None),
        };
        if kind.is_empty() {
            return Err(SpecError::new(text, "empty agent kind (e.g. alphabeta:depth=6)"));
        }
        if !kind.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_') {
            return Err(SpecError::new(text, format!("bad agent kind {kind:?}")));
        }
        let mut spec = AgentSpec::new(kind.to_ascii_lowercase());
        let Some(rest) = rest else { return Ok(spec) };
        if rest.trim().is_empty() {
            return Err(SpecError::new(text, "nothing after the colon"));
        }
        for (i, item) in rest.split(',').enumerate() {
            let item = item.trim();
            if item.is_empty() {
                return Err(SpecError::new(text, "an empty item (two commas in a row?)"));
            }
            match item.split_once('=') {
                Some((k, v)) => {
                    let (k, v) = (k.trim(), v.trim());
                    if k.is_empty() || v.is_empty() {
                        return Err(SpecError::new(text, format!("item {item:?}: expected key=value")));
                    }
                    if spec.get(k).is_some() {
                        return Err(SpecError::new(text, format!("key {k:?} given twice")));
                    }
                    spec.params.push((k.to_string(), v.to_string()));
                }
                None if i == 0 => spec.argument = Some(item.to_string()),
                None => return Err(SpecError::new(text, format!("item {item:?}: expected key=value"))),
            }
        }
        Ok(spec)
    }
}

impl fmt::Display for AgentSpec {
    /// The canonical text: parses back to an equal spec.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.kind)?;
        let mut sep = ':';
        if let Some(a) = &self.argument {
            write!(f, "{sep}{a}")?;
            sep = ',';
        }
        for (k, v) in &self.params {
            write!(f, "{sep}{k}={v}")?;
            sep = ',';
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_of_the_interface_parse_and_print_back() {
        for text in [
            "random",
            "alphabeta:depth=6",
            "rminimax:depth=4,theta=0.5",
            "boltzmann:depth=3,theta=2",
            "epsilon:depth=4,eps=0.1",
            "iom:depth=3",
            "elo:1500",
            "uci:/usr/games/stockfish,UCI_LimitStrength=true,UCI_Elo=1500",
        ] {
            let s: AgentSpec = text.parse().unwrap();
            assert_eq!(s.to_string(), text);
            assert_eq!(s.to_string().parse::<AgentSpec>().unwrap(), s);
        }
        let s: AgentSpec = "uci:/usr/games/stockfish,UCI_Elo=1500".parse().unwrap();
        assert_eq!(s.argument(), Some("/usr/games/stockfish"));
        assert_eq!(s.get("UCI_Elo"), Some("1500"));
    }

    #[test]
    fn malformed_specs_are_errors() {
        for text in
            ["", ":x", "alphabeta:", "alphabeta:depth=", "alphabeta:=3", "a:b,c", "a:x=1,,y=2", "a b", "a:x=1,x=2"]
        {
            assert!(text.parse::<AgentSpec>().is_err(), "{text:?}");
        }
    }

    #[test]
    fn reader_checks_values_and_leftovers() {
        let s: AgentSpec = "alphabeta:depth=six".parse().unwrap();
        let e = s.reader().take::<u32>("depth").unwrap_err();
        assert!(e.message.contains("depth=six"), "{e}");
        let s: AgentSpec = "alphabeta".parse().unwrap();
        assert!(s.reader().require::<u32>("depth").unwrap_err().message.contains("needs depth"));
        let s: AgentSpec = "random:7".parse().unwrap();
        assert!(s.reader().finish(&[]).unwrap_err().message.contains("no bare argument"));
        let s: AgentSpec = "elo".parse().unwrap();
        assert!(s.reader().argument::<f64>("rating").is_err());
    }
}
