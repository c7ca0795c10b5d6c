# Names that were never assigned are an error at their use; an inner fn is not a global.
fn outer() {
    fn hidden() { return 1 }
    return hidden()
}
print(outer())
print(hidden())
