//! Any text: the parser returns a program or an error whose position lies in the text, and the
//! error renders.
#![no_main]

use arrsh::error::SourceMap;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut sources = SourceMap::default();
    let id = sources.add("<fuzz>", text);
    if let Err(error) = arrsh::syntax::parse(text, id) {
        let span = error.span.expect("a syntax error has a position");
        assert!(span.start <= span.end && span.start as usize <= text.len());
        sources.render(&error, true);
    }
});
