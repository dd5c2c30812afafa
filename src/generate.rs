//! A generator of random, small concurrent C programs, as C text, for
//! differential testing against the oracle (DESIGN.md §6). Seeded and
//! reproducible: the same seed gives the same bytes.
//!
//! Shape: main plus 1–3 worker threads (one worker may create a child of
//! its own, so 2–4 threads in all, more counting the child); shared
//! scalars, a shared array, a heap struct passed as a thread argument and
//! pointers to shared globals; `x++` and compound assignments; locks,
//! trylock, condition variables (waited on with `while` and with `if`),
//! atomic sections and atomic functions; branches on shared values;
//! bounded loops and a spin loop the unwinding bound must cut; assume on
//! locals (values inside the oracle's nondet domain, so the oracle's
//! enumeration is exact); pthread_exit; joins by the parent and by a
//! sibling that read return values; assertions; pthread keys whose
//! destructor writes shared state (and sometimes sets the key again);
//! recursive and error-checking mutexes (relocks, unlocks by a thread that
//! does not hold it, results added into shared state); threads created
//! detached, whose join fails; a semaphore, a read-write lock, a
//! spinlock or a barrier (waits, posts, tries, read and write sections).
//! `generate_nested` also takes two locks one inside the other, in either
//! order, so that two threads may deadlock (the deadlock tests; the
//! assertion tests keep their programs and their cost). `generate_misuse`
//! breaks the rules of lock discipline now and then instead: an unlock
//! of a mutex that may not be held, a lock kept on some paths, a relock
//! by the holder, a destroy, a condition wait without the mutex (the
//! `--property locks` tests). `generate_timed` adds timed locks and
//! timed condition waits, some with an invalid time. `generate_overflow`
//! adds arithmetic near the limits of `int` and `long long` (sums,
//! differences, products, shifts, `MIN / -1`, negations, guarded and
//! short-circuit forms) whose overflow depends on the interleaving (the
//! `--property overflow` tests). `generate_float` adds arithmetic on
//! shared `double`s and a `float` that rounds, converts and compares
//! (the SMT route's FloatingPoint encoding). `generate_memory` adds a
//! heap array indexed by shared values and freed by threads, and a
//! pointer null until set (the `--property memsafety` tests).
//! `generate_punning` reads and writes a shared union as an int, bytes
//! and shorts, and int globals a byte at a time (type punning).
//! `generate_starts` has main create its
//! threads through a table of start routines in some programs (the
//! start-routine-through-a-pointer model). Every program records which
//! features it used.

use std::collections::BTreeMap;
use std::fmt::Write;

/// The features the report counts.
pub const FEATURES: &[&str] = &[
    "threads_2",
    "threads_3",
    "threads_4plus",
    "nested_create",
    "join_by_parent",
    "join_by_sibling",
    "join_reads_value",
    "shared_scalar",
    "shared_array",
    "heap_struct_arg",
    "pointer_to_global",
    "increment",
    "compound_assign",
    "lock",
    "trylock",
    "cond_wait_while",
    "cond_wait_if",
    "atomic_section",
    "atomic_function",
    "branch_on_shared",
    "bounded_loop",
    "cut_loop",
    "assume_local",
    "pthread_exit",
    "assert_in_thread",
    "assert_in_main",
    "key_dtor",
    "key_dtor_again",
    "mutex_recursive",
    "mutex_errorcheck",
    "detached",
    "creation_loop",
    "join_loop",
    "semaphore",
    "rwlock",
    "spinlock",
    "barrier",
    "lock_nested",
    "lock_misuse",
    "start_pointer",
    "timed_wait",
    "overflow_arith",
    "float_arith",
    "heap_misuse",
    "type_punning",
];

pub struct Generated {
    pub text: String,
    pub features: BTreeMap<&'static str, bool>,
}

/// splitmix64: small, good enough, and stable across platforms.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
    fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len() as u64) as usize]
    }
}

struct Gen {
    r: Rng,
    f: BTreeMap<&'static str, bool>,
    /// Temporaries per function, to keep names unique.
    tmp: u32,
    /// The program has a key with a destructor.
    key: bool,
    /// The kind of `m1` (0 normal, 1 recursive, 2 error-checking).
    kind: u32,
    /// The program's one-word object: 0 none, 1 the semaphore `s0`, 2
    /// the read-write lock `rw0`, 3 the spinlock `sp0`, 4 the barrier
    /// `b0` (for two threads).
    sync: u32,
    /// Nested locks come from this stream (programs without them keep
    /// their bytes).
    nest: Option<Rng>,
    /// So does lock misuse, and so do timed waits.
    misuse: Option<Rng>,
    timed: Option<Rng>,
    overflow: Option<Rng>,
    float: Option<Rng>,
    memory: Option<Rng>,
    punning: Option<Rng>,
}

const SCALARS: &[&str] = &["g0", "g1", "g2"];

impl Gen {
    fn mark(&mut self, f: &'static str) {
        debug_assert!(FEATURES.contains(&f), "{f}");
        self.f.insert(f, true);
    }

    fn shared(&mut self) -> String {
        if self.r.chance(20) {
            self.mark("shared_array");
            format!("arr[{}]", self.r.below(3))
        } else {
            self.mark("shared_scalar");
            self.r.pick(SCALARS).to_string()
        }
    }

    fn small(&mut self) -> i64 {
        self.r.below(3) as i64
    }

