//! The assumptions of the α–β model as the cost view uses it.

use yew::prelude::*;

/// The "Assumptions" panel.
pub fn assumptions() -> Html {
    html! {
        <section class="panel wide" aria-labelledby="assume-h">
            <h2 class="panel-h" id="assume-h">{"Assumptions"}</h2>
            <ul class="muted">
                <li>{"α–β model as in Thakur, Rabenseifner & Gropp (2005): a message of m bytes costs α + mβ; a rank sends and receives one message at a time; no contention; equal chunks of n/p bytes."}</li>
                <li>{"Binomial tree = unpipelined reduce to a root then broadcast, the whole tensor per message."}</li>
                <li>{"The binary tree and the double binary tree are listed as whole messages (no segments), which is their worst case. Cut into k segments they pipeline and approach 3nβ and 2nβ: the timeline view (?view=timeline&segments=…) times them on the dataflow clock."}</li>
                <li>{"Naive root = the root receives and then sends one full tensor at a time."}</li>
                <li>{"γ (seconds per reduced byte) defaults to 0, as in the worked examples."}</li>
            </ul>
        </section>
    }
}
