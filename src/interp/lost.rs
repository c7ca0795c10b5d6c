//! Variables whose gpu arrays went with the gpu's state.
//!
//! When a kernel faults, the device layer marks its context lost and the next gpu operation
//! makes a fresh one where the driver allows it; arrays made before the fault have no elements
//! any more. The interpreter notes where each loss happened, and a name whose value holds such
//! an array is an error that says so where the name is used, instead of a generic device error
//! deep inside an operation.

use super::value::Value;
use crate::error::{device_error, Error, Result, SourceMap, Span};

/// Where each lost gpu context lost its state, by generation.
#[derive(Default)]
pub(super) struct GpuLosses {
    places: Vec<Place>,
}

/// A line of a source, kept as text: the source itself may be forgotten before it is quoted.
struct Place {
    source: String,
    line: usize,
}

impl GpuLosses {
    /// True once the gpu has lost its state in this session: only then are names checked.
    pub(super) fn any(&self) -> bool {
        !self.places.is_empty()
    }

    /// Notes the losses since the last call, as happening where `error` points (the innermost
    /// statement that failed), else at `statement`.
    pub(super) fn note(&mut self, error: Option<&Error>, statement: Span, sources: &SourceMap) {
        let losses = crate::device::gpu::losses() as usize;
        if losses <= self.places.len() {
            return;
        }
        let span = error.and_then(|e| e.span).unwrap_or(statement);
        let place = |sources: &SourceMap| Place {
            source: sources
                .get(span.source)
                .map_or_else(String::new, |s| s.name.clone()),
            line: sources.line_of(span),
        };
        while self.places.len() < losses {
            self.places.push(place(sources));
        }
    }

    /// The error for `name`, used at `at`, when `value` holds a gpu array lost with the gpu's
    /// state.
    pub(super) fn check(
        &self,
        name: &str,
        value: &Value,
        at: Span,
        sources: &SourceMap,
    ) -> Result<()> {
        let Some((generation, directly)) = lost_in(value) else {
            return Ok(());
        };
        let place = match self.places.get(generation as usize) {
            Some(p) => {
                let here = sources.get(at.source).map(|s| s.name.as_str());
                if here == Some(p.source.as_str()) {
                    format!(" at line {}", p.line)
                } else {
                    format!(" at line {} of {}", p.line, p.source)
                }
            }
            None => String::new(),
        };
        let held = if directly {
            "was"
        } else {
            "holds an array that was"
        };
        // Whether making it again can work: the driver may refuse a fresh context for the
        // rest of the process (today's drivers do, after a fault).
        let advice = if crate::device::gpu::availability().is_ok() {
            "make it again"
        } else {
            "restart arrsh to use the gpu again (CUDA cannot start it again in this process)"
        };
        Err(device_error(format!(
            "`{name}` {held} on the gpu when its state was lost{place}; {advice}"
        ))
        .at(at))
    }
}

/// The generation of the gpu context that an array in `value` was lost with, and whether
/// `value` is that array itself (not a list or record holding it).
fn lost_in(value: &Value) -> Option<(u32, bool)> {
    match value {
        Value::Array(a) => a.storage().lost_generation().map(|g| (g, true)),
        Value::List(items) | Value::Tuple(items) => items
            .iter()
            .find_map(|v| lost_in(v).map(|(g, _)| (g, false))),
        Value::Record(r) => r
            .fields
            .iter()
            .find_map(|(_, v)| lost_in(v).map(|(g, _)| (g, false))),
        _ => None,
    }
}