    /// A statement on the program's semaphore, read-write lock or
    /// spinlock.
    fn sync_stmt(&mut self, out: &mut String, ind: &str) {
        let x = self.shared();
        let y = self.shared();
        let lines: Vec<String> = match (self.sync, self.r.below(4)) {
            (1, 0) => vec!["sem_post(&s0);".into()],
            (1, 1) => vec!["sem_wait(&s0);".into(), format!("{x}++;")],
            (1, 2) => vec![format!("{x} += sem_trywait(&s0) == 0;")],
            (1, _) => {
                self.tmp += 1;
                let t = format!("v{}", self.tmp);
                vec![
                    format!("int {t};"),
                    format!("sem_getvalue(&s0, &{t});"),
                    format!("{x} += {t};"),
                ]
            }
            (2, 0) => vec![
                "pthread_rwlock_wrlock(&rw0);".into(),
                format!("{x}++;"),
                format!("{y} = {x};"),
                "pthread_rwlock_unlock(&rw0);".into(),
            ],
            (2, 1) => vec![
                "pthread_rwlock_rdlock(&rw0);".into(),
                format!("{x} = {y} - {x};"),
                "pthread_rwlock_unlock(&rw0);".into(),
            ],
            (2, 2) => vec![
                "if (pthread_rwlock_tryrdlock(&rw0) == 0) {".into(),
                format!("  {x} += {y};"),
                "  pthread_rwlock_unlock(&rw0);".into(),
                "}".into(),
            ],
            (2, _) => vec![format!(
                "{x} += pthread_rwlock_trywrlock(&rw0) == 16 || pthread_rwlock_unlock(&rw0);"
            )],
            (4, _) => vec![format!("{x} += pthread_barrier_wait(&b0) == -1;")],
            (_, 0 | 1) => vec![
                "pthread_spin_lock(&sp0);".into(),
                format!("{x}++;"),
                "pthread_spin_unlock(&sp0);".into(),
            ],
            (_, _) => vec![
                "if (pthread_spin_trylock(&sp0) == 0) {".into(),
                format!("  {x} += 2;"),
                "  pthread_spin_unlock(&sp0);".into(),
                "}".into(),
            ],
        };
        self.mark(match self.sync {
            1 => "semaphore",
            2 => "rwlock",
            3 => "spinlock",
            _ => "barrier",
        });
        for l in lines {
            let _ = writeln!(out, "{ind}{l}");
        }
    }

