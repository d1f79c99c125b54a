//! Stable sorts through one shared copy of the standard library's sort. `slice::sort_by` is compiled
//! anew for every element type and closure, about 3.5 KB of .wasm each; these sort the positions with a
//! `dyn` comparator instead and then move the elements into place.

use std::cmp::Ordering;

/// Sorts `items` stably by `compare`, as `slice::sort_by` does.
pub fn sort_by<T>(items: &mut [T], compare: impl Fn(&T, &T) -> Ordering) {
    if items.len() < 2 {
        return;
    }
    let order = sorted_positions(items.len(), &|a, b| compare(&items[a], &items[b]));
    permute(&order, &mut |a, b| items.swap(a, b));
}

/// Sorts `items` stably in their natural order, as `slice::sort` does.
pub fn sort<T: Ord>(items: &mut [T]) {
    sort_by(items, T::cmp);
}

/// The positions `0..len`, stably sorted by `compare`.
#[inline(never)]
fn sorted_positions(len: usize, compare: &dyn Fn(usize, usize) -> Ordering) -> Vec<usize> {
    let mut order: Vec<usize> = (0..len).collect();
    order.sort_by(|a, b| compare(*a, *b));
    order
}

/// Rearranges a slice with `swap` so that position `k` holds what was at `order[k]`.
#[inline(never)]
fn permute(order: &[usize], swap: &mut dyn FnMut(usize, usize)) {
    let mut placed = vec![false; order.len()];
    for start in 0..order.len() {
        let mut k = start;
        while !placed[k] {
            placed[k] = true;
            let next = order[k];
            if next == start {
                break;
            }
            swap(k, next);
            k = next;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorts_like_the_standard_library() {
        let mut seed = 7u64;
        for len in [0usize, 1, 2, 3, 10, 57, 300] {
            let items: Vec<(u8, usize)> = (0..len)
                .map(|i| {
                    seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    ((seed >> 59) as u8, i)
                })
                .collect();
            let (mut ours, mut theirs) = (items.clone(), items);
            sort_by(&mut ours, |a, b| b.0.cmp(&a.0));
            theirs.sort_by_key(|item| std::cmp::Reverse(item.0));
            assert_eq!(ours, theirs, "stable, by key, for {len} items");
            sort(&mut ours);
            theirs.sort();
            assert_eq!(ours, theirs);
        }
    }
}
