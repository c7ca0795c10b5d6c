//! The base every other layer stands on: element types and NumPy's rules between them (`dtype`,
//! `element`), host scalars (`scalar`), and how an array's elements lie in its buffer (`layout`).
//! Nothing here knows about devices, syntax or the interpreter.

pub mod dtype;
pub mod element;
pub mod few;
pub mod interrupt;
pub mod layout;
pub mod scalar;

pub use dtype::DType;
pub use element::Element;
pub use scalar::Scalar;

/// `812 B`, `3.4 KB`, `8.0 MB`: decimal units, one decimal from KB up.
pub fn human_bytes(bytes: f64) -> String {
    const UNITS: [&str; 5] = ["B", "KB", "MB", "GB", "TB"];
    let mut value = bytes;
    let mut unit = 0;
    while value >= 1000.0 && unit < UNITS.len() - 1 {
        value /= 1000.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{} B", bytes as u64)
    } else {
        format!("{value:.1} {}", UNITS[unit])
    }
}
