//! The cost view's protocol fields: `proto=none|mpi|nccl`, with
//! - MPI: `eager=` (eager limit, default 4KiB, Open MPI's shared-memory
//!   default) and `rndv=` (the rendezvous handshake; default one round
//!   trip, 2α);
//! - NCCL: `nccl_ver=2.30|2.19`, `ch=` (graph channels), `intra=` and
//!   `inter=` (per-channel bandwidth inside and between nodes), `netlat=`
//!   (extra inter-node latency), `nodes=`, `cc=` (compute capability × 10)
//!   and `link=nvl|pci` (the path inside a node).
//!
//! None of them is written to the URL unless `proto=` is set, so every link
//! made before keeps its meaning ([`crate::core::cost::protocol`],
//! [`crate::core::cost::nccl_tune`]).

use super::fields::{self, Field};
use super::{parse_int_in, FieldError, Query};
use crate::core::cost::nccl_tune::{Inputs, Node, Path, Version};
use crate::core::cost::protocol::{Handshake, Rendezvous};
use crate::core::units::{parse_size, ByteSize, Prefix};

/// Which protocol layer the cost view applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum ProtoChoice {
    /// The plain α–β model (the default).
    #[default]
    None,
    /// MPI's eager/rendezvous rule per message.
    Mpi,
    /// NCCL's own tuning model (its algorithms and protocols).
    Nccl,
}

impl ProtoChoice {
    /// Every choice, in menu order.
    pub const ALL: [ProtoChoice; 3] = [ProtoChoice::None, ProtoChoice::Mpi, ProtoChoice::Nccl];
    /// URL value.
    pub fn key(self) -> &'static str {
        match self {
            ProtoChoice::None => "none",
            ProtoChoice::Mpi => "mpi",
            ProtoChoice::Nccl => "nccl",
        }
    }
    /// Menu label.
    pub fn label(self) -> &'static str {
        match self {
            ProtoChoice::None => "none (α + nβ)",
            ProtoChoice::Mpi => "MPI",
            ProtoChoice::Nccl => "NCCL",
        }
    }
}

/// The NCCL inputs typed in the cost view (the graph is the same for ring
/// and tree, as on an NVSwitch node).
#[derive(Clone, Debug, PartialEq)]
pub struct NcclFields {
    /// Rules and constants of this version.
    pub version: Version,
    /// Graph channels, 1 ..= 64.
    pub channels: u32,
    /// Per-channel bandwidth inside a node, GB/s.
    pub intra: Field<f64>,
    /// Per-channel bandwidth between nodes, GB/s.
    pub inter: Field<f64>,
    /// Extra inter-node latency, seconds.
    pub netlat: Field<f64>,
    /// Nodes, 1 ..= p.
    pub nodes: usize,
    /// Compute capability × 10.
    pub cc: u32,
    /// NVLink (NVL) or PCI inside a node.
    pub nvlink: bool,
}

impl Default for NcclFields {
    /// One NVSwitch node of A100s: 12 channels of 20 GB/s (the p4d log).
    fn default() -> Self {
        NcclFields {
            version: Version::V2_30,
            channels: 12,
            intra: Field::new("20GB/s", 20.0),
            inter: Field::new("20GB/s", 20.0),
            netlat: Field::new("0us", 0.0),
            nodes: 1,
            cc: 80,
            nvlink: true,
        }
    }
}

impl NcclFields {
    /// The model's inputs at `p` ranks: these fields as a [`Node`], on
    /// `nodes` of them ([`Node::inputs`] decides the graphs).
    pub fn inputs(&self, p: usize) -> Inputs {
        let node = Node {
            channels: self.channels,
            intra: self.intra.value,
            inter: self.inter.value,
            nvlink: self.nvlink,
            netlat_us: self.netlat.value * 1e6,
            cc: self.cc,
        };
        node.inputs(self.version, p, self.nodes)
    }
}

/// The protocol fields of the cost view.
#[derive(Clone, Debug, PartialEq)]
pub struct ProtoParams {
    /// The choice.
    pub choice: ProtoChoice,
    /// Eager limit (`eager=`).
    pub eager: Field<ByteSize>,
    /// Rendezvous handshake (`rndv=`), seconds; `None` = one round trip (2α).
    pub rndv: Option<Field<f64>>,
    /// NCCL's inputs.
    pub nccl: NcclFields,
}

impl Default for ProtoParams {
    fn default() -> Self {
        ProtoParams {
            choice: ProtoChoice::None,
            eager: Field::new(
                "4KiB",
                ByteSize {
                    bytes: 4096,
                    prefix: Prefix::Binary,
                },
            ),
            rndv: None,
            nccl: NcclFields::default(),
        }
    }
}

