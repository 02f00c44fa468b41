//! A calibration ladder: the settings whose ratings the strength dial
//! interpolates between, and which of them play each other.
//!
//! A ladder is a few *curves*. Each curve is one searching player (a depth,
//! an evaluation cap) made weaker by sampling its moves with a Boltzmann
//! temperature: spec `BASE,theta=T` for each θ of the curve, from near
//! random play (small θ) to near greedy play, topped by the greedy player
//! itself (θ = +∞, e.g. `alphabeta:depth=D`). Uniform random play is the
//! anchor at Elo 0. Neighbouring rungs play paired matches: each rung its
//! next two up its curve, and the rung at the nearest θ one curve up
//! ([`Ladder::schedule`]).
//!
//! A curve may turn another *knob* than θ ([`Curve::over`]): a count such as
//! an engine's node budget (`kibitz:nodes=N`), strongest at its largest
//! value, with no infinite top. Such a curve extends the dial above the
//! curves below it; their scales of θ and of the knob have nothing in
//! common, so the curve below links to it by strength instead: its top
//! plays the new curve's two weakest rungs.
//!
//! Optional *reference players* with a published rating (an external
//! engine's levels, say) play some of the rungs; the fitted scale is then
//! mapped onto theirs.

use serde::{Deserialize, Serialize};

/// The knob of a Boltzmann curve.
pub const THETA: &str = "theta";

/// One curve of a ladder: `base,KNOB=V` for each value `V` of its knob
/// (θ unless [`Curve::over`] says otherwise), topped by `top`.
///
/// ```
/// use tournament::ladder::Curve;
///
/// let c = Curve::new("boltzmann:depth=2,cap=100", &[0.01, 0.1], "alphabeta:depth=2");
/// assert_eq!(c.rung(0.1), "boltzmann:depth=2,cap=100,theta=0.1");
/// let n = Curve::over("kibitz", "nodes", &[1000.0, 4000.0]);
/// assert_eq!(n.rung(1000.0), "kibitz:nodes=1000");
/// assert!(n.top.is_none() && !n.from_random);
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Curve {
    /// The spec without its knob, e.g. `boltzmann:depth=2,cap=100`.
    pub base: String,
    /// The values of its knob (θ for a Boltzmann curve), increasing.
    pub thetas: Vec<f64>,
    /// The greedy top (θ = +∞), e.g. `alphabeta:depth=2`; `None` for a
    /// curve whose strongest setting is its last rung ([`Curve::over`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub top: Option<String>,
    /// Whether random play meets the curve's weakest rung. A curve that
    /// starts far above random play (a deep search whose rungs only extend
    /// the dial's top) would win every such game, which costs much and says
    /// nothing.
    #[serde(default = "yes")]
    pub from_random: bool,
    /// The key its rungs set: [`THETA`] (the default), or a count such as
    /// `nodes` ([`Curve::over`]).
    #[serde(default = "theta_knob", skip_serializing_if = "is_theta")]
    pub knob: String,
    /// Whether its rungs are one program at several strengths whose games
    /// among themselves magnify the differences (an engine at node
    /// budgets): the fit then gives those games a
    /// [self-play scale](strength::rating::FitOptions::self_play_groups)
    /// ([`Curve::self_play`]).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub self_play: bool,
}

fn yes() -> bool {
    true
}

fn theta_knob() -> String {
    THETA.to_string()
}

fn is_theta(knob: &String) -> bool {
    knob == THETA
}

impl Curve {
    /// A curve that random play meets at its weakest rung.
    pub fn new(base: impl Into<String>, thetas: &[f64], top: impl Into<String>) -> Self {
        Curve {
            base: base.into(),
            thetas: thetas.to_vec(),
            top: Some(top.into()),
            from_random: true,
            knob: theta_knob(),
            self_play: false,
        }
    }

    /// A curve of `base` with its knob `knob` (a count, e.g. `nodes`) at
    /// each of `values`, increasing: strongest at its last rung, with no
    /// top, and [above random play](Curve::above_random). The dial rounds
    /// the knob to a whole number.
    pub fn over(base: impl Into<String>, knob: impl Into<String>, values: &[f64]) -> Self {
        Curve {
            base: base.into(),
            thetas: values.to_vec(),
            top: None,
            from_random: false,
            knob: knob.into(),
            self_play: false,
        }
    }