    /// One statement of a thread body (`heap`: the function has `s`, the
    /// heap struct; `depth` limits nesting).
    fn stmt(&mut self, out: &mut String, ind: &str, heap: bool, depth: u32) {
        if let Some(r) = &mut self.nest
            && r.chance(25)
        {
            let (a, b) = if r.chance(50) {
                ("m0", "m1")
            } else {
                ("m1", "m0")
            };
            self.mark("lock_nested");
            self.mark("lock");
            let x = self.shared();
            let _ = writeln!(out, "{ind}pthread_mutex_lock(&{a});");
            let _ = writeln!(out, "{ind}pthread_mutex_lock(&{b});");
            self.mark("increment");
            let _ = writeln!(out, "{ind}{x}++;");
            let _ = writeln!(out, "{ind}pthread_mutex_unlock(&{b});");
            let _ = writeln!(out, "{ind}pthread_mutex_unlock(&{a});");
            return;
        }
        if let Some(r) = &mut self.misuse
            && r.chance(20)
        {
            let (what, c) = (r.below(5), r.below(3));
            self.mark("lock_misuse");
            let x = self.shared();
            let lines: Vec<String> = match what {
                0 => vec!["pthread_mutex_unlock(&m0);".into()],
                1 => vec![
                    "pthread_mutex_lock(&m0);".into(),
                    format!("{x}++;"),
                    format!("if ({x} != {c}) pthread_mutex_unlock(&m0);"),
                ],
                2 => vec![
                    "pthread_mutex_lock(&m0);".into(),
                    format!("if ({x} == {c}) pthread_mutex_lock(&m0);"),
                    format!("{x}++;"),
                    "pthread_mutex_unlock(&m0);".into(),
                ],
                3 => vec![format!("if ({x} == {c}) pthread_mutex_destroy(&m0);")],
                _ => vec!["if (flag == 0) pthread_cond_wait(&c0, &m0);".into()],
            };
            for l in lines {
                let _ = writeln!(out, "{ind}{l}");
            }
            return;
        }
        if let Some(r) = &mut self.overflow
            && r.chance(30)
        {
            let (what, c) = (r.below(8), r.below(3));
            self.mark("overflow_arith");
            let x = self.shared();
            let y = self.shared();
            let line = match what {
                0 => format!("{x} += 2147483646;"),
                1 => format!("{x} = {y} * 1073741824;"),
                2 => format!("{x} = {y} - 2147483647;"),
                // Odd divisors: never zero (a quotient by zero is an
                // unconstrained value no replay can reproduce).
                3 => format!(
                    "{x} = (-2147483647 - 1) / (({y} | 1) - {}) + (-2147483647 - 1) % ({y} | 1);",
                    2 * c
                ),
                4 => format!("{x} = {y} << 30;"),
                5 => format!("h0 = h0 * 3037000500LL + {y};"),
                6 => format!("if ({y} < {c}) {x} = {y} + 2147483645;"),
                _ => format!("{x} = {y} > {c} && -{y} - 2147483647 < {x};"),
            };
            let _ = writeln!(out, "{ind}{line}");
            return;
        }
        if let Some(r) = &mut self.punning
            && r.chance(30)
        {
            let (what, k, c) = (r.below(8), r.below(4), 1 + r.below(3));
            let g = *r.pick(SCALARS);
            self.mark("type_punning");
            let x = self.shared();
            // The union's int, its bytes and its shorts over the same four
            // bytes, and an int global's bytes through a char pointer.
            let line = match what {
                0 => format!("pu.c[{k}] = {c};"),
                1 => format!("pu.h[{}] = -{c};", k % 2),
                2 => format!("pu.i = {x};"),
                3 => format!("{x} += pu.c[{k}];"),
                4 => format!("if (pu.i > 255) {x}++;"),
                5 => format!("{{ unsigned char *q = (unsigned char *)&{g}; q[{k}] = {c}; }}"),
                6 => format!("{x} = pu.h[{}];", k % 2),
                _ => format!("if (pu.h[1] != 0) {x} = {c};"),
            };
            let _ = writeln!(out, "{ind}{line}");
            return;
        }
        if let Some(r) = &mut self.memory
            && r.chance(30)
        {
            let (what, c) = (r.below(7), r.below(3));
            self.mark("heap_misuse");
            let x = self.shared();
            let y = self.shared();
            // Two ints at hp; np is null until some thread sets it. An
            // index from shared memory may leave the object, a free may
            // come before another thread's access or free.
            let line = match what {
                0 => format!("{{ int *q = hp; int i = {x}; if (q != 0) q[i % 3] = {c}; }}"),
                1 => format!("if ({x} == {c}) {{ int *q = hp; free(q); }}"),
                2 => format!("{{ int *q = np; {y} += *q; }}"),
                3 => "np = hp;".to_string(),
                4 => "{ int *q = hp; if (q != 0) { hp = 0; free(q); } }".to_string(),
                5 => format!("{{ int *q = hp; if (q != 0) {x} += q[1]; }}"),
                _ => format!("if ({x} > {c}) np = 0;"),
            };
            let _ = writeln!(out, "{ind}{line}");
            return;
        }
        if let Some(r) = &mut self.float
            && r.chance(35)
        {
            let (what, c) = (r.below(9), r.below(3));
            let d = if r.chance(50) { "d0" } else { "d1" };
            let e = if r.chance(50) { "d0" } else { "d1" };
            self.mark("float_arith");
            let x = self.shared();
            // Steps that round (a third, a tenth in float, double to
            // float), conversions both ways, comparisons; magnitudes stay
            // small, so no conversion leaves int's range.
            let line = match what {
                0 => format!("{d} += 0.5;"),
                1 => format!("{d} = {e} * 3.0 - 0.25;"),
                2 => format!("{d} = {e} / 3.0;"),
                3 => "f0 = f0 + 0.1f;".to_string(),
                4 => format!("{x} += (int)({d} * 2.0);"),
                5 => format!("if ({d} > {c}.5) {x}++;"),
                6 => format!("{d} = {x} / 4.0;"),
                7 => format!("f0 = (float){d};"),
                _ => format!("{x} += f0 > 0.25f;"),
            };
            let _ = writeln!(out, "{ind}{line}");
            return;
        }
        if let Some(r) = &mut self.timed
            && r.chance(20)
        {
            let (what, ts) = (r.below(3), if r.chance(25) { "ts1" } else { "ts0" });
            self.mark("timed_wait");
            let x = self.shared();
            let y = self.shared();
            let lines: Vec<String> = match what {
                0 => vec![
                    format!("if (pthread_mutex_timedlock(&m0, &{ts}) == 0) {{"),
                    format!("  {x}++;"),
                    "  pthread_mutex_unlock(&m0);".into(),
                    "} else {".into(),
                    format!("  {y} += 2;"),
                    "}".into(),
                ],
                1 => {
                    self.tmp += 1;
                    let t = format!("r{}", self.tmp);
                    vec![
                        format!("int {t} = pthread_mutex_timedlock(&m0, &{ts});"),
                        format!("{x} += {t} == 110;"),
                        format!("{y} += {t} == 22;"),
                        format!("if ({t} == 0) pthread_mutex_unlock(&m0);"),
                    ]
                }
                _ => {
                    self.tmp += 1;
                    let t = format!("r{}", self.tmp);
                    vec![
                        "pthread_mutex_lock(&m0);".into(),
                        format!("int {t} = 0;"),
                        format!("if (flag == 0) {t} = pthread_cond_timedwait(&c0, &m0, &{ts});"),
                        format!("{x} += {t} == 110;"),
                        format!("{y} += {t} == 22;"),
                        "pthread_mutex_unlock(&m0);".into(),
                    ]
                }
            };
            for l in lines {
                let _ = writeln!(out, "{ind}{l}");
            }
            return;
        }
        let k = self.r.below(if depth > 0 { 17 } else { 13 });
        // Keys and mutex kinds get their own statements now and then.
        if self.key && self.r.chance(12) {
            self.mark("key_dtor");
            let c = 1 + self.small();
            let _ = writeln!(out, "{ind}pthread_setspecific(key, (void *)(long){c});");
            return;
        }
        if self.kind != 0 && self.r.chance(15) {
            let x = self.shared();
            if self.kind == 1 {
                self.mark("mutex_recursive");
                let _ = writeln!(out, "{ind}pthread_mutex_lock(&m1);");
                let _ = writeln!(out, "{ind}{x} += pthread_mutex_lock(&m1);");
                let _ = writeln!(out, "{ind}{x}++;");
                let _ = writeln!(out, "{ind}pthread_mutex_unlock(&m1);");
                let _ = writeln!(out, "{ind}pthread_mutex_unlock(&m1);");
            } else {
                self.mark("mutex_errorcheck");
                let _ = writeln!(out, "{ind}pthread_mutex_lock(&m1);");
                let _ = writeln!(out, "{ind}{x} += pthread_mutex_lock(&m1) == 35;");
                let _ = writeln!(out, "{ind}pthread_mutex_unlock(&m1);");
            }
            if self.r.chance(40) {
                // An unlock by a thread that may not hold it.
                let y = self.shared();
                let _ = writeln!(out, "{ind}{y} += pthread_mutex_unlock(&m1);");
            }
            return;
        }
        if self.sync != 0 && self.r.chance(8) {
            self.sync_stmt(out, ind);
            return;
        }
        match k {
            0 | 1 => {
                let x = self.shared();
                self.mark("increment");
                let _ = writeln!(
                    out,
                    "{ind}{x}{};",
                    if self.r.chance(70) { "++" } else { "--" }
                );
            }
            2 => {
                let x = self.shared();
                let y = self.shared();
                self.mark("compound_assign");
                let op = self.r.pick(&["+=", "-=", "|=", "^="]);
                let _ = writeln!(out, "{ind}{x} {op} {y} + 1;");
            }
            3 => {
                let x = self.shared();
                let c = self.small();
                let _ = writeln!(out, "{ind}{x} = {c};");
            }
            4 => {
                self.mark("lock");
                let m = self.r.pick(&["m0", "m1"]);
                let x = self.shared();
                let _ = writeln!(out, "{ind}pthread_mutex_lock(&{m});");
                self.mark("increment");
                let _ = writeln!(out, "{ind}{x}++;");
                if self.r.chance(50) {
                    let y = self.shared();
                    let _ = writeln!(out, "{ind}{y} = {x};");
                }
                let _ = writeln!(out, "{ind}pthread_mutex_unlock(&{m});");
            }
            5 => {
                self.mark("trylock");
                let x = self.shared();
                let _ = writeln!(out, "{ind}if (pthread_mutex_trylock(&m0) == 0) {{");
                let _ = writeln!(out, "{ind}  {x} += 2;");
                let _ = writeln!(out, "{ind}  pthread_mutex_unlock(&m0);");
                let _ = writeln!(out, "{ind}}}");
                self.mark("compound_assign");
            }
            6 => {
                self.mark("atomic_section");
                let x = self.shared();
                let y = self.shared();
                let _ = writeln!(out, "{ind}__VERIFIER_atomic_begin();");
                let _ = writeln!(out, "{ind}{x}++;");
                let _ = writeln!(out, "{ind}{y} = {x} + 1;");
                let _ = writeln!(out, "{ind}__VERIFIER_atomic_end();");
                self.mark("increment");
            }
            7 => {
                self.mark("atomic_function");
                let x = self.r.pick(SCALARS).to_string();
                self.mark("pointer_to_global");
                self.mark("shared_scalar");
                let c = 1 + self.small();
                let _ = writeln!(out, "{ind}__VERIFIER_atomic_add(&{x}, {c});");
            }
            8 => {
                self.mark("pointer_to_global");
                self.mark("shared_scalar");
                let x = self.r.pick(SCALARS).to_string();
                self.tmp += 1;
                let p = format!("p{}", self.tmp);
                let _ = writeln!(out, "{ind}int *{p} = &{x};");
                self.mark("compound_assign");
                let _ = writeln!(out, "{ind}*{p} += 1;");
            }
            9 => {
                self.mark("assume_local");
                self.tmp += 1;
                let v = format!("v{}", self.tmp);
                let x = self.shared();
                let _ = writeln!(out, "{ind}int {v} = __VERIFIER_nondet_int();");
                let _ = writeln!(out, "{ind}__VERIFIER_assume({v} >= 0 && {v} <= 2);");
                let _ = writeln!(out, "{ind}{x} = {v};");
            }
            10 => {
                if heap {
                    self.mark("heap_struct_arg");
                    let f = self.r.pick(&["a", "b"]);
                    if self.r.chance(50) {
                        self.mark("increment");
                        let _ = writeln!(out, "{ind}s->{f}++;");
                    } else {
                        let x = self.shared();
                        let _ = writeln!(out, "{ind}{x} = s->{f};");
                    }
                } else {
                    let x = self.shared();
                    self.mark("increment");
                    let _ = writeln!(out, "{ind}{x}++;");
                }
            }
            11 | 12 => {
                self.mark("assert_in_thread");
                let x = self.shared();
                let (op, c) = (*self.r.pick(&["!=", "<=", ">=", "<"]), 1 + self.small());
                let _ = writeln!(out, "{ind}assert({x} {op} {c});");
            }
            13 | 14 => {
                self.mark("branch_on_shared");
                let x = self.shared();
                let c = self.small();
                let _ = writeln!(out, "{ind}if ({x} > {c}) {{");
                let inner = format!("{ind}  ");
                self.stmt(out, &inner, heap, depth - 1);
                if self.r.chance(50) {
                    let _ = writeln!(out, "{ind}}} else {{");
                    self.stmt(out, &inner, heap, depth - 1);
                }
                let _ = writeln!(out, "{ind}}}");
            }
            15 => {
                self.mark("bounded_loop");
                self.tmp += 1;
                let i = format!("i{}", self.tmp);
                let n = 1 + self.r.below(2);
                let _ = writeln!(out, "{ind}for (int {i} = 0; {i} < {n}; {i}++) {{");
                let inner = format!("{ind}  ");
                self.stmt(out, &inner, heap, depth - 1);
                let _ = writeln!(out, "{ind}}}");
            }
            _ => {
                // A spin loop: the unwinding bound cuts it when the flag
                // never comes.
                self.mark("cut_loop");
                let x = self.shared();
                let c = 1 + self.small();
                let _ = writeln!(out, "{ind}while ({x} < {c}) {{");
                self.mark("increment");
                let y = self.shared();
                let _ = writeln!(out, "{ind}  {y}++;");
                let _ = writeln!(out, "{ind}}}");
            }
        }
    }

