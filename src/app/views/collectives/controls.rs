//! The collectives view's form: the algorithm menu and the four link fields.

use yew::prelude::*;

use crate::app::components::field::TextField;
use crate::app::components::link_fields::LinkFields;
use crate::app::components::select_field::SelectField;
use crate::app::hooks::{on_commit, on_commit_field, ViewHandle};
use crate::core::collectives::Algorithm;
use crate::params::collectives::CollectivesParams;

/// Props of [`CollectivesControls`].
#[derive(Properties, PartialEq)]
pub struct CollectivesControlsProps {
    /// The view's state.
    pub state: ViewHandle<CollectivesParams>,
}

/// Algorithm, ranks, size, bandwidth and α.
#[component]
pub fn CollectivesControls(props: &CollectivesControlsProps) -> Html {
    let state = &props.state;
    let (params, d) = (&state.params, &state.drafts);
    let options = Algorithm::all()
        .map(|a| {
            (
                a.key().into(),
                format!("{} ({})", a.label(), a.key()).into(),
            )
        })
        .collect::<Vec<_>>();
    html! {
        <form class="controls" onsubmit={Callback::from(|e: SubmitEvent| e.prevent_default())}>
            <SelectField name="alg" label="Algorithm" class="span2" options={options}
                selected={params.alg.key()} on_commit={on_commit(state, "alg")} />
            <LinkFields drafts={d.clone()} p={params.p} p_hint="2 to 64; any p, powers of two or not"
                size={(params.size.text.clone(), params.size.value)} bw={params.bw.text.clone()}
                alpha={params.alpha.text.clone()} on_commit={on_commit_field(state)} />
            if params.alg.needs_nodes() {
                <TextField name="gpus" label="Ranks per node" value={d.text_or("gpus", &params.gpus.to_string())}
                    error={d.error("gpus")}
                    hint={AttrValue::from(format!("divides p: {} nodes of {}", params.p / params.gpus.max(1), params.gpus))}
                    on_commit={on_commit(state, "gpus")} />
            }
        </form>
    }
}
