//! A small fixed-size bit set for the covering matrices of the minimiser.

/// A set of indices below a fixed length, one bit per index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct BitSet {
    words: Vec<u64>,
}

impl BitSet {
    /// The empty set of indices below `len`.
    pub(crate) fn new(len: usize) -> Self {
        BitSet {
            words: vec![0; len.div_ceil(64)],
        }
    }

    pub(crate) fn insert(&mut self, index: usize) {
        self.words[index / 64] |= 1 << (index % 64);
    }

    pub(crate) fn contains(&self, index: usize) -> bool {
        self.words
            .get(index / 64)
            .is_some_and(|word| word >> (index % 64) & 1 == 1)
    }

    pub(crate) fn len(&self) -> usize {
        self.words
            .iter()
            .map(|word| word.count_ones() as usize)
            .sum()
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.words.iter().all(|&word| word == 0)
    }

    /// True when every index of `self` is also in `other` (same length).
    pub(crate) fn is_subset(&self, other: &BitSet) -> bool {
        self.words
            .iter()
            .zip(&other.words)
            .all(|(mine, theirs)| mine & !theirs == 0)
    }

    /// True when the sets share an index (same length).
    #[cfg(test)]
    pub(crate) fn intersects(&self, other: &BitSet) -> bool {
        self.words
            .iter()
            .zip(&other.words)
            .any(|(mine, theirs)| mine & theirs != 0)
    }

    /// Adds every index of `other` (same length).
    pub(crate) fn union_with(&mut self, other: &BitSet) {
        for (mine, theirs) in self.words.iter_mut().zip(&other.words) {
            *mine |= theirs;
        }
    }

    /// The indices in ascending order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.words.iter().enumerate().flat_map(|(at, &word)| {
            let mut rest = word;
            std::iter::from_fn(move || {
                (rest != 0).then(|| {
                    let bit = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    at * 64 + bit
                })
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn basic_operations() {
        let mut a = BitSet::new(130);
        assert!(a.is_empty());
        for index in [0, 63, 64, 129] {
            a.insert(index);
        }
        assert_eq!(a.len(), 4);
        assert!(a.contains(64) && !a.contains(65) && !a.contains(1000));
        assert_eq!(a.iter().collect::<Vec<_>>(), vec![0, 63, 64, 129]);
        let mut b = BitSet::new(130);
        b.insert(64);
        assert!(b.is_subset(&a) && !a.is_subset(&b));
        assert!(a.intersects(&b));
        let mut c = BitSet::new(130);
        c.insert(5);
        assert!(!c.intersects(&b));
        c.union_with(&b);
        assert_eq!(c.iter().collect::<Vec<_>>(), vec![5, 64]);
    }
}