    /// The same curve with a [self-play scale](Self::self_play) fitted for
    /// the games between its rungs.
    ///
    /// ```
    /// use tournament::ladder::Curve;
    ///
    /// let c = Curve::over("kibitz", "nodes", &[1000.0, 4000.0]).self_play();
    /// assert!(c.self_play);
    /// ```
    #[must_use]
    pub fn self_play(mut self) -> Self {
        self.self_play = true;
        self
    }

    /// The same curve, not met by random play (see [`Curve::from_random`]).
    #[must_use]
    pub fn above_random(mut self) -> Self {
        self.from_random = false;
        self
    }

    /// The spec of its rung where its knob is `value`.
    pub fn rung(&self, value: f64) -> String {
        let separator = if self.base.contains(':') { ',' } else { ':' };
        format!("{}{separator}{}={value}", self.base, self.knob)
    }
}

/// A reference player with a published rating.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Reference {
    /// Its agent spec.
    pub spec: String,
    /// Its rating on the published scale.
    pub elo: f64,
    /// The rungs (specs) it plays; empty: the ladder's
    /// [`links`](Ladder::links).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub links: Vec<String>,
}

/// A game's ladder: its curves, optional reference players, and the pairs
/// of games each matchup and each held-out check plays.
///
/// Serializable (JSON), so that a ladder is data that can be committed
/// beside the calibration it produced.
///
/// ```
/// use tournament::ladder::Ladder;
///
/// // Depths 1 and 2 of the standard agents, values capped at 100.
/// let ladder = Ladder::boltzmann(&[1, 2], &[0.01, 0.03, 0.1, 0.3], "cap=100").with_pairs(200);
/// let schedule = ladder.schedule();
/// assert_eq!(schedule.rungs[0], "random");
/// assert_eq!(schedule.rungs.len(), 1 + 2 * 5);
/// assert_eq!(Ladder::from_json(&ladder.to_json())?, ladder);
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Ladder {
    /// The curves, weakest search first.
    pub curves: Vec<Curve>,
    /// Reference players, each playing its own links or else every rung in
    /// [`links`](Self::links); the fitted scale is mapped onto theirs.
    #[serde(default)]
    pub references: Vec<Reference>,
    /// The name of the references' scale (e.g. `Stockfish UCI_Elo`),
    /// recorded as the calibration's anchor.
    #[serde(default)]
    pub reference_scale: Option<String>,
    /// The rungs (specs) every reference without links of its own plays.
    #[serde(default)]
    pub links: Vec<String>,
    /// Pairs of games per matchup.
    pub pairs: usize,
    /// Pairs of games per held-out match (enough that the games' sampling
    /// noise stays well below the accuracy asked of the dial).
    pub held_out_pairs: usize,
    /// How the held-out check chooses its matches.
    #[serde(default, skip_serializing_if = "HeldOutDesign::is_default")]
    pub held_out_design: HeldOutDesign,
}

/// How the held-out check chooses the dial values of its matches. The
/// weaker side A of the `k`-th match (of ten) sits at 3% + 7%·`k` of the
/// dial's range in both designs; they differ in how far above it the
/// stronger side B is.
///
/// ```
/// use tournament::ladder::{HeldOutDesign, Ladder};
///
/// let ladder = Ladder::boltzmann(&[1], &[0.1, 1.0], "")
///     .with_held_out_design(HeldOutDesign::PredictedScore { first: 0.1, last: 0.35 });
/// assert_eq!(Ladder::from_json(&ladder.to_json())?, ladder);
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "by")]
pub enum HeldOutDesign {
    /// B above A by a share of the dial's range: 12% + 3%·`k`. On a long
    /// range the matches are lopsided (a predicted score of A of a few
    /// per cent), so they test the rating model's tail.
    #[default]
    RangeFraction,
    /// B where A's predicted score is `first` for the first match, `last`
    /// for the tenth, and evenly between (or the dial's top where even it
    /// is predicted to score more than that against A): the matches test
    /// the model at the gaps a user sets between two players.
    PredictedScore {
        /// A's predicted score in the first match, in (0, 0.5).
        first: f64,
        /// A's predicted score in the tenth match, in (0, 0.5).
        last: f64,
    },
}

