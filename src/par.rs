//! Work split over threads for large programs. Each item is handled
//! alone, so the result does not depend on the split: output bytes stay
//! the same whatever the core count.
//!
//! Every thread started here gets the parser's stack (`STACK_BYTES`):
//! the passes recurse as deeply as the input nests, and a worker with
//! the default 2 MB stack overflowed on 3,000 nested `if`s that the
//! parser had read. The stack is reserved address space; only what is
//! used is backed by memory. When no thread can be started, the work
//! runs on the caller's thread.

/// Stack for the parser, the lowering and every worker: deep nesting
/// recurses deeply (LANG-C-NOTES: 10,000 nested parentheses need far more
/// than 8 MB). Only reserved, not touched.
pub const STACK_BYTES: usize = 512 << 20;
use std::sync::{Arc, Mutex};
use std::thread::{Scope, ScopedJoinHandle};

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
        let jobs: Vec<_> = items
            .chunks_mut(chunk)
            .map(|c| spawn(s, move || c.iter_mut().for_each(f)))
            .collect();
        jobs.into_iter().for_each(Job::join);
    });
}

/// Runs `f` on every item in contiguous chunks, each chunk on its own
/// thread with its own state from `state`; returns the states in item
/// order. `workers` is a cap (1: one chunk, on this thread).
pub fn each_with<T: Send, S: Send>(
    items: &mut [T],
    workers: usize,
    state: impl Fn() -> S + Sync,
    f: impl Fn(&mut S, &mut T) + Sync,
) -> Vec<S> {
    let w = workers.min(self::workers(items.len())).max(1);
    let run = |c: &mut [T]| {
        let mut s = state();
        c.iter_mut().for_each(|x| f(&mut s, x));
        s
    };
    if w < 2 {
        return vec![run(items)];
    }
    let chunk = items.len().div_ceil(w);
    let run = &run;
    std::thread::scope(|sc| {
        let jobs: Vec<_> = items
            .chunks_mut(chunk)
            .map(|c| spawn(sc, move || run(c)))
            .collect();
        jobs.into_iter().map(Job::join).collect()
    })
}

/// `f(index, item)` for every item, in contiguous chunks on threads;
/// the results in item order.
pub fn map<T: Sync, R: Send>(items: &[T], f: impl Fn(usize, &T) -> R + Sync) -> Vec<R> {
    let w = workers(items.len());
    if w < 2 {
        return items.iter().enumerate().map(|(i, x)| f(i, x)).collect();
    }
    let chunk = items.len().div_ceil(w);
    let f = &f;
    std::thread::scope(|s| {
        let jobs: Vec<_> = items
            .chunks(chunk)
            .enumerate()
            .map(|(k, c)| {
                spawn(s, move || {
                    c.iter()
                        .enumerate()
                        .map(|(i, x)| f(k * chunk + i, x))
                        .collect::<Vec<R>>()
                })
            })
            .collect();
        jobs.into_iter().flat_map(Job::join).collect()
    })
}

/// Frees `x` on a thread of its own, off the caller's path: a large
/// program's tree takes tens of milliseconds to free, and nothing waits
/// for it. The stack is the parser's, since freeing a deeply nested tree
/// recurses as deeply as building it.
pub fn drop_later<T: Send + 'static>(x: T) {
    // When no thread can be started, the closure, and `x` in it, is
    // freed right here.
    let _ = std::thread::Builder::new()
        .stack_size(STACK_BYTES)
        .spawn(move || drop(x));
}

/// Runs `f` on a thread with the parser's stack and returns its result:
/// for whole commands, whose passes recurse as deeply as the input
/// nests. A panic in `f` goes on in the caller.
pub fn deep<R: Send>(f: impl FnOnce() -> R + Send) -> R {
    std::thread::scope(|s| spawn(s, f).join())
}

/// A task for `race`.
pub type Task<'a, R> = Box<dyn FnOnce() -> R + Send + 'a>;

/// Runs the tasks at once (a portfolio), each on a thread with the
/// parser's stack. The first result that `decisive` accepts wins: `stop`
/// is called then (it must make the other tasks end soon), and `race`
/// returns once every task has ended, with every result in task order and
/// the winner's index. A task whose thread cannot be started runs here.
pub fn race<R: Send>(
    tasks: Vec<Task<'_, R>>,
    decisive: impl Fn(&R) -> bool,
    stop: impl Fn(),
) -> (Vec<R>, Option<usize>) {
    let n = tasks.len();
    let mut got: Vec<Option<R>> = (0..n).map(|_| None).collect();
    let mut winner = None;
    std::thread::scope(|s| {
        let (tx, rx) = std::sync::mpsc::channel::<(usize, R)>();
        let mut handles = Vec::new();
        for (i, t) in tasks.into_iter().enumerate() {
            let tx = tx.clone();
            let job = spawn(s, move || {
                let r = t();
                // The receiver lives as long as the scope.
                let _ = tx.send((i, r));
            });
            handles.push(job);
        }
        drop(tx);
        // A panicking task sends nothing; the channel closes when every
        // task has ended, and the scope passes the panic on.
        while let Ok((i, r)) = rx.recv() {
            if winner.is_none() && decisive(&r) {
                winner = Some(i);
                stop();
            }
            got[i] = Some(r);
        }
        handles.into_iter().for_each(Job::join);
    });
    (
        got.into_iter()
            .map(|r| r.expect("every task sent"))
            .collect(),
        winner,
    )
}

/// A chunk of work on a thread of its own, or already done.
enum Job<'s, R> {
    Running(ScopedJoinHandle<'s, R>),
    Done(R),
}

impl<R> Job<'_, R> {
    fn join(self) -> R {
        match self {
            Job::Running(h) => h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)),
            Job::Done(r) => r,
        }
    }
}

/// Starts `f` on a thread with `STACK_BYTES` of stack, or runs it here
/// when the system will not start one (the closure is kept aside so that
/// a failed start does not lose it).
fn spawn<'s, 'e, R: Send + 's>(
    s: &'s Scope<'s, 'e>,
    f: impl FnOnce() -> R + Send + 's,
) -> Job<'s, R> {
    let cell = Arc::new(Mutex::new(Some(f)));
    let theirs = Arc::clone(&cell);
    let started = std::thread::Builder::new()
        .stack_size(STACK_BYTES)
        .spawn_scoped(s, move || take(&theirs)());
    match started {
        Ok(h) => Job::Running(h),
        Err(_) => Job::Done(take(&cell)()),
    }
}

fn take<F>(cell: &Mutex<Option<F>>) -> F {
    let f = cell.lock().unwrap_or_else(|e| e.into_inner()).take();
    f.expect("a job runs once")
}

#[cfg(test)]
mod tests {
    #[test]
    fn map_keeps_item_order_across_threads() {
        let items: Vec<u32> = (0..1000).collect();
        let out = super::map(&items, |i, x| (i, x * 2));
        let want: Vec<(usize, u32)> = (0..1000).map(|i| (i as usize, i * 2)).collect();
        assert_eq!(out, want);
    }
}
