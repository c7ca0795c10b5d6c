//! Reclaiming closures that keep each other alive.
//!
//! A nested function that calls itself captures the cell that holds it, and two that call each
//! other capture each other's cells: reference counts never reach zero, and each call of the
//! enclosing function used to leak its closures. Python's collector finds such cycles by "trial
//! deletion", and so does this one, over the only objects that can form them here: closures and
//! the cells they capture (globals are looked up by slot, never captured).
//!
//! For every tracked closure and captured cell, the references from other tracked objects are
//! counted; an object with more references than that is held from outside (a frame, a variable,
//! a list, an argument being evaluated) and is live, with everything it reaches. The cells left
//! over can be reached by nothing that runs, so emptying them frees their cycles. A list or record
//! in a cycle is counted as outside, so such a cycle is kept: never freed wrongly, only possibly
//! not freed.

use std::rc::{Rc, Weak};

use rustc_hash::{FxHashMap, FxHashSet};

use super::value::{CellRef, Closure, Value};

/// Collections run when the tracked closures double, and not below this many.
const FIRST_COLLECTION: usize = 256;

pub struct Closures {
    tracked: Vec<Weak<Closure>>,
    next_collection: usize,
}

impl Default for Closures {
    fn default() -> Closures {
        Closures {
            tracked: Vec::new(),
            next_collection: FIRST_COLLECTION,
        }
    }
}

impl Closures {
    /// Tracks a new closure; now and then, frees the cycles no one can reach.
    pub fn track(&mut self, closure: &Rc<Closure>) {
        self.tracked.push(Rc::downgrade(closure));
        if self.tracked.len() >= self.next_collection {
            self.collect();
        }
    }

    /// The sources that the functions alive now were defined in.
    pub fn sources_in_use(&self) -> FxHashSet<u32> {
        self.tracked
            .iter()
            .filter_map(Weak::upgrade)
            .map(|c| c.decl.span.source)
            .collect()
    }

    /// The closures alive now.
    pub fn live(&self) -> usize {
        self.tracked.iter().filter(|w| w.strong_count() > 0).count()
    }

    /// Frees every cycle of closures and cells that nothing outside them reaches.
    pub fn collect(&mut self) {
        self.tracked.retain(|w| w.strong_count() > 0);
        let freed = {
            let graph = Graph::of(self.tracked.iter().filter_map(Weak::upgrade).collect());
            graph.unreachable_contents()
        };
        // Dropped only now that no cell is borrowed: this frees the cycles.
        drop(freed);
        self.tracked.retain(|w| w.strong_count() > 0);
        self.next_collection = (2 * self.tracked.len()).max(FIRST_COLLECTION);
    }
}

/// The tracked closures (held here, one reference each) and the cells they capture.
struct Graph {
    closures: Vec<Rc<Closure>>,
    cells: Vec<CellRef>,
    closure_index: FxHashMap<*const Closure, usize>,
    cell_index: FxHashMap<*const (), usize>,
}

impl Graph {
    fn of(closures: Vec<Rc<Closure>>) -> Graph {
        let closure_index = closures
            .iter()
            .enumerate()
            .map(|(i, c)| (Rc::as_ptr(c), i))
            .collect();
        let mut cells: Vec<CellRef> = Vec::new();
        let mut cell_index = FxHashMap::default();
        for cell in closures.iter().flat_map(|c| &c.captured) {
            cell_index
                .entry(Rc::as_ptr(cell).cast::<()>())
                .or_insert_with(|| {
                    cells.push(cell.clone());
                    cells.len() - 1
                });
        }
        Graph {
            closures,
            cells,
            closure_index,
            cell_index,
        }
    }

    /// The tracked closure a value is, if it is one.
    fn closure_in(&self, value: &Value) -> Option<usize> {
        match value {
            Value::Function(f) => self.closure_index.get(&Rc::as_ptr(f)).copied(),
            _ => None,
        }
    }

    /// What a closure refers to: its cells, and the closures among its default values.
    fn closure_edges(&self, k: usize) -> (Vec<usize>, Vec<usize>) {
        let closure = &self.closures[k];
        let cells = closure
            .captured
            .iter()
            .map(|c| self.cell_index[&Rc::as_ptr(c).cast::<()>()])
            .collect();
        let defaults = closure
            .defaults
            .iter()
            .flatten()
            .filter_map(|v| self.closure_in(v))
            .collect();
        (cells, defaults)
    }

    /// The closure a cell holds, if tracked; a cell being written counts as held from outside.
    fn cell_edge(&self, k: usize) -> Result<Option<usize>, ()> {
        let content = self.cells[k].try_borrow().map_err(|_| ())?;
        Ok(content.as_ref().and_then(|v| self.closure_in(v)))
    }