impl HeldOutDesign {
    fn is_default(&self) -> bool {
        *self == HeldOutDesign::default()
    }
}

/// The default pairs per matchup of [`Ladder::boltzmann`].
pub const DEFAULT_PAIRS: usize = 200;

/// The default pairs per held-out match of [`Ladder::boltzmann`].
pub const DEFAULT_HELD_OUT_PAIRS: usize = 150;

/// The rungs of a ladder (random play first) and its matchups.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Schedule {
    /// Every rung's spec: random play, then each curve's rungs and top, then
    /// the references.
    pub rungs: Vec<String>,
    /// The matchups, as indices into `rungs`.
    pub matchups: Vec<(usize, usize)>,
}

impl Schedule {
    /// Whether a chain of matchups links every rung to random play (the
    /// anchor): otherwise some rungs' ratings cannot be fitted.
    ///
    /// ```
    /// use tournament::ladder::Ladder;
    /// assert!(Ladder::boltzmann(&[1, 2], &[0.1, 1.0], "").schedule().connected());
    /// ```
    pub fn connected(&self) -> bool {
        let mut reached = vec![false; self.rungs.len()];
        if let Some(anchor) = reached.first_mut() {
            *anchor = true;
        }
        let mut grew = true;
        while grew {
            grew = false;
            for &(a, b) in &self.matchups {
                if reached[a] != reached[b] {
                    reached[a] = true;
                    reached[b] = true;
                    grew = true;
                }
            }
        }
        reached.iter().all(|&r| r)
    }
}

impl Ladder {
    /// A ladder of the standard agents' Boltzmann players: one curve per
    /// depth in `depths` (`boltzmann:depth=D,CAP,theta=T` for each θ in
    /// `thetas`, topped by `alphabeta:depth=D`), with [`DEFAULT_PAIRS`] and
    /// [`DEFAULT_HELD_OUT_PAIRS`]. `cap` is the evaluation cap option of
    /// the `boltzmann` spec, e.g. `cap=100` (values beyond ±100 count as
    /// ±100: a decisive advantage in the evaluator's units) or
    /// `softcap=1000`; empty for none.
    ///
    /// Pick θ so that each curve runs from near random play to near its
    /// top: a Boltzmann player picks moves with probability ∝ exp(θ·value),
    /// so θ ≈ 0.3 / (a typical difference between good and bad moves) is
    /// near random and 30 times that near greedy.
    pub fn boltzmann(depths: &[u32], thetas: &[f64], cap: &str) -> Self {
        let cap = if cap.is_empty() { String::new() } else { format!(",{cap}") };
        Ladder {
            curves: depths
                .iter()
                .map(|d| Curve::new(format!("boltzmann:depth={d}{cap}"), thetas, format!("alphabeta:depth={d}")))
                .collect(),
            references: Vec::new(),
            reference_scale: None,
            links: Vec::new(),
            pairs: DEFAULT_PAIRS,
            held_out_pairs: DEFAULT_HELD_OUT_PAIRS,
            held_out_design: HeldOutDesign::default(),
        }
    }

    /// The same ladder with `pairs` pairs of games per matchup.
    #[must_use]
    pub fn with_pairs(mut self, pairs: usize) -> Self {
        self.pairs = pairs;
        self
    }

    /// The same ladder with `pairs` pairs of games per held-out match.
    #[must_use]
    pub fn with_held_out_pairs(mut self, pairs: usize) -> Self {
        self.held_out_pairs = pairs;
        self
    }

    /// The same ladder with the held-out matches chosen by `design`.
    #[must_use]
    pub fn with_held_out_design(mut self, design: HeldOutDesign) -> Self {
        self.held_out_design = design;
        self
    }

