//! The registry of experiments (moved from `reproduce`).

use std::path::{Path, PathBuf};

use ::experiments::reproduce::experiments;
use taskkit::Scale;
use tournament::runner::cell_path;

#[test]
fn cell_ids_and_files_are_unique() {
    for e in experiments::all() {
        for scale in [Scale::Quick, Scale::Default, Scale::Full] {
            let cells = e.cells(scale);
            let files: std::collections::BTreeSet<PathBuf> =
                cells.iter().map(|c| cell_path(Path::new("out"), e.name(), c)).collect();
            assert_eq!(files.len(), cells.len(), "{} at {scale:?}: duplicate cells", e.name());
        }
    }
}