    fn cond_wait(&mut self, out: &mut String, ind: &str) {
        let use_while = self.r.chance(50);
        self.mark(if use_while {
            "cond_wait_while"
        } else {
            "cond_wait_if"
        });
        self.mark("lock");
        let _ = writeln!(out, "{ind}pthread_mutex_lock(&m0);");
        let _ = writeln!(
            out,
            "{ind}{} (flag == 0) pthread_cond_wait(&c0, &m0);",
            if use_while { "while" } else { "if" }
        );
        if self.r.chance(60) {
            self.mark("assert_in_thread");
            let _ = writeln!(out, "{ind}assert(flag == 1);");
        }
        let _ = writeln!(out, "{ind}pthread_mutex_unlock(&m0);");
    }

    fn cond_signal(&mut self, out: &mut String, ind: &str) {
        let _ = writeln!(out, "{ind}pthread_mutex_lock(&m0);");
        let _ = writeln!(out, "{ind}flag = 1;");
        let _ = writeln!(
            out,
            "{ind}pthread_cond_{}(&c0);",
            if self.r.chance(50) {
                "signal"
            } else {
                "broadcast"
            }
        );
        let _ = writeln!(out, "{ind}pthread_mutex_unlock(&m0);");
    }
}

/// Worker plan: who creates whom and who joins whom.
struct Worker {
    /// Takes the heap struct as its argument.
    heap: bool,
    /// Creates a child (worker index) of its own.
    child: Option<usize>,
    /// Joins this earlier sibling (created by main) instead of main.
    joins_sibling: Option<usize>,
    waits: bool,
    signals: bool,
    exits: bool,
    /// Created detached (main's join then fails with EINVAL).
    detached: bool,
}