    /// The ladder as JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a ladder serializes")
    }

    /// A ladder from JSON.
    pub fn from_json(text: &str) -> Result<Self, serde_json::Error> {
        serde_json::from_str(text)
    }

    /// The rungs of the ladder (random play first) and the matchups between
    /// them: random play against each curve's weakest rung (where the curve
    /// [starts at random play](Curve::from_random)); each rung against the
    /// next two up its curve; each rung against the rung of the nearest θ
    /// on the next curve (top to top), or, where the next curve turns
    /// another knob, the curve's top (its strongest setting) against the
    /// next curve's two weakest rungs; each reference against its links.
    pub fn schedule(&self) -> Schedule {
        let mut rungs = vec!["random".to_string()];
        let mut index = Vec::new(); // per curve: rung indices, top (if any) last
        for c in &self.curves {
            let mut ids = Vec::new();
            for &t in &c.thetas {
                rungs.push(c.rung(t));
                ids.push(rungs.len() - 1);
            }
            if let Some(top) = &c.top {
                rungs.push(top.clone());
                ids.push(rungs.len() - 1);
            }
            index.push(ids);
        }
        let mut matchups = Vec::new();
        for reference in &self.references {
            rungs.push(reference.spec.clone());
            let r = rungs.len() - 1;
            let links = if reference.links.is_empty() { &self.links } else { &reference.links };
            for link in links {
                if let Some(i) = rungs.iter().position(|x| x == link) {
                    matchups.push((i, r));
                }
            }
        }
        for (k, ids) in index.iter().enumerate() {
            if self.curves[k].from_random
                && let Some(&first) = ids.first()
            {
                matchups.push((0, first));
            }
            let up = index.get(k + 1).map(|up| (up, links_up(&self.curves[k], &self.curves[k + 1])));
            for i in 0..ids.len() {
                for step in [1, 2] {
                    if i + step < ids.len() {
                        matchups.push((ids[i], ids[i + step]));
                    }
                }
                if let Some((up, links)) = &up {
                    matchups.extend(links.iter().filter(|l| l.0 == i).map(|&(_, j)| (ids[i], up[j])));
                }
            }
        }
        Schedule { rungs, matchups }
    }

    /// The curve (its base) and knob value (θ) of the rung `spec`: random
    /// play is θ = 0 on no curve, a top θ = +∞; `(None, None)` for a spec
    /// not on a curve (a reference).
    pub fn place_of(&self, spec: &str) -> (Option<String>, Option<f64>) {
        if spec == "random" {
            return (None, Some(0.0));
        }
        for c in &self.curves {
            if c.top.as_deref() == Some(spec) {
                return (Some(c.base.clone()), Some(f64::INFINITY));
            }
            for &t in &c.thetas {
                if spec == c.rung(t) {
                    return (Some(c.base.clone()), Some(t));
                }
            }
        }
        (None, None)
    }

    /// Each of `rungs`' self-play group (see [`Curve::self_play`]): the
    /// index of the self-play curve it lies on, `None` off such curves;
    /// `None` altogether when no curve has the scale.
    ///
    /// ```
    /// use tournament::ladder::{Curve, Ladder};
    ///
    /// let mut ladder = Ladder::boltzmann(&[1], &[0.1], "");
    /// let rungs = ["random", "boltzmann:depth=1,theta=0.1", "kibitz:nodes=1000", "kibitz:nodes=4000"];
    /// let rungs: Vec<String> = rungs.iter().map(|s| s.to_string()).collect();
    /// assert_eq!(ladder.self_play_groups(&rungs), None);
    /// ladder.curves.push(Curve::over("kibitz", "nodes", &[1000.0, 4000.0]).self_play());
    /// assert_eq!(ladder.self_play_groups(&rungs), Some(vec![None, None, Some(1), Some(1)]));
    /// ```
    pub fn self_play_groups(&self, rungs: &[String]) -> Option<Vec<Option<u32>>> {
        if !self.curves.iter().any(|c| c.self_play) {
            return None;
        }
        let group = |spec: &String| {
            let (curve, _) = self.place_of(spec);
            let i = self.curves.iter().position(|c| c.self_play && Some(&c.base) == curve.as_ref())?;
            u32::try_from(i).ok()
        };
        Some(rungs.iter().map(group).collect())
    }

    /// The curves with a [self-play scale](Curve::self_play), by base.
    pub fn self_play_curves(&self) -> Vec<String> {
        self.curves.iter().filter(|c| c.self_play).map(|c| c.base.clone()).collect()
    }

    /// The knob of each curve that turns another than θ: `(base, knob)`.
    pub fn knobs(&self) -> Vec<(String, String)> {
        self.curves.iter().filter(|c| c.knob != THETA).map(|c| (c.base.clone(), c.knob.clone())).collect()
    }
}

