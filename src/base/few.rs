//! `Few`: up to three items (an elementwise operation's arguments or their dtypes) as a plain
//! value, without a heap allocation or a check of where they live on each access.

use std::hash::{Hash, Hasher};

#[derive(Clone, Copy)]
pub struct Few<T: Copy + Default> {
    items: [T; 3],
    len: u8,
}

impl<T: Copy + Default> FromIterator<T> for Few<T> {
    /// Panics past three items: no row of the table has more inputs.
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Few<T> {
        let mut few = Few {
            items: [T::default(); 3],
            len: 0,
        };
        for item in iter {
            few.items[usize::from(few.len)] = item;
            few.len += 1;
        }
        few
    }
}

impl<T: Copy + Default> std::ops::Deref for Few<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        &self.items[..usize::from(self.len)]
    }
}

impl<'a, T: Copy + Default> IntoIterator for &'a Few<T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<T: Copy + Default + PartialEq> PartialEq for Few<T> {
    fn eq(&self, other: &Few<T>) -> bool {
        **self == **other
    }
}

impl<T: Copy + Default + Eq> Eq for Few<T> {}

impl<T: Copy + Default + Hash> Hash for Few<T> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        (**self).hash(state)
    }
}

impl<T: Copy + Default + std::fmt::Debug> std::fmt::Debug for Few<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        (**self).fmt(f)
    }
}