    /// The contents of the cells that nothing outside the graph reaches, taken out of them.
    fn unreachable_contents(&self) -> Vec<Value> {
        let (n_closures, n_cells) = (self.closures.len(), self.cells.len());
        // References from inside the graph; the graph's own clones are one more each.
        let mut closure_refs = vec![1usize; n_closures];
        let mut cell_refs = vec![1usize; n_cells];
        let mut busy_cell = vec![false; n_cells];
        for k in 0..n_closures {
            let (cells, defaults) = self.closure_edges(k);
            cells.into_iter().for_each(|c| cell_refs[c] += 1);
            defaults.into_iter().for_each(|f| closure_refs[f] += 1);
        }
        for (k, busy) in busy_cell.iter_mut().enumerate() {
            match self.cell_edge(k) {
                Ok(Some(f)) => closure_refs[f] += 1,
                Ok(None) => {}
                Err(()) => *busy = true,
            }
        }
        // Marked: held from outside, or reached from something that is.
        let mut closure_live: Vec<bool> = (0..n_closures)
            .map(|k| Rc::strong_count(&self.closures[k]) > closure_refs[k])
            .collect();
        let mut cell_live: Vec<bool> = (0..n_cells)
            .map(|k| busy_cell[k] || Rc::strong_count(&self.cells[k]) > cell_refs[k])
            .collect();
        let mut closures_to_visit: Vec<usize> =
            (0..n_closures).filter(|&k| closure_live[k]).collect();
        let mut cells_to_visit: Vec<usize> = (0..n_cells).filter(|&k| cell_live[k]).collect();
        while !closures_to_visit.is_empty() || !cells_to_visit.is_empty() {
            while let Some(k) = closures_to_visit.pop() {
                let (cells, defaults) = self.closure_edges(k);
                for c in cells {
                    if !std::mem::replace(&mut cell_live[c], true) {
                        cells_to_visit.push(c);
                    }
                }
                for f in defaults {
                    if !std::mem::replace(&mut closure_live[f], true) {
                        closures_to_visit.push(f);
                    }
                }
            }
            while let Some(k) = cells_to_visit.pop() {
                if let Ok(Some(f)) = self.cell_edge(k) {
                    if !std::mem::replace(&mut closure_live[f], true) {
                        closures_to_visit.push(f);
                    }
                }
            }
        }
        (0..n_cells)
            .filter(|&k| !cell_live[k])
            .filter_map(|k| self.cells[k].borrow_mut().take())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use crate::interp::Interpreter;

    fn session() -> Interpreter {
        Interpreter::new(Box::new(std::io::sink()), Box::new(std::io::sink()))
    }

    fn run(interp: &mut Interpreter, code: &str) {
        interp.run_source("<test>", code, false).expect(code);
    }

    #[test]
    fn recursive_and_mutually_recursive_closures_are_freed() {
        let mut interp = session();
        run(
            &mut interp,
            "fn count(n) { fn down(k) { if k <= 0 { return 0 } return down(k - 1) + 1 } return down(n) }
             fn parity(n) {
                 fn even(k) { if k == 0 { return true } return odd(k - 1) }
                 fn odd(k) { if k == 0 { return false } return even(k - 1) }
                 return even(n)
             }
             for i in range(2000) { count(3); parity(4) }",
        );
        // Only the two top-level functions are left.
        assert_eq!(interp.live_closures(), 2);
    }

    #[test]
    fn closures_that_escape_keep_working_through_collections() {
        let mut interp = session();
        run(
            &mut interp,
            "fn make() { fn f(k) { if k <= 0 { return 0 } return f(k - 1) + 2 } return f }
             keep = make()
             held = [make()]
             for i in range(2000) { make() }",
        );
        // `make` and the two kept closures survive, and those still reach themselves.
        assert_eq!(interp.live_closures(), 3);
        run(&mut interp, "assert(keep(3) == 6)\nassert(held[0](4) == 8)");
        run(&mut interp, "keep = 0\nheld = 0");
        assert_eq!(interp.live_closures(), 1);
    }

    #[test]
    fn a_running_recursive_closure_is_not_freed() {
        let mut interp = session();
        // Each level makes closures (and so collections) while the outer ones run.
        run(
            &mut interp,
            "fn outer(n) {
                 fn step(k) {
                     for i in range(300) { fn junk() { return junk } }
                     if k <= 0 { return 0 }
                     return step(k - 1) + 1
                 }
                 return step(n)
             }
             assert(outer(5) == 5)",
        );
        assert_eq!(interp.live_closures(), 1);
    }

    #[test]
    fn a_function_keeps_its_line_for_errors_while_other_lines_are_forgotten() {
        let mut interp = session();
        run(&mut interp, "fn bad(v) {\n    return v + \"text\"\n}");
        for n in 0..1000 {
            run(&mut interp, &format!("x{} = {n}", n % 10));
        }
        assert!(
            interp.sources.len() <= 3,
            "{} sources kept",
            interp.sources.len()
        );
        let error = interp.run_source("<call>", "bad(1)", false).unwrap_err();
        let shown = interp.sources.render(&error, false);
        assert!(shown.contains("2 |     return v + \"text\""), "{shown}");
    }
}
