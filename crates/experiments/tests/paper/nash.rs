//! The Nash lecture example (moved from `reproduce::experiments::nash`).

use equilibria::{Bimatrix, Options, int, solve};
use experiments::reproduce::Experiment;
use experiments::reproduce::experiments::nash::{Nash, deviation_gains};
use taskkit::Scale;

#[test]
fn the_lecture_example_is_reproduced() {
    let rows = Nash.run_cell(Scale::Quick, "example", 0).unwrap();
    let done = Nash.finish(Scale::Quick, &[("example".into(), rows)]).unwrap();
    assert!(done.markdown.contains("Overall: **reproduced**"), "{}", done.markdown);
    assert!(done.markdown.contains("| confesses / confesses | 3, 3 | 0, 0 | yes |"), "{}", done.markdown);
}

/// The brute force can disagree with the solver: on the battle of the
/// sexes it finds both pure equilibria and nothing else, the solver's
/// pure ones.
#[test]
fn brute_force_finds_the_pure_equilibria_of_another_game() {
    let g = Bimatrix::from_integers(&[vec![2, 0], vec![0, 1]], &[vec![1, 0], vec![0, 2]]).unwrap();
    let brute: Vec<(usize, usize)> = (0..2)
        .flat_map(|i| (0..2).map(move |j| (i, j)))
        .filter(|&(i, j)| {
            let (a, b) = deviation_gains(&g, i, j);
            a <= int(0) && b <= int(0)
        })
        .collect();
    assert_eq!(brute, vec![(0, 0), (1, 1)]);
    let solved = solve(&g, &Options::default()).unwrap();
    let pure_found: Vec<(usize, usize)> = solved
        .equilibria
        .iter()
        .filter(|e| e.support_sizes() == [1, 1])
        .map(|e| (e.row.iter().position(|p| *p == int(1)).unwrap(), e.col.iter().position(|p| *p == int(1)).unwrap()))
        .collect();
    assert_eq!(pure_found.len(), 2);
    assert!(brute.iter().all(|p| pure_found.contains(p)));
}
