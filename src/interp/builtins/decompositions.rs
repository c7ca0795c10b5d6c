use super::Builtin;

pub fn builtins() -> Vec<Builtin> {
    vec![]
}
