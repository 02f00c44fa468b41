//! The outputs' CSV (moved from `reproduce::output`).

use experiments::reproduce::output::csv;
use taskkit::row;

#[test]
fn csv_takes_every_key_and_quotes() {
    let rows = vec![row!("a" => 1, "b" => "x,y"), row!("a" => 2.5, "c" => true)];
    assert_eq!(csv(&rows), "a,b,c\n1,\"x,y\",\n2.5,,true\n");
}
