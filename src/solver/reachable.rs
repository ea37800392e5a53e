//! The positions reachable from a game's starts, one bit a position.

use super::retrograde::{try_with_capacity, try_zeroed, OutOfMemory};
use crate::game::{Ending, Game, Successor, Visit};

/// A set of positions of a game, one bit each, with its size.
#[derive(Clone, Debug)]
pub struct Reachable {
    words: Vec<u64>,
    count: usize,
}

impl Reachable {
    /// The positions of `game` reachable from its starts.
    pub fn of<G: Game>(game: &G) -> Result<Self, OutOfMemory> {
        let n = game.len();
        let mut words =
            try_zeroed::<u64>(n.div_ceil(64), "the reachability bits (1 bit a position)")?;
        let starts = game.starts();
        for &s in &starts {
            words[s / 64] |= 1 << (s % 64);
        }
        match game.direction() {
            Some(direction) => {
                struct Mark<'a>(&'a mut [u64]);
                impl Visit for Mark<'_> {
                    #[inline]
                    fn wants(&mut self, i: usize) -> bool {
                        self.0[i / 64] >> (i % 64) & 1 == 1
                    }
                    #[inline]
                    fn ended(&mut self, _: usize, _: Ending) {}
                    #[inline]
                    fn moves(&mut self, i: usize, steps: [&[isize]; 2], _: bool) {
                        for &s in steps.into_iter().flatten() {
                            let j = i.wrapping_add_signed(s);
                            self.0[j / 64] |= 1 << (j % 64);
                        }
                    }
                }
                game.sweep(direction.predecessors_first(), &mut Mark(&mut words));
            }
            None => {
                // Depth-first: the stack holds each position at most once.
                let mut stack: Vec<u32> = try_with_capacity(starts.len(), "the search stack")?;
                stack.extend(starts.iter().map(|&s| s as u32));
                while let Some(p) = stack.pop() {
                    let mut full = None;
                    game.for_each_successor(p as usize, |s| {
                        if let Successor::Stored(j) = s {
                            if words[j / 64] >> (j % 64) & 1 == 0 {
                                words[j / 64] |= 1 << (j % 64);
                                if stack.len() == stack.capacity()
                                    && stack.try_reserve(stack.len().max(1024)).is_err()
                                {
                                    full = Some(stack.len());
                                }
                                stack.push(j as u32);
                            }
                        }
                    });
                    if let Some(len) = full {
                        return Err(OutOfMemory {
                            bytes: 8 * len as u128,
                            what: "the search stack (up to 4 bytes a position)",
                        });
                    }
                }
            }
        }
        let count = words.iter().map(|w| w.count_ones() as usize).sum();
        Ok(Reachable { words, count })
    }

    /// Number of positions in the set.
    pub fn len(&self) -> usize {
        self.count
    }
    /// True when the set is empty.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }
    /// True when position `i` is in the set.
    pub fn contains(&self, i: usize) -> bool {
        self.words
            .get(i / 64)
            .is_some_and(|w| w >> (i % 64) & 1 == 1)
    }
    /// The positions, ascending.
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.words
            .iter()
            .enumerate()
            .flat_map(|(k, &w)| Bits(w).map(move |b| 64 * k + b))
    }
}

/// The set bits of a word, lowest first.
struct Bits(u64);

impl Iterator for Bits {
    type Item = usize;
    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            return None;
        }
        let b = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(b)
    }
}

impl<'a> IntoIterator for &'a Reachable {
    type Item = usize;
    type IntoIter = Box<dyn Iterator<Item = usize> + 'a>;
    fn into_iter(self) -> Self::IntoIter {
        Box::new(self.iter())
    }
}

impl IntoIterator for Reachable {
    type Item = usize;
    type IntoIter = std::vec::IntoIter<usize>;
    /// The positions as a list (for tests and small games; large ones iterate `iter()`).
    fn into_iter(self) -> Self::IntoIter {
        self.iter().collect::<Vec<_>>().into_iter()
    }
}
