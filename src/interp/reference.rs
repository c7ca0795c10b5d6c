//! `docs/reference.md`, generated from the tables: the commands, every built-in by area (with
//! the elementwise table's names, operators and dtypes) and the named values. A test keeps the
//! file in step with the tables; `BLESS=1 cargo test --release --lib reference` rewrites it.

use super::builtins;
use super::commands;

fn render() -> String {
    let mut out = String::from(
        "# arrsh reference\n\nGenerated from the tables of commands and built-ins (`src/interp/commands.rs`,\n\
         `src/interp/builtins/`, `src/plan/table.rs`); `:help NAME` shows the same text. The language itself is\n\
         described in [LANGUAGE.md](LANGUAGE.md).\n\n## Commands\n\n| command | does |\n|---|---|\n",
    );
    for c in commands::all() {
        let usage = format!(":{} {}", c.name, c.args);
        // A `|` inside a table cell, even in code, would end the cell.
        let usage = usage.trim_end().replace('|', "\\|");
        out.push_str(&format!("| `{usage}` | {} |\n", c.help.replace('|', "\\|")));
    }
    let mut area = "";
    for b in builtins::all().iter().filter(|b| !builtins::is_shared(b)) {
        if b.area != area {
            area = b.area;
            match builtins::Namespace::find(area) {
                Some(ns) => {
                    out.push_str(&format!("\n## Namespace `{area}`\n\n{}\n\n", ns.doc));
                    if !ns.shared.is_empty() {
                        let shared: Vec<String> =
                            ns.shared.iter().map(|n| format!("`{area}.{n}`")).collect();
                        out.push_str(&format!(
                            "Also {}: the built-ins of the same names.\n\n",
                            shared.join(" ")
                        ));
                    }
                }
                None => out.push_str(&format!("\n## Built-ins: {area}\n\n")),
            }
        }
        let mut lines = b.help().lines().map(str::to_string).collect::<Vec<_>>();
        let signature = lines.remove(0);
        out.push_str(&format!("### `{signature}`\n\n"));
        for line in lines {
            let line = line.trim();
            match line.strip_prefix("example: ") {
                Some(example) => out.push_str(&format!("Example: `{example}`\n\n")),
                None => out.push_str(&format!("{line}\n\n")),
            }
        }
    }
    out.push_str(&format!(
        "## Values\n\n{}\n",
        builtins::CONSTANTS
            .iter()
            .map(|c| format!("`{c}`"))
            .collect::<Vec<_>>()
            .join(" ")
    ));
    out
}

#[test]
fn the_reference_matches_the_tables() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/reference.md");
    let text = render();
    if std::env::var_os("BLESS").is_some() {
        std::fs::write(&path, &text).unwrap();
        return;
    }
    let written = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        written == text,
        "docs/reference.md is out of date: BLESS=1 cargo test --release --lib reference"
    );
}
