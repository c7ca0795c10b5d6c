//! Text → syntax tree: `source` prepares the text, `parser` builds the tree from the pest grammar
//! (`grammar/arr.pest`), `resolve` assigns every name its storage slot.

pub mod ast;
mod parser;
pub mod resolve;
pub mod source;

pub use parser::parse;