/// The matchups between curve `c` and the next curve `up`, as pairs of
/// indices into their rungs (top last, where there is one). Same knob: each
/// rung of `c` plays [`cross_link`]'s rung. Another knob: `c`'s strongest
/// setting plays `up`'s two weakest rungs.
fn links_up(c: &Curve, up: &Curve) -> Vec<(usize, usize)> {
    let rungs = c.thetas.len() + usize::from(c.top.is_some());
    let up_rungs = up.thetas.len() + usize::from(up.top.is_some());
    if rungs == 0 || up_rungs == 0 {
        return Vec::new();
    }
    if c.knob != up.knob {
        return (0..up_rungs.min(2)).map(|j| (rungs - 1, j)).collect();
    }
    (0..rungs).filter_map(|i| cross_link(c, up, i).map(|j| (i, j))).collect()
}

/// The rung of curve `up` that rung `i` of curve `c` plays (an index into
/// `up`'s rungs, top last): top to top, otherwise the rung of the nearest θ
/// on a log scale (the same θ when `up` has it), the lower on a tie, if it
/// is within a factor of 3 of θ; none otherwise (a curve that covers only
/// part of the other's θ range, whose far rungs would meet players of
/// another strength altogether).
fn cross_link(c: &Curve, up: &Curve, i: usize) -> Option<usize> {
    let Some(&theta) = c.thetas.get(i) else { return up.top.as_ref().map(|_| up.thetas.len()) };
    let distance = |t: f64| (t.ln() - theta.ln()).abs();
    (0..up.thetas.len())
        .min_by(|&a, &b| distance(up.thetas[a]).total_cmp(&distance(up.thetas[b])))
        .filter(|&j| distance(up.thetas[j]) <= 3f64.ln() + 1e-9)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_default_ladder_is_connected_and_links_equal_theta_and_tops() {
        let l = Ladder::boltzmann(&[1, 2, 3], &[0.01, 0.03, 0.1], "softcap=1000");
        let s = l.schedule();
        assert!(s.connected());
        assert!(s.matchups.iter().all(|&(a, b)| a != b));
        let has = |a: &str, b: &str| {
            let (i, j) = (s.rungs.iter().position(|r| r == a).unwrap(), s.rungs.iter().position(|r| r == b).unwrap());
            s.matchups.contains(&(i, j))
        };
        assert!(has("random", "boltzmann:depth=1,softcap=1000,theta=0.01"));
        assert!(has("boltzmann:depth=1,softcap=1000,theta=0.03", "boltzmann:depth=2,softcap=1000,theta=0.03"));
        assert!(has("alphabeta:depth=2", "alphabeta:depth=3"));
        // Per curve of four rungs (three θ and the top): one matchup from
        // random play and 3 + 2 within (steps 1 and 2); four links up from
        // every curve but the last.
        assert_eq!(s.matchups.len(), 3 * (1 + 5) + 2 * 4);
    }

    #[test]
    fn a_curve_above_random_links_only_where_it_overlaps() {
        let mut l = Ladder::boltzmann(&[8], &[0.003, 0.01, 0.03, 0.1, 0.3], "cap=100");
        l.curves.push(Curve::new("boltzmann:depth=12,cap=100", &[0.1, 0.3, 1.0], "alphabeta:depth=12").above_random());
        let s = l.schedule();
        assert!(s.connected());
        let named: Vec<(String, String)> =
            s.matchups.iter().map(|&(a, b)| (s.rungs[a].clone(), s.rungs[b].clone())).collect();
        let crossing: Vec<_> = named.iter().filter(|(a, b)| a.contains("depth=12") != b.contains("depth=12")).collect();
        assert_eq!(crossing.len(), 3, "{crossing:?}");
        assert!(!named.iter().any(|(a, b)| a == "random" && b.contains("depth=12")));
    }

    #[test]
    fn references_play_their_links_and_rungs_have_places() {
        let mut l = Ladder::boltzmann(&[1], &[0.1], "");
        l.references.push(Reference { spec: "uci:/engine,nodes=1000".into(), elo: 1500.0, links: Vec::new() });
        l.links = vec!["alphabeta:depth=1".into(), "not a rung".into()];
        let s = l.schedule();
        let r = s.rungs.iter().position(|x| x.starts_with("uci:")).unwrap();
        assert_eq!(s.matchups.iter().filter(|m| m.1 == r).count(), 1);
        assert_eq!(l.place_of("boltzmann:depth=1,theta=0.1"), (Some("boltzmann:depth=1".into()), Some(0.1)));
        assert_eq!(l.place_of("alphabeta:depth=1"), (Some("boltzmann:depth=1".into()), Some(f64::INFINITY)));
        assert_eq!(l.place_of("random"), (None, Some(0.0)));
        assert_eq!(l.place_of("uci:/engine,nodes=1000"), (None, None));
    }

    #[test]
    fn a_curve_over_another_knob_links_by_strength_and_references_play_their_own_links() {
        let mut l = Ladder::boltzmann(&[1, 2], &[0.01, 0.1], "cap=100");
        l.curves.push(Curve::over("kibitz", "nodes", &[1000.0, 2000.0, 4000.0]));
        l.links = vec!["alphabeta:depth=2".into()];
        l.references = vec![
            Reference { spec: "uci:/sf,UCI_Elo=1350".into(), elo: 1350.0, links: Vec::new() },
            Reference {
                spec: "uci:/sf,UCI_Elo=1900".into(),
                elo: 1900.0,
                links: vec!["kibitz:nodes=2000".into(), "kibitz:nodes=4000".into()],
            },
        ];
        let s = l.schedule();
        assert!(s.connected());
        let named: Vec<(String, String)> =
            s.matchups.iter().map(|&(a, b)| (s.rungs[a].clone(), s.rungs[b].clone())).collect();
        let has = |a: &str, b: &str| named.iter().any(|(x, y)| x == a && y == b);
        // Depth 2's top meets the node curve's two weakest rungs, nothing else crosses.
        assert!(has("alphabeta:depth=2", "kibitz:nodes=1000"));
        assert!(has("alphabeta:depth=2", "kibitz:nodes=2000"));
        let crossing = named.iter().filter(|(a, b)| !a.starts_with("kibitz") && b.starts_with("kibitz")).count();
        assert_eq!(crossing, 2, "{named:?}"); // from depth 2's top only
        // Within the node curve: steps of one and two; never random play.
        assert!(has("kibitz:nodes=1000", "kibitz:nodes=4000"));
        assert!(!named.iter().any(|(a, b)| a == "random" && b.starts_with("kibitz")));
        // Each reference plays its own links, or the ladder's.
        assert!(has("alphabeta:depth=2", "uci:/sf,UCI_Elo=1350"));
        assert!(has("kibitz:nodes=4000", "uci:/sf,UCI_Elo=1900"));
        assert!(!has("alphabeta:depth=2", "uci:/sf,UCI_Elo=1900"));
        assert_eq!(l.place_of("kibitz:nodes=2000"), (Some("kibitz".into()), Some(2000.0)));
        assert_eq!(l.knobs(), vec![("kibitz".to_string(), "nodes".to_string())]);
        assert_eq!(Ladder::from_json(&l.to_json()).unwrap(), l);
    }

    #[test]
    fn a_rung_no_matchup_reaches_is_not_connected() {
        let mut s = Ladder::boltzmann(&[1], &[0.1], "").schedule();
        assert!(s.connected());
        s.rungs.push("alphabeta:depth=9".into());
        assert!(!s.connected());
        s.matchups.push((2, 3));
        assert!(s.connected());
    }

    #[test]
    fn a_theta_ladder_serializes_as_before() {
        // Ladders saved before knobs, links per reference and curves without
        // a top existed write (and read) the same JSON.
        let l = Ladder::boltzmann(&[1], &[0.1], "cap=100");
        let json = l.to_json();
        assert!(json.contains("\"top\": \"alphabeta:depth=1\"") && !json.contains("knob"), "{json}");
    }

    #[test]
    fn a_ladder_without_optional_fields_reads_from_json() {
        let text = r#"{"curves":[{"base":"boltzmann:depth=1","thetas":[0.1],"top":"alphabeta:depth=1"}],
                      "pairs":10,"held_out_pairs":5}"#;
        let l = Ladder::from_json(text).unwrap();
        assert!(l.curves[0].from_random && l.references.is_empty());
        assert!(Ladder::from_json(r#"{"curves":[]}"#).is_err());
    }
}
