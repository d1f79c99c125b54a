use futures_executor::block_on;
use serde_json::json;

use super::tests::{sync, texts, Log};
use super::*;
use crate::core::model::scope::Scope;
use crate::core::model::scope_fields::ScopeFields;
use crate::core::model::types::{EventKind, WarningCode};
use crate::core::pipeline_options::AddOptions;
use crate::core::testing::{KeepingStorage, Letters, ScriptedLlm};
use crate::core::time::Clock;

type Device = MemoryEngine<ScriptedLlm, Letters, KeepingStorage>;

/// A device whose clock stands at `at` ms and whose LLM answers every decision with `memory`.
fn device(at: i64, memory: serde_json::Value) -> (Device, ScriptedLlm) {
    let llm = ScriptedLlm::responding(move |_| json!({ "memory": memory }).to_string());
    let storage = KeepingStorage::new();
    let mut engine = block_on(MemoryEngine::open(llm.clone(), Letters::new(26), storage, Default::default())).unwrap();
    engine.set_clock(Clock::from_fn(move || at));
    block_on(engine.sync_start()).unwrap();
    (engine, llm)
}

/// The decision that merges the arrival into the memory shown first.
fn update_to(text: &str) -> serde_json::Value {
    json!([{ "id": "0", "event": "UPDATE", "text": text }])
}

fn remember(device: &Device, text: &str) -> String {
    let options = AddOptions { scope: ScopeFields::user("alice"), infer: Some(false), ..AddOptions::default() };
    block_on(device.add(&json!(text), &options)).unwrap().results[0].id.clone()
}

fn export(device: &Device) -> String {
    block_on(device.export(Scope::default())).unwrap()
}

/// The laptop learnt "works at X", then the phone "works at Y"; both synced once, in that order.
fn x_then_y(laptop: &Device, phone: &Device, log: &Log) -> (String, String, Applied) {
    let x = remember(laptop, "works at X");
    sync(laptop, log);
    let y = remember(phone, "works at Y");
    (x, y, sync(phone, log))
}

