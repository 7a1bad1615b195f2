//! A bounded work queue.

use std::collections::VecDeque;
use std::fmt;

/// The most jobs a queue holds.
pub const CAPACITY: usize = 1024;

static GREETING: &str = "ready";

/// A job waiting to run.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Job<T> {
    pub id: u64,
    pub payload: T,
}

pub enum State {
    Idle,
    Busy(u64),
}

pub trait Runner {
    /// Runs one job.
    fn run(&mut self, id: u64) -> State;

    fn name(&self) -> &str {
        "runner"
    }
}

pub struct Queue<T> {
    jobs: VecDeque<Job<T>>,
}

impl<T: Clone> Queue<T> {
    /// Makes an empty queue.
    pub fn new() -> Self {
        Queue { jobs: VecDeque::new() }
    }

    #[inline]
    pub fn push(&mut self, job: Job<T>) -> Result<(), Job<T>> {
        if self.jobs.len() >= CAPACITY {
            return Err(job);
        }
        self.jobs.push_back(job);
        Ok(())
    }
}

impl<T> fmt::Display for Queue<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} jobs", self.jobs.len())
    }
}

impl<T> Runner for Queue<T> {
    fn run(&mut self, id: u64) -> State {
        State::Busy(id)
    }
}

impl<T> Queue<T> {
    pub fn run(&self) {}
}

macro_rules! job {
    ($id:expr, $p:expr) => {
        Job { id: $id, payload: $p }
    };
}

pub mod metrics {
    pub type Count = u64;

    pub fn record(n: Count) -> Count {
        n + 1
    }
}
