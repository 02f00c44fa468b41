//! Retrograde analysis: every position's distance to mate, from the mates
//! backwards, one ply at a time.
//!
//! 1. Every legal position is visited once: checkmates are lost in 0,
//!    stalemates drawn; its moves that stay in the table are counted (as
//!    distinct successor indices); its captures and promotions are looked
//!    up in the smaller tables (a winning one queues a win at its
//!    distance, a drawing one means the position can never be lost).
//! 2. Level by level (plies 0, 1, 2, ...): a position lost in `d` makes
//!    every predecessor (found by un-moves) not yet decided a win in
//!    `d + 1`; a position won in `d` takes one from each predecessor's
//!    count, and a predecessor whose count reaches zero (every move loses)
//!    is lost in one more than its longest defence.
//! 3. What is still undecided is a draw.

use std::collections::HashMap;
use std::sync::Arc;

use super::board::{Layout, Step};
use super::{DRAW, INVALID, Material, Progress, Table, TablebaseError, code_of};

/// `aux` value of a position that can never be lost (a capture or
/// promotion draws or wins).
const NO_LOSS: u8 = u8::MAX;

/// The longest distance (in plies) a table can hold.
pub(super) const MAX_PLIES: u32 = 253;

/// Generates the table of `material`, using (and adding to) `subtables`
/// for the materials its captures and promotions lead to.
pub(super) fn generate(
    material: &Material,
    subtables: &mut HashMap<Material, Arc<Table>>,
    progress: &mut dyn FnMut(Progress<'_>),
) -> Result<Table, TablebaseError> {
    for sub in material.successors() {
        if !subtables.contains_key(&sub) {
            let t = generate(&sub, subtables, progress)?;
            subtables.insert(sub, Arc::new(t));
        }
    }
    let layout = Layout::new(material);
    let size = layout.size();
    let mut values = vec![DRAW; size as usize];
    // Moves left that do not lose (in-table successors not yet won by the
    // opponent).
    let mut counts = vec![0u8; size as usize];
    // The longest loss through a capture or promotion (plies), or NO_LOSS.
    let mut aux = vec![0u8; size as usize];
    let mut queue: Vec<Vec<u32>> = vec![Vec::new(); MAX_PLIES as usize + 2];
    let mut succ: Vec<u32> = Vec::with_capacity(64);
    let name = material.to_string();
    let report_every = (size / 100).max(1);

    for idx in 0..size {
        if idx % report_every == 0 {
            progress(Progress { material: &name, phase: "positions", done: u64::from(idx), total: u64::from(size) });
        }
        let p = layout.decode(idx);
        if !layout.legal(&p) || layout.index(&p) != idx {
            values[idx as usize] = INVALID;
            continue;
        }
        succ.clear();
        let mut any = false;
        let mut best_exit_win: Option<u32> = None;
        let mut longest_exit_loss: u32 = 0;
        let mut no_loss = false;
        let mut failure = None;
        layout.moves(&p, |step| {
            any = true;
            match step {
                Step::Inside(next) => succ.push(layout.index(&next)),
                Step::Exit(board) => match super::probe_board(subtables, &board) {
                    Ok(Some(d)) => match d {
                        // The opponent, to move after the exit, loses in k.
                        super::Dtm::Loss(k) => {
                            best_exit_win = Some(best_exit_win.map_or(k + 1, |w| w.min(k + 1)));
                        }
                        super::Dtm::Win(k) => longest_exit_loss = longest_exit_loss.max(k + 1),
                        super::Dtm::Draw => no_loss = true,
                    },
                    Ok(None) => failure = Some(format!("no table for a capture or promotion from {name}")),
                    Err(e) => failure = Some(e.to_string()),
                },
            }
        });
        if let Some(f) = failure {
            return Err(TablebaseError::Material(f));
        }
        if !any {
            if layout.in_check(&p) {
                values[idx as usize] = code_of(0);
                queue[0].push(idx);
            }
            continue;
        }
        succ.sort_unstable();
        succ.dedup();
        counts[idx as usize] = succ.len() as u8;
        aux[idx as usize] =
            if no_loss || best_exit_win.is_some() { NO_LOSS } else { longest_exit_loss.min(MAX_PLIES) as u8 };
        if let Some(w) = best_exit_win {
            if w > MAX_PLIES {
                return Err(TablebaseError::Material(format!("{name}: a distance above {MAX_PLIES} plies")));
            }
            queue[w as usize].push(idx);
        } else if succ.is_empty() && !no_loss {
            // Every move is a capture or promotion, and each loses.
            let d = longest_exit_loss;
            values[idx as usize] = code_of(d);
            queue[d as usize].push(idx);
        }
    }

    let mut preds: Vec<u32> = Vec::with_capacity(256);
    // Positions already propagated: a position can be queued twice at one
    // level (a capture and a move inside the table win equally fast).
    let mut done = vec![0u64; (size as usize).div_ceil(64)];
    for level in 0..=MAX_PLIES {
        progress(Progress { material: &name, phase: "retrograde", done: u64::from(level), total: 0 });
        let batch = std::mem::take(&mut queue[level as usize]);
        for idx in batch {
            let v = values[idx as usize];
            if v == DRAW {
                // A win through a capture or promotion, not found shorter.
                values[idx as usize] = code_of(level);
            } else if u32::from(v) != level + 1 {
                continue; // decided at another level
            }
            let (word, bit) = (idx as usize / 64, 1u64 << (idx % 64));
            if done[word] & bit != 0 {
                continue;
            }
            done[word] |= bit;
            let p = layout.decode(idx);
            preds.clear();
            layout.unmoves(&p, |q| preds.push(layout.index(&q)));
            preds.sort_unstable();
            preds.dedup();
            let lost = level % 2 == 0;
            for &q in &preds {
                let qi = q as usize;
                if values[qi] != DRAW {
                    continue;
                }
                if lost {
                    if level + 1 > MAX_PLIES {
                        return Err(TablebaseError::Material(format!("{name}: a distance above {MAX_PLIES} plies")));
                    }
                    values[qi] = code_of(level + 1);
                    queue[level as usize + 1].push(q);
                } else if aux[qi] != NO_LOSS {
                    counts[qi] -= 1;
                    if counts[qi] == 0 {
                        let d = (level + 1).max(u32::from(aux[qi]));
                        if d > MAX_PLIES {
                            return Err(TablebaseError::Material(format!(
                                "{name}: a distance above {MAX_PLIES} plies"
                            )));
                        }
                        values[qi] = code_of(d);
                        queue[d as usize].push(q);
                    }
                }
            }
        }
    }
    Ok(Table::from_values(material.clone(), values))
}
