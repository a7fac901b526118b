//! The start page (`index.html` with no `?view=`): what the lab is, a path
//! through the chapter in its order, and where teachers and engineers go.
//!
//! Each [`Stop`] of [`PATH`] is one section of the chapter
//! (`distributed-sgd-and-all-reduce`, sections 1–12): what to look for, a
//! view opened on a case that shows it, and the chapter's practice question
//! that checks it. A case is written in its view's canonical form (what
//! the view writes back to the URL), so the page a link opens keeps the
//! link's address; the native tests parse every case with its view's
//! parser and `tests/browser_start.rs` opens every link and reads what it
//! promised. The page never states an answer: a student predicts first.

#[cfg(test)]
mod tests;

/// One stop on the path: a section of the chapter, a view on a case, and
/// the practice question that checks it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stop {
    /// The chapter's section number (1–12).
    pub chapter: u8,
    /// The section's title, as in the chapter ("Ring all-reduce").
    pub section: &'static str,
    /// What to look for, in one sentence (no answer to the question).
    pub look: &'static str,
    /// The view's `?view=` key.
    pub view: &'static str,
    /// The case: the rest of the query, canonical pairs without `view=`.
    pub case: &'static str,
    /// The link's text: the view and its case in words.
    pub label: &'static str,
    /// The chapter's practice questions (1–8) that check this stop.
    pub questions: &'static [u8],
}

impl Stop {
    /// The link to the view on this stop's case (relative, so the page
    /// works from any folder): `?view=<view>&<case>`.
    pub fn href(&self) -> String {
        if self.case.is_empty() {
            format!("?view={}", self.view)
        } else {
            format!("?view={}&{}", self.view, self.case)
        }
    }

    /// The link to practice question `q` of the course set, unrevealed:
    /// `?view=practice&set=course&q=N`.
    pub fn question_href(q: u8) -> String {
        format!("?view=practice&set=course&q={q}")
    }
}