#[test]
fn works_at_x_and_works_at_y_end_as_one_fact_with_an_update_in_history() {
    let log = Log::new("log-1");
    let (laptop, laptop_llm) = device(1_000_000, update_to("works at Y"));
    let (phone, phone_llm) = device(2_000_000, update_to("never asked"));
    let (x, y, applied) = x_then_y(&laptop, &phone, &log);
    assert_eq!(applied.arrived, [x.as_str()]);
    assert_eq!(block_on(phone.sync_curate(&applied.arrived)).unwrap(), Curated::default());
    assert!(phone_llm.calls().is_empty(), "the phone wrote the newer fact: the laptop judges the pair");

    let applied = sync(&laptop, &log);
    assert_eq!(applied.arrived, [y.as_str()]);
    let curated = block_on(laptop.sync_curate(&applied.arrived)).unwrap();
    assert_eq!((curated.judged, curated.updated, curated.deleted), (1, 1, 1), "{curated:?}");
    let calls = laptop_llm.calls();
    assert_eq!(calls.len(), 1);
    assert!(calls[0].user.contains(r#"{"id":"0","text":"works at X"}"#), "{}", calls[0].user);
    assert!(calls[0].user.contains(r#"["works at Y"]"#), "the arrival is the new fact: {}", calls[0].user);
    assert!(block_on(laptop.sync_status()).unwrap().pending > 0, "the curation waits to be pushed");

    sync(&laptop, &log);
    sync(&phone, &log);
    assert_eq!(texts(&laptop), ["works at Y"]);
    assert_eq!(texts(&phone), ["works at Y"]);
    let history = block_on(phone.history(&x)).unwrap();
    let update = history.iter().find(|record| record.event == EventKind::Update).expect("an UPDATE of X");
    assert_eq!((update.old_value.as_deref(), update.new_value.as_deref()), (Some("works at X"), Some("works at Y")));
    assert_eq!(export(&laptop), export(&phone), "byte-for-byte the same");
    assert_eq!(phone_llm.calls().len(), 0);
}

#[test]
fn two_devices_that_judge_the_same_pair_alike_write_the_same_records() {
    let log = Log::new("log-1");
    let (laptop, _) = device(1_000_000, update_to("works at Y"));
    let (phone, _) = device(2_000_000, update_to("works at Y"));
    let (tablet, tablet_llm) = device(3_000_000, update_to("works at Y"));
    let (x, _, _) = x_then_y(&laptop, &phone, &log);
    let both = sync(&tablet, &log);
    assert_eq!(both.arrived.len(), 2, "the tablet pulls X and Y at once");
    assert_eq!(block_on(tablet.sync_curate(&both.arrived)).unwrap().judged, 1, "Y against X; X has nothing older");
    assert_eq!(tablet_llm.calls().len(), 1);
    let arrived = sync(&laptop, &log).arrived;
    assert_eq!(block_on(laptop.sync_curate(&arrived)).unwrap().updated, 1);
    for device in [&tablet, &laptop, &phone, &tablet, &laptop] {
        sync(device, &log);
    }
    assert_eq!(export(&laptop), export(&phone));
    assert_eq!(export(&laptop), export(&tablet));
    let history = block_on(phone.history(&x)).unwrap();
    assert_eq!(history.iter().filter(|record| record.event == EventKind::Update).count(), 1, "{history:?}");
}

#[test]
fn a_delete_removes_the_older_memory_and_a_none_the_duplicate_arrival() {
    for (decision, left) in [("DELETE", "works at Y"), ("NONE", "works at X")] {
        let log = Log::new("log-1");
        let (laptop, _) = device(1_000_000, json!([{ "id": "0", "event": decision }]));
        let (phone, _) = device(2_000_000, json!([]));
        x_then_y(&laptop, &phone, &log);
        let curated = block_on(laptop.sync_curate(&sync(&laptop, &log).arrived)).unwrap();
        assert_eq!((curated.updated, curated.deleted), (0, 1), "{decision}: {curated:?}");
        assert_eq!(texts(&laptop), [left], "{decision}");
        sync(&laptop, &log);
        sync(&phone, &log);
        assert_eq!(export(&laptop), export(&phone), "{decision}");
    }
}

#[test]
fn a_failing_llm_warns_and_changes_nothing() {
    let log = Log::new("log-1");
    let (laptop, laptop_llm) = device(1_000_000, update_to("works at Y"));
    let (phone, _) = device(2_000_000, json!([]));
    x_then_y(&laptop, &phone, &log);
    let arrived = sync(&laptop, &log).arrived;
    laptop_llm.fail_when(|_| true);
    let before = export(&laptop);
    let curated = block_on(laptop.sync_curate(&arrived)).unwrap();
    assert_eq!((curated.judged, curated.updated, curated.deleted), (1, 0, 0));
    assert_eq!(curated.warnings.len(), 1);
    assert_eq!(curated.warnings[0].code, WarningCode::DecisionFailed);
    assert_eq!(export(&laptop), before);
    assert_eq!(block_on(laptop.sync_status()).unwrap().pending, 0, "nothing to push");
}

#[test]
fn curating_an_id_that_is_no_longer_here_is_a_no_op() {
    let log = Log::new("log-1");
    let (laptop, laptop_llm) = device(1_000_000, update_to("works at Y"));
    let (phone, _) = device(2_000_000, json!([]));
    let (_, y, _) = x_then_y(&laptop, &phone, &log);
    sync(&laptop, &log);
    block_on(laptop.delete(&y, false)).unwrap();
    let curated = block_on(laptop.sync_curate(&[y, "no-such-id".into()])).unwrap();
    assert_eq!(curated, Curated::default());
    assert!(laptop_llm.calls().is_empty());
}