pub fn generate(seed: u64) -> Generated {
    generate_with(seed, &[])
}

/// `generate`, and in 30% of programs main's creates go through a table
/// of start routines (`start_pointer`), drawn from a stream of their own:
/// the other programs keep their bytes.
pub fn generate_starts(seed: u64) -> Generated {
    let mut g = generate(seed);
    pointer_starts(&mut g, seed);
    g
}

/// Every extra stream that keeps the assertion property at once: timed
/// waits, floating point, type punning and start routines through a
/// table (the differential of all the newer operations together).
pub fn generate_mixed(seed: u64) -> Generated {
    let mut g = generate_with(seed, &[Extra::Timed, Extra::Float, Extra::Punning]);
    timed_decls(&mut g);
    float_decls(&mut g, seed);
    punning_decls(&mut g, seed);
    pointer_starts(&mut g, seed);
    g
}

/// Main's creates through a table of start routines in 30% of programs.
fn pointer_starts(g: &mut Generated, seed: u64) {
    let mut r = Rng(seed ^ 0x57A7_7F00);
    if !r.chance(30) {
        return;
    }
    let s = &mut g.text;
    let n = (0..8)
        .take_while(|i| s.contains(&format!(", worker{i}, ")))
        .count();
    let main = s.find("int main(void) {\n").unwrap();
    let mut body = s.split_off(main);
    for i in 0..n {
        // Main's creates only (a worker's own create stays direct).
        let create = format!(", worker{i}, ");
        if let Some(at) = body.find(&create) {
            body.replace_range(at..at + create.len(), &format!(", starts[{i}], "));
        }
    }
    // Sometimes in the other order, so that slot and routine differ.
    let mut names: Vec<String> = (0..n).map(|i| format!("worker{i}")).collect();
    if n > 1 && r.chance(50) {
        names.swap(0, 1);
        body = body
            .replace(", starts[0], ", ", starts[@], ")
            .replace(", starts[1], ", ", starts[0], ")
            .replace(", starts[@], ", ", starts[1], ");
    }
    s.push_str(&format!(
        "void *(*starts[{n}])(void *) = {{{}}};\n\n",
        names.join(", ")
    ));
    s.push_str(&body);
    g.features.insert("start_pointer", n > 0);
}

/// `generate`, and in 40% of programs lock misuse (`lock_misuse`), drawn
/// from its own stream: the other programs keep their bytes.
pub fn generate_misuse(seed: u64) -> Generated {
    generate_with(seed, &[Extra::Misuse])
}

/// `generate`, and in 30% of programs nested locks (`lock_nested`),
/// drawn from their own stream: the other programs keep their bytes.
pub fn generate_nested(seed: u64) -> Generated {
    generate_with(seed, &[Extra::Nested])
}

/// `generate`, and in 40% of programs timed locks and timed condition
/// waits (`timed_wait`; a valid time `ts0`, and `ts1` whose `tv_nsec` is
/// out of range), drawn from their own stream.
pub fn generate_timed(seed: u64) -> Generated {
    let mut g = generate_with(seed, &[Extra::Timed]);
    timed_decls(&mut g);
    g
}

/// The timed stream's `#include` and times.
fn timed_decls(g: &mut Generated) {
    if g.features["timed_wait"] {
        let at = g.text.find("#include <assert.h>").unwrap();
        g.text.insert_str(
            at,
            "#include <time.h>\nstruct timespec ts0, ts1 = {0, 1000000000};\n",
        );
    }
}

/// `generate`, and in 40% of programs arithmetic that may overflow
/// (`overflow_arith`), drawn from its own stream.
pub fn generate_overflow(seed: u64) -> Generated {
    let mut g = generate_with(seed, &[Extra::Overflow]);
    if g.features["overflow_arith"] {
        let at = g.text.find("struct S {").unwrap();
        g.text.insert_str(at, "long long h0 = 1;\n");
    }
    g
}

