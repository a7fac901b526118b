//! One sort for the whole app.
//!
//! Every sort in the app goes through this module, which funnels into a
//! single instantiation of the standard library's unstable sort, over
//! `(key, position)` pairs of `u64`s. The position breaks ties, so every
//! sort here is stable. The reason is size: each element type and
//! comparator handed to `sort`, `sort_by` or `sort_unstable_by` links its
//! own copy of the sort (about 1.5 KB gzipped in a wasm binary, more for a
//! stable sort), and a page that sorts six kinds of things carried six.
//!
//! Keys are `u64`. [`f64_key`] maps an `f64` to a `u64` of the same order as
//! [`f64::total_cmp`] (−NaN < −∞ < … < −0 < +0 < … < +∞ < +NaN), so float
//! keys sort as `sort_by(f64::total_cmp)` sorts them.

/// The `u64` whose unsigned order is `x`'s [`f64::total_cmp`] order: the
/// IEEE-754 bits with the sign bit flipped for non-negative values and
/// every bit flipped for negative ones.
pub fn f64_key(x: f64) -> u64 {
    let b = x.to_bits();
    if b >> 63 == 1 {
        !b
    } else {
        b | (1 << 63)
    }
}

/// The one sort: `(key, position)` pairs in increasing order.
#[inline(never)]
fn sort_pairs(pairs: &mut [(u64, u64)]) {
    pairs.sort_unstable();
}

/// The positions of `items` in increasing order of `key`, ties in their
/// original order (a stable sort's permutation).
pub fn order_by<T>(items: &[T], key: impl Fn(&T) -> u64) -> Vec<usize> {
    let mut pairs: Vec<(u64, u64)> = items
        .iter()
        .enumerate()
        .map(|(i, t)| (key(t), i as u64))
        .collect();
    sort_pairs(&mut pairs);
    pairs.into_iter().map(|(_, i)| i as usize).collect()
}

/// Sorts `v` by `key`, stable (equal keys keep their order).
pub fn sort_by_key<T>(v: &mut Vec<T>, key: impl Fn(&T) -> u64) {
    let order = order_by(v, key);
    let mut slots: Vec<Option<T>> = v.drain(..).map(Some).collect();
    v.extend(order.into_iter().filter_map(|i| slots[i].take()));
}

/// Sorts `v` by the float `key` in [`f64::total_cmp`] order, stable.
pub fn sort_by_f64<T>(v: &mut Vec<T>, key: impl Fn(&T) -> f64) {
    sort_by_key(v, |t| f64_key(key(t)));
}

/// Sorts floats in [`f64::total_cmp`] order.
pub fn sort_f64(v: &mut [f64]) {
    let mut pairs: Vec<(u64, u64)> = v.iter().map(|&x| (f64_key(x), 0)).collect();
    sort_pairs(&mut pairs);
    for (x, (k, _)) in v.iter_mut().zip(pairs) {
        // invert f64_key
        let b = if k >> 63 == 1 { k & !(1 << 63) } else { !k };
        *x = f64::from_bits(b);
    }
}

/// Sorts unsigned integers in increasing order.
pub fn sort_u64(v: &mut [u64]) {
    let mut pairs: Vec<(u64, u64)> = v.iter().map(|&x| (x, 0)).collect();
    sort_pairs(&mut pairs);
    for (x, (k, _)) in v.iter_mut().zip(pairs) {
        *x = k;
    }
}

/// Sorts `usize`s in increasing order.
pub fn sort_usize(v: &mut [usize]) {
    let mut pairs: Vec<(u64, u64)> = v.iter().map(|&x| (x as u64, 0)).collect();
    sort_pairs(&mut pairs);
    for (x, (k, _)) in v.iter_mut().zip(pairs) {
        *x = k as usize;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn float_keys_follow_total_cmp() {
        let xs = [
            f64::NAN,
            -f64::NAN,
            f64::INFINITY,
            -f64::INFINITY,
            -0.0,
            0.0,
            1.5,
            -2.25,
            f64::MIN_POSITIVE,
            -f64::MIN_POSITIVE,
        ];
        for a in xs {
            for b in xs {
                assert_eq!(f64_key(a).cmp(&f64_key(b)), a.total_cmp(&b), "{a} {b}");
            }
        }
        let mut v = vec![3.0, -1.0, 0.0, -0.0, 2.5, f64::INFINITY];
        sort_f64(&mut v);
        let bits: Vec<u64> = v.iter().map(|x| x.to_bits()).collect();
        let want: Vec<u64> = [-1.0, -0.0, 0.0, 2.5, 3.0, f64::INFINITY]
            .iter()
            .map(|x: &f64| x.to_bits())
            .collect();
        assert_eq!(bits, want);
    }

    #[test]
    fn sorts_are_stable_and_in_order() {
        // (key, tag): equal keys 2 keep their order b, d.
        let mut v = vec![(3, 'a'), (2, 'b'), (1, 'c'), (2, 'd')];
        sort_by_key(&mut v, |t| t.0);
        assert_eq!(v, [(1, 'c'), (2, 'b'), (2, 'd'), (3, 'a')]);
        let mut w = vec![(0.5, 'x'), (-1.0, 'y'), (0.5, 'z')];
        sort_by_f64(&mut w, |t| t.0);
        assert_eq!(w, [(-1.0, 'y'), (0.5, 'x'), (0.5, 'z')]);
        assert_eq!(order_by(&[5u64, 1, 5, 0], |&x| x), [3, 1, 0, 2]);
        let mut u = [9u64, 0, 4];
        sort_u64(&mut u);
        assert_eq!(u, [0, 4, 9]);
        let mut z = [7usize, 7, 1];
        sort_usize(&mut z);
        assert_eq!(z, [1, 7, 7]);
    }
}