/// A per-channel bandwidth in GB/s: above 0, at most 10 TB/s.
fn channel_bw(name: &'static str, raw: &str) -> Result<Field<f64>, FieldError> {
    let f = fields::bandwidth(name, raw)?;
    let gbs = f.value.bytes_per_second / 1e9;
    if gbs > 10_000.0 {
        return Err(FieldError::new(
            name,
            format!("{name}: a channel's bandwidth must be at most 10 TB/s"),
        ));
    }
    Ok(Field::new(&f.text, gbs))
}

impl ProtoParams {
    /// MPI's rule with these fields.
    pub fn rendezvous(&self) -> Rendezvous {
        Rendezvous {
            limit: self.eager.value.bytes as f64,
            handshake: self
                .rndv
                .as_ref()
                .map_or(Handshake::RoundTrip, |h| Handshake::Seconds(h.value)),
        }
    }

    /// Reads the fields of `q` over `self`; each bad field keeps its value
    /// and yields a [`FieldError`]. `p` bounds `nodes`.
    pub fn read(&mut self, q: &Query, p: usize, errs: &mut Vec<FieldError>) {
        let mut put = |r: Result<(), FieldError>| {
            if let Err(e) = r {
                errs.push(e);
            }
        };
        if let Some(raw) = q.get("proto") {
            let s = raw.trim().to_ascii_lowercase();
            put(match ProtoChoice::ALL.into_iter().find(|c| c.key() == s) {
                Some(c) => {
                    self.choice = c;
                    Ok(())
                }
                None => Err(FieldError::new(
                    "proto",
                    format!("proto must be one of none, mpi, nccl (got “{raw}”)"),
                )),
            });
        }
        if let Some(raw) = q.get("eager") {
            put(match parse_size(raw) {
                Ok(s) if s.bytes <= 1 << 30 => {
                    self.eager = Field::new(raw.trim(), s);
                    Ok(())
                }
                Ok(_) => Err(FieldError::new(
                    "eager",
                    "eager: the eager limit must be at most 1 GiB",
                )),
                Err(e) => Err(FieldError::new("eager", format!("eager: {e}"))),
            });
        }
        if let Some(raw) = q.get("rndv") {
            put(if raw.trim().is_empty() || raw.trim() == "2α" {
                self.rndv = None;
                Ok(())
            } else {
                fields::alpha("rndv", raw).map(|f| self.rndv = Some(f))
            });
        }
        self.read_nccl(q, p, &mut put);
    }

    fn read_nccl(&mut self, q: &Query, p: usize, put: &mut impl FnMut(Result<(), FieldError>)) {
        let n = &mut self.nccl;
        if let Some(raw) = q.get("nccl_ver") {
            put(match Version::parse(raw) {
                Some(v) => {
                    n.version = v;
                    Ok(())
                }
                None => Err(FieldError::new(
                    "nccl_ver",
                    format!("nccl_ver must be 2.19 or 2.30 (or a 2.x version; got “{raw}”)"),
                )),
            });
        }
        if let Some(raw) = q.get("ch") {
            put(parse_int_in("ch", raw, 1, 64).map(|v| n.channels = v as u32));
        }
        if let Some(raw) = q.get("intra") {
            put(channel_bw("intra", raw).map(|f| n.intra = f));
        }
        if let Some(raw) = q.get("inter") {
            put(channel_bw("inter", raw).map(|f| n.inter = f));
        }
        if let Some(raw) = q.get("netlat") {
            put(fields::alpha("netlat", raw).map(|f| n.netlat = f));
        }
        if let Some(raw) = q.get("nodes") {
            put(parse_int_in("nodes", raw, 1, p.max(1) as u64).map(|v| n.nodes = v as usize));
        }
        if let Some(raw) = q.get("cc") {
            put(parse_int_in("cc", raw, 30, 200).map(|v| n.cc = v as u32));
        }
        if let Some(raw) = q.get("link") {
            put(match raw.trim().to_ascii_lowercase().as_str() {
                "nvl" | "nvlink" => {
                    n.nvlink = true;
                    Ok(())
                }
                "pci" | "pcie" => {
                    n.nvlink = false;
                    Ok(())
                }
                _ => Err(FieldError::new(
                    "link",
                    format!("link must be nvl or pci (got “{raw}”)"),
                )),
            });
        }
    }

