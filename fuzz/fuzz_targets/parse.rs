//! Any text: the parser returns a program or an error whose position lies in the text, and the
//! error renders.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        if let Err(problem) = arrsh::interp::bounded::check_parse(text) {
            panic!("{problem}");
        }
    }
});
