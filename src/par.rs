//! Work split over threads for large programs. Each item is handled
//! alone, so the result does not depend on the split: output bytes stay
//! the same whatever the core count.

/// Threads worth starting for `items` independent items: none below 64
/// (thread start-up costs more than small programs take), at most 4.
pub fn workers(items: usize) -> usize {
    if items < 64 {
        return 1;
    }
    std::thread::available_parallelism().map_or(1, |n| n.get().min(4))
}

/// Runs `f` on every item, in contiguous chunks on `workers` threads.
pub fn each_mut<T: Send>(items: &mut [T], f: impl Fn(&mut T) + Sync) {
    let w = workers(items.len());
    if w < 2 {
        items.iter_mut().for_each(f);
        return;
    }
    let chunk = items.len().div_ceil(w);
    let f = &f;
    std::thread::scope(|s| {
        for c in items.chunks_mut(chunk) {
            s.spawn(move || c.iter_mut().for_each(f));
        }
    });
}