/// `generate`, and in 40% of programs floating-point arithmetic on
/// shared `double`s and a `float` (`float_arith`), drawn from its own
/// stream, with an assertion on them in main.
pub fn generate_float(seed: u64) -> Generated {
    let mut g = generate_with(seed, &[Extra::Float]);
    float_decls(&mut g, seed);
    g
}

/// The float stream's globals and its assertion in main.
fn float_decls(g: &mut Generated, seed: u64) {
    if g.features["float_arith"] {
        let at = g.text.find("struct S {").unwrap();
        g.text.insert_str(at, "double d0, d1 = 0.25;\nfloat f0;\n");
        let mut r = Rng(seed ^ 0xF1_0A7);
        let check = match r.below(4) {
            0 => format!("d0 != {}.5", r.below(3)),
            1 => format!("d1 < {}.25", 1 + r.below(3)),
            2 => "f0 < 0.25f".to_string(),
            _ => format!("(int)(d0 + d1) != {}", r.below(3)),
        };
        let at = g.text.rfind("  return 0;\n}\n").unwrap();
        g.text.insert_str(at, &format!("  assert({check});\n"));
    }
}

/// `generate`, and in 40% of programs heap misuse (`heap_misuse`): a
/// heap array that threads index by shared values and free, and a
/// pointer that is null until some thread sets it (the `--property
/// memsafety` tests), drawn from its own stream.
pub fn generate_memory(seed: u64) -> Generated {
    let mut g = generate_with(seed, &[Extra::Memory]);
    if g.features["heap_misuse"] {
        let at = g.text.find("struct S {").unwrap();
        g.text.insert_str(at, "int *hp, *np;\n");
        let at = g.text.find("int main(void) {\n").unwrap() + "int main(void) {\n".len();
        g.text.insert_str(at, "  hp = calloc(2, sizeof(int));\n");
    }
    g
}

/// `generate`, and in 40% of programs type punning (`type_punning`): a
/// shared union of an int, its four bytes and two shorts, and int globals
/// written a byte at a time through a char pointer, with an assertion in
/// main on the union, drawn from its own stream.
pub fn generate_punning(seed: u64) -> Generated {
    let mut g = generate_with(seed, &[Extra::Punning]);
    punning_decls(&mut g, seed);
    g
}

/// The punning stream's union and its assertion in main.
fn punning_decls(g: &mut Generated, seed: u64) {
    if g.features["type_punning"] {
        let at = g.text.find("struct S {").unwrap();
        g.text.insert_str(
            at,
            "union P { int i; unsigned char c[4]; short h[2]; } pu;\n",
        );
        let mut r = Rng(seed ^ 0xB17E_0001);
        let check = match r.below(4) {
            0 => "pu.i != 257".to_string(),
            1 => format!("pu.h[0] != -{}", 1 + r.below(3)),
            2 => "pu.i >= 0".to_string(),
            _ => format!("pu.c[1] != {}", 1 + r.below(3)),
        };
        let at = g.text.rfind("  return 0;\n}\n").unwrap();
        g.text.insert_str(at, &format!("  assert({check});\n"));
    }
}

/// The statements a program may get from a stream of their own.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Extra {
    Nested,
    Misuse,
    Timed,
    Overflow,
    Float,
    Memory,
    Punning,
}