    /// The URL pairs: nothing without a protocol; `eager` (and `rndv`)
    /// with MPI; the NCCL inputs with NCCL.
    pub fn pairs(&self, v: &mut Vec<(&'static str, String)>) {
        match self.choice {
            ProtoChoice::None => {}
            ProtoChoice::Mpi => {
                v.push(("proto", "mpi".into()));
                v.push(("eager", self.eager.text.clone()));
                if let Some(h) = &self.rndv {
                    v.push(("rndv", h.text.clone()));
                }
            }
            ProtoChoice::Nccl => {
                let n = &self.nccl;
                v.push(("proto", "nccl".into()));
                v.push(("nccl_ver", n.version.key().into()));
                v.push(("ch", n.channels.to_string()));
                v.push(("intra", n.intra.text.clone()));
                v.push(("inter", n.inter.text.clone()));
                v.push(("netlat", n.netlat.text.clone()));
                v.push(("nodes", n.nodes.to_string()));
                v.push(("cc", n.cc.to_string()));
                v.push(("link", if n.nvlink { "nvl" } else { "pci" }.into()));
            }
        }
    }
}

/// The cost view's query for NCCL's model at `i` (`?view=cost&p=…&proto=nccl&…`):
/// the measure view's link from a pasted log's GRAPH lines to the model.
/// The ring graph's channels and bandwidths stand for both graphs.
pub fn cost_link(i: &Inputs) -> String {
    let mut v: Vec<(&'static str, String)> = vec![
        ("view", "cost".into()),
        ("p", i.ranks.to_string()),
        ("proto", "nccl".into()),
    ];
    let f = NcclFields {
        version: i.version,
        channels: i.ring.channels,
        intra: Field::new(
            &format!(
                "{}GB/s",
                crate::core::units::decimal::shortest(i.ring.bw_intra)
            ),
            i.ring.bw_intra,
        ),
        inter: Field::new(
            &format!(
                "{}GB/s",
                crate::core::units::decimal::shortest(i.ring.bw_inter)
            ),
            i.ring.bw_inter,
        ),
        netlat: Field::new(
            &format!(
                "{}us",
                crate::core::units::decimal::shortest(i.latency_inter)
            ),
            i.latency_inter * 1e-6,
        ),
        nodes: i.nodes,
        cc: i.cc,
        nvlink: i.ring.type_intra == Path::Nvl,
    };
    let p = ProtoParams {
        choice: ProtoChoice::Nccl,
        nccl: f,
        ..ProtoParams::default()
    };
    let mut rest = Vec::new();
    p.pairs(&mut rest);
    v.extend(rest.into_iter().filter(|(k, _)| *k != "proto"));
    format!("?{}", super::encode(&v))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(s: &str) -> (ProtoParams, Vec<FieldError>) {
        let mut p = ProtoParams::default();
        let mut e = Vec::new();
        p.read(&Query::parse(s), 8, &mut e);
        (p, e)
    }

    #[test]
    fn nothing_is_written_without_a_protocol_and_everything_round_trips_with_one() {
        let mut v = Vec::new();
        ProtoParams::default().pairs(&mut v);
        assert!(v.is_empty());
        for s in [
            "proto=mpi&eager=8KiB&rndv=3us",
            "proto=nccl&nccl_ver=2.19&ch=16&intra=30GB/s&inter=12.5GB/s&netlat=2us&nodes=2&cc=90&link=pci",
        ] {
            let (p, e) = read(s);
            assert!(e.is_empty(), "{e:?}");
            let mut v = Vec::new();
            p.pairs(&mut v);
            let (q, e) = read(&crate::params::encode(&v));
            assert!(e.is_empty());
            assert_eq!(q, p, "{s}");
        }
        let (p, _) = read("proto=mpi&eager=8KiB&rndv=3us");
        assert_eq!(
            p.rendezvous(),
            Rendezvous {
                limit: 8192.0,
                handshake: Handshake::Seconds(3e-6)
            }
        );
    }

    #[test]
    fn bad_protocol_fields_keep_their_values_with_a_message() {
        for (bad, field) in [
            ("proto=tcp", "proto"),
            ("eager=lots", "eager"),
            ("eager=2GiB", "eager"),
            ("rndv=fast", "rndv"),
            ("nccl_ver=3.1", "nccl_ver"),
            ("ch=0", "ch"),
            ("ch=65", "ch"),
            ("intra=20GB", "intra"),
            ("inter=20TB/s", "inter"),
            ("netlat=2s", "netlat"),
            ("nodes=9", "nodes"),
            ("cc=8", "cc"),
            ("link=ib", "link"),
        ] {
            let (p, e) = read(bad);
            assert_eq!(e.len(), 1, "{bad}: {e:?}");
            assert_eq!(e[0].field, field, "{bad}");
            assert_eq!(p, ProtoParams::default(), "{bad}");
        }
    }

    #[test]
    fn a_log_s_inputs_become_a_cost_view_link_that_reads_back() {
        let mut i = NcclFields::default().inputs(16);
        i.nodes = 2;
        i.ring.channels = 16;
        i.ring.bw_intra = 24.0;
        i.ring.bw_inter = 12.0;
        let link = cost_link(&i);
        assert_eq!(
            link,
            "?view=cost&p=16&proto=nccl&nccl_ver=2.30&ch=16&intra=24GB%2Fs&inter=12GB%2Fs&netlat=0us&nodes=2&cc=80&link=nvl"
        );
        let mut p = ProtoParams::default();
        let mut e = Vec::new();
        p.read(&Query::parse(&link[1..]), 16, &mut e);
        assert!(e.is_empty(), "{e:?}");
        assert_eq!(p.nccl.inputs(16).ring, i.ring);
        assert_eq!(p.nccl.nodes, 2);
    }
}