/// The path through the chapter, in its order: the objective, centralised
/// and decentralised SGD, consensus, all-reduce and the ring, costs, the
/// other algorithms, choosing by size, topology, time, and the mistakes.
pub const PATH: &[Stop] = &[
    Stop {
        chapter: 1,
        section: "One objective, distributed data",
        look: "The global loss weights every shard by its samples, so a small shard with a high loss counts for little.",
        view: "sgd",
        case: "shards=600,300,100&losses=0.2,0.5,0.9",
        label: "Distributed SGD: three shards of 600, 300 and 100 samples",
        questions: &[1],
    },
    Stop {
        chapter: 2,
        section: "Centralised SGD: one global update",
        look: "With all-reduce every worker applies the same averaged gradient, so the models stay identical step after step.",
        view: "sgd",
        case: "mode=allreduce&steps=200",
        label: "Distributed SGD: all-reduce, 200 steps",
        questions: &[3],
    },
    Stop {
        chapter: 3,
        section: "Decentralised SGD: learn locally, mix with neighbours",
        look: "Gossip workers step on their own data and average only with neighbours: the models differ, and the page says by how much.",
        view: "sgd",
        case: "mode=gossip&steps=200",
        label: "Distributed SGD: gossip on a ring, 200 steps",
        questions: &[],
    },
    Stop {
        chapter: 4,
        section: "Consensus: how local models approach agreement",
        look: "Each round of neighbour averaging keeps the mean and shrinks the disagreement by a factor the mixing matrix sets.",
        view: "gossip",
        case: "graph=ring&p=4&init=0,3,6,9",
        label: "Gossip consensus: a ring of 4 nodes starting at 0, 3, 6, 9",
        questions: &[8],
    },
    Stop {
        chapter: 5,
        section: "What all-reduce produces",
        look: "At the end every rank holds the same reduced tensor, element by element; the page checks it on real buffers.",
        view: "ring",
        case: "p=4&size=100MB&step=6",
        label: "Ring all-reduce: 4 ranks, 100 MB, at its last round",
        questions: &[2],
    },
    Stop {
        chapter: 6,
        section: "Ring all-reduce",
        look: "A reduce-scatter, then an all-gather: step through the rounds and watch the byte counters.",
        view: "ring",
        case: "p=8&size=64MB",
        label: "Ring all-reduce: 8 ranks, 64 MB",
        questions: &[4, 5],
    },
    Stop {
        chapter: 7,
        section: "Model latency and bandwidth costs",
        look: "Each algorithm's time is α times its messages plus β times its bytes; the table shows both terms apart.",
        view: "cost",
        case: "p=8&size=64MB",
        label: "α–β cost model: 8 ranks, 64 MB",
        questions: &[],
    },
    Stop {
        chapter: 8,
        section: "Trees, recursive exchanges and Rabenseifner",
        look: "Rabenseifner reduce-scatters by recursive halving, then all-gathers by recursive doubling: count its rounds and its bytes against the ring's.",
        view: "collectives",
        case: "alg=rab&p=8&size=64MB",
        label: "Collectives: Rabenseifner, 8 ranks, 64 MB",
        questions: &[6],
    },
    Stop {
        chapter: 9,
        section: "Worked example: choose by message size",
        look: "At a few kilobytes the start-up terms decide; at megabytes the bytes do.",
        view: "cost",
        case: "p=16&size=8KiB",
        label: "α–β cost model: 16 ranks, 8 KiB",
        questions: &[7],
    },
    Stop {
        chapter: 10,
        section: "Match communication to physical topology",
        look: "Inside a node the links are fast and between nodes slow: a hierarchical all-reduce sends less over the slow ones.",
        view: "topology",
        case: "",
        label: "Topology: 2 nodes of 4 GPUs",
        questions: &[],
    },
    Stop {
        chapter: 11,
        section: "Choosing and evaluating a strategy",
        look: "One late rank holds up every rank that waits for its data: the clock shows who waits, and for how long.",
        view: "timeline",
        case: "late=2:5ms",
        label: "Timeline: ring, 4 ranks, rank 2 starts 5 ms late",
        questions: &[],
    },
    Stop {
        chapter: 12,
        section: "Common mistakes",
        look: "Each drill names the mistake behind a wrong answer.",
        view: "practice",
        case: "set=drill",
        label: "Practice: the drill",
        questions: &[],
    },
];

/// Where a reader who is not following the path goes: a title, a sentence
/// and links as `(text, href)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Door {
    /// Who this is for.
    pub who: &'static str,
    /// What they find, in one sentence.
    pub what: &'static str,
    /// The links, `(text, href)`; hrefs are relative to the page.
    pub links: &'static [(&'static str, &'static str)],
}

/// The doors for teachers and engineers.
pub const DOORS: &[Door] = &[
    Door {
        who: "Teachers",
        what: "Every view embeds in a course page: add embed=1 to its link (and show= to pick its panels). The example lesson shows three frames; the lab sheet is a two-hour class on a small MPI cluster, predicting with the lab and measuring with its runner.",
        links: &[
            ("Example lesson with embedded views", "embed-example.html"),
            ("Lab sheet (Markdown)", "lab.md"),
            ("Practice, the course questions", "?view=practice&set=course&q=1"),
        ],
    },
    Door {
        who: "Engineers",
        what: "Bring your own numbers: paste an nccl-tests, OSU or NCCL_DEBUG log to fit α and β, open PyTorch profiler traces or Flight Recorder dumps, and hold a training step against the model. Files stay in the page.",
        links: &[
            ("Measured logs", "?view=measure"),
            ("Measured trace (profiler)", "?view=trace"),
            ("Hang: the rank a job waits for", "?view=hang"),
            ("Training step", "?view=step"),
        ],
    },
];

/// What the lab is, in two sentences: the start page's first paragraph.
pub const INTRO: &str =
    "Collective Lab draws and times the collectives behind distributed training: \
every animation runs the schedule on real buffers, every cost comes from an α–β formula checked \
against that run. Follow the chapter below in order, predicting each number before you look, or \
open any view from the list above.";