fn generate_with(seed: u64, extras: &[Extra]) -> Generated {
    let mut g = Gen {
        r: Rng(seed ^ 0x5EC0_5EC0),
        f: FEATURES.iter().map(|f| (*f, false)).collect(),
        tmp: 0,
        key: false,
        kind: 0,
        sync: 0,
        nest: None,
        misuse: None,
        timed: None,
        overflow: None,
        float: None,
        memory: None,
        punning: None,
    };
    let mut nest = Rng(seed ^ 0x4E57_ED10);
    if extras.contains(&Extra::Nested) && nest.chance(30) {
        g.nest = Some(nest);
    }
    let mut bad = Rng(seed ^ 0x10C4_B4D5);
    if extras.contains(&Extra::Misuse) && bad.chance(40) {
        g.misuse = Some(bad);
    }
    let mut timed = Rng(seed ^ 0x71ED_0A17);
    if extras.contains(&Extra::Timed) && timed.chance(40) {
        g.timed = Some(timed);
    }
    let mut ovf = Rng(seed ^ 0x0F10_0F10);
    if extras.contains(&Extra::Overflow) && ovf.chance(40) {
        g.overflow = Some(ovf);
    }
    let mut mem = Rng(seed ^ 0x3E3_5AFE);
    if extras.contains(&Extra::Memory) && mem.chance(40) {
        g.memory = Some(mem);
    }
    let mut pun = Rng(seed ^ 0xB17E_B17E);
    if extras.contains(&Extra::Punning) && pun.chance(40) {
        g.punning = Some(pun);
    }
    let mut fl = Rng(seed ^ 0xF107_F107);
    if extras.contains(&Extra::Float) && fl.chance(40) {
        g.float = Some(fl);
    }
    // Drawn apart, so that programs without one keep their bytes.
    g.sync = match Rng(seed ^ 0x5E4A_F0E5).below(10) {
        0 => 1,
        1 => 2,
        2 => 3,
        3 => 4,
        _ => 0,
    };
    let nmain = 1 + g.r.below(3) as usize; // workers created by main
    let nested = nmain < 3 && g.r.chance(35);
    let total = nmain + nested as usize;
    g.mark(match total + 1 {
        2 => "threads_2",
        3 => "threads_3",
        _ => "threads_4plus",
    });
    let mut workers: Vec<Worker> = (0..total)
        .map(|_| Worker {
            heap: false,
            child: None,
            joins_sibling: None,
            waits: false,
            signals: false,
            exits: false,
            detached: false,
        })
        .collect();
    if nested {
        let parent = g.r.below(nmain as u64) as usize;
        workers[parent].child = Some(nmain);
        g.mark("nested_create");
    }
    if g.r.chance(45) {
        let w = g.r.below(nmain as u64) as usize;
        workers[w].heap = true;
        g.mark("heap_struct_arg");
    }
    if nmain >= 2 && g.r.chance(40) {
        // A later sibling joins an earlier one (main then does not).
        let j = 1 + g.r.below(nmain as u64 - 1) as usize;
        let i = g.r.below(j as u64) as usize;
        workers[j].joins_sibling = Some(i);
        g.mark("join_by_sibling");
    }
    if total >= 2 && g.r.chance(35) {
        let a = g.r.below(total as u64) as usize;
        let mut b = g.r.below(total as u64) as usize;
        if a == b {
            b = (a + 1) % total;
        }
        workers[a].waits = true;
        workers[b].signals = true;
    } else if g.r.chance(20) {
        // main signals, a worker waits.
        let a = g.r.below(total as u64) as usize;
        workers[a].waits = true;
    }
    for w in workers.iter_mut() {
        w.exits = g.r.chance(20);
    }
    g.key = g.r.chance(25);
    let dtor_again = g.key && g.r.chance(40);
    g.kind = match g.r.below(8) {
        0 => 1,
        1 => 2,
        _ => 0,
    };
    if g.r.chance(12) {
        // A worker created by main that nobody else joins.
        let w = g.r.below(nmain as u64) as usize;
        if !workers.iter().any(|x| x.joins_sibling == Some(w)) && !workers[w].waits {
            workers[w].detached = true;
            g.mark("detached");
        }
    }
    let main_signals = workers.iter().any(|w| w.waits) && !workers.iter().any(|w| w.signals);

    let mut s = String::new();
    let _ = writeln!(s, "/* seqc gen --seed {seed} */");
    s.push_str(
        "#include <pthread.h>\n#include <assert.h>\n#include <stdlib.h>\n\
         extern int __VERIFIER_nondet_int(void);\n\
         extern void __VERIFIER_assume(int);\n\
         extern void __VERIFIER_atomic_begin(void);\n\
         extern void __VERIFIER_atomic_end(void);\n\n\
         int g0, g1, g2;\nint arr[3];\nint flag;\n\
         pthread_mutex_t m0 = PTHREAD_MUTEX_INITIALIZER;\npthread_mutex_t m1;\n\
         pthread_cond_t c0 = PTHREAD_COND_INITIALIZER;\n",
    );
    let _ = writeln!(s, "pthread_t tid[{}];", total.max(1));
    match g.sync {
        1 => s.push_str("#include <semaphore.h>\nsem_t s0;\n"),
        2 => s.push_str("pthread_rwlock_t rw0 = PTHREAD_RWLOCK_INITIALIZER;\n"),
        3 => s.push_str("pthread_spinlock_t sp0;\n"),
        4 => s.push_str("pthread_barrier_t b0;\n"),
        _ => {}
    }
    s.push_str("struct S { int a; int b; };\n\n");
    if g.key {
        s.push_str("pthread_key_t key;\n");
        // The destructor writes shared state; sometimes it sets the key
        // again once, for a second destructor pass.
        s.push_str("void dtor(void *v) {\n  g2 += (int)(long)v;\n");
        if dtor_again {
            g.mark("key_dtor_again");
            s.push_str("  if (g2 < 3) pthread_setspecific(key, (void *)1);\n");
        }
        s.push_str("}\n\n");
    }
    s.push_str("void __VERIFIER_atomic_add(int *p, int v) { *p += v; }\n");
    for i in 0..total {
        let _ = writeln!(s, "void *worker{i}(void *arg);");
    }
    s.push('\n');
    for (i, w) in workers.iter().enumerate() {
        g.tmp = 0;
        let _ = writeln!(s, "void *worker{i}(void *arg) {{");
        if w.heap {
            s.push_str("  struct S *s = arg;\n");
        } else {
            s.push_str("  int id = (int)(long)arg;\n");
        }
        if let Some(j) = w.joins_sibling {
            g.mark("join_reads_value");
            let _ = writeln!(s, "  void *r;");
            let _ = writeln!(s, "  pthread_join(tid[{j}], &r);");
            let _ = writeln!(s, "  g2 += (int)(long)r;");
        }
        if w.waits {
            g.cond_wait(&mut s, "  ");
        }
        if let Some(c) = w.child {
            let _ = writeln!(
                s,
                "  pthread_create(&tid[{c}], 0, worker{c}, (void *)(long){c});"
            );
        }
        // Fewer statements when there are more threads: the oracle's
        // state space grows with the product.
        let n = 1 + g.r.below(if total >= 3 { 2 } else { 3 });
        for _ in 0..n {
            g.stmt(&mut s, "  ", w.heap, 1);
        }
        if w.signals {
            g.cond_signal(&mut s, "  ");
        }
        if let Some(c) = w.child
            && g.r.chance(60)
        {
            g.mark("join_by_parent");
            let _ = writeln!(s, "  pthread_join(tid[{c}], 0);");
        }
        let rv = g.small();
        if w.exits {
            g.mark("pthread_exit");
            let _ = writeln!(s, "  pthread_exit((void *)(long){rv});");
        } else {
            let _ = writeln!(s, "  return (void *)(long){rv};");
        }
        s.push_str("}\n\n");
    }
    g.tmp = 0;
    s.push_str("int main(void) {\n");
    match g.sync {
        1 => s.push_str("  sem_init(&s0, 0, 1);\n"),
        3 => s.push_str("  pthread_spin_init(&sp0, 0);\n"),
        4 => s.push_str("  pthread_barrier_init(&b0, 0, 2);\n"),
        _ => {}
    }
    if g.key {
        g.mark("key_dtor");
        s.push_str("  pthread_key_create(&key, dtor);\n");
    }
    if g.kind != 0 {
        let _ = writeln!(
            s,
            "  pthread_mutexattr_t ma;\n  pthread_mutexattr_init(&ma);\n  \
             pthread_mutexattr_settype(&ma, {});\n  pthread_mutex_init(&m1, &ma);",
            if g.kind == 1 {
                "PTHREAD_MUTEX_RECURSIVE"
            } else {
                "PTHREAD_MUTEX_ERRORCHECK"
            }
        );
    }
    let detach = workers.iter().any(|w| w.detached);
    if detach {
        s.push_str(
            "  pthread_attr_t da;\n  pthread_attr_init(&da);\n  \
             pthread_attr_setdetachstate(&da, PTHREAD_CREATE_DETACHED);\n",
        );
    }
    let heap = workers.iter().any(|w| w.heap);
    if heap {
        s.push_str("  struct S *s = malloc(sizeof(struct S));\n  s->a = 0;\n  s->b = 1;\n");
    }
    for (i, w) in workers.iter().enumerate().take(nmain) {
        let arg = if w.heap {
            "s".to_string()
        } else {
            format!("(void *)(long){i}")
        };
        let attr = if w.detached { "&da" } else { "0" };
        let _ = writeln!(s, "  pthread_create(&tid[{i}], {attr}, worker{i}, {arg});");
    }
    let n = g.r.below(3);
    for _ in 0..n {
        g.stmt(&mut s, "  ", heap, 1);
    }
    if main_signals {
        g.cond_signal(&mut s, "  ");
    }
    let mut sum = false;
    for (i, _) in workers.iter().enumerate().take(nmain) {
        if workers.iter().any(|w| w.joins_sibling == Some(i)) {
            continue;
        }
        if workers[i].detached {
            // Fails at once with EINVAL (22): it does not wait.
            let _ = writeln!(s, "  g1 += pthread_join(tid[{i}], 0) == 22;");
            continue;
        }
        if g.r.chance(80) {
            g.mark("join_by_parent");
            if g.r.chance(50) {
                g.mark("join_reads_value");
                let _ = writeln!(s, "  void *r{i};");
                let _ = writeln!(s, "  pthread_join(tid[{i}], &r{i});");
                let _ = writeln!(s, "  g1 += (int)(long)r{i};");
                sum = true;
            } else {
                let _ = writeln!(s, "  pthread_join(tid[{i}], 0);");
            }
        }
    }
    let _ = sum;
    let k = 1 + g.r.below(2);
    for _ in 0..k {
        g.mark("assert_in_main");
        let x = g.shared();
        let (op, c) = (*g.r.pick(&["!=", "<=", "<", ">="]), 1 + g.small());
        let c = if op == ">=" { c - 1 } else { c + 1 };
        let _ = writeln!(s, "  assert({x} {op} {c});");
    }
    if heap && g.r.chance(50) {
        g.mark("heap_struct_arg");
        let _ = writeln!(s, "  assert(s->a <= {});", 1 + g.small());
    }
    s.push_str("  return 0;\n}\n");
    // Drawn last, so that programs without it stay as they were: a
    // counted loop of creates, often past the thread bound (ir::loops),
    // right after main's own creates, and sometimes a loop joining them
    // before main's assertions.
    if g.r.chance(15) {
        g.mark("creation_loop");
        let n = 2 + g.r.below(4);
        g.tmp = 0;
        let mut w = String::from("void *lworker(void *arg) {\n  int id = (int)(long)arg;\n");
        g.stmt(&mut w, "  ", false, 1);
        w.push_str("  return 0;\n}\n\n");
        let at = s.find("int main(void) {\n").unwrap();
        s.insert_str(at, &w);
        let lp = format!(
            "  pthread_t ltid[{n}];\n  for (int ci = 0; ci < {n}; ci++)\n    \
             pthread_create(&ltid[ci], 0, lworker, (void *)(long)ci);\n"
        );
        let after = s
            .rfind("  pthread_create(&tid[")
            .map(|i| i + s[i..].find('\n').unwrap() + 1)
            .unwrap();
        s.insert_str(after, &lp);
        if g.r.chance(40) {
            g.mark("join_loop");
            let jl =
                format!("  for (int cj = 0; cj < {n}; cj++)\n    pthread_join(ltid[cj], 0);\n");
            let main = s.find("int main(void) {\n").unwrap();
            let at = s[main..]
                .find("  assert(")
                .map_or(s.rfind("  return 0;").unwrap(), |i| main + i);
            s.insert_str(at, &jl);
        }
    }
    Generated {
        text: s,
        features: g.f,
    }
}

/// The share of programs using each feature, as a text table.
pub fn report(all: &[BTreeMap<&'static str, bool>]) -> String {
    let n = all.len().max(1);
    let mut s = format!("{} programs\n", all.len());
    for f in FEATURES {
        let k = all
            .iter()
            .filter(|m| m.get(f).copied().unwrap_or(false))
            .count();
        s.push_str(&format!(
            "{f:<20} {k:>6} {:>6.1}%\n",
            100.0 * k as f64 / n as f64
        ));
    }
    s
}
